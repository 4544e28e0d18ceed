// Boot: validate config, pick the database (DATABASE_URL or an embedded PostgreSQL), apply
// migrations and seed an empty catalog (unless MIGRATE_ON_START=false), then serve (serve.ts).
// Only the configuration and the database are imported here: the application's code loads while
// the database starts.
import { ConfigError, loadConfig, type AppConfig } from './config/app-config.js';
import { resolveDatabase } from './database/database-url.js';
import { explainStartupFailure } from './database/startup-checks.js';
import type { Started } from './serve.js';

const started: Started = {};

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  started.config = config;

  const application = import('./serve.js');
  // A failed start of the database must not leave the import's rejection unhandled.
  application.catch(() => undefined);
  const database = await resolveDatabase(config, { share: true });
  started.database = database;
  const { serve } = await application;
  await serve(config, database, started);
}

main().catch(async (error: unknown) => {
  // One or two lines for a person; the stack only when asked for (LOG_LEVEL=debug or trace).
  for (const line of explainStartupFailure(error)) console.error(line);
  if (started.config && ['debug', 'trace'].includes(started.config.LOG_LEVEL)) console.error(error);
  // Whatever this process started is stopped: the app (and its pool), then the embedded PostgreSQL.
  await started.app?.close().catch(() => undefined);
  await started.database?.stop().catch(() => undefined);
  process.exit(1);
});
