// npm run db:migrate: applies pending migrations (prisma/migrations) to DATABASE_URL, or to the
// embedded PostgreSQL when it is unset, recording them in _prisma_migrations exactly as
// `prisma migrate deploy` does.
import { loadConfig } from '../src/config/app-config.js';
import { resolveDatabase } from '../src/database/database-url.js';
import { applyMigrations } from '../src/database/schema-engine.js';
import { runScript } from './script-runner.js';

await runScript(async () => {
  const database = await resolveDatabase(loadConfig());
  try {
    console.log(`Database: ${database.description}`);
    const applied = await applyMigrations(database.url);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'No pending migrations.');
  } finally {
    await database.stop();
  }
});
