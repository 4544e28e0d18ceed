// Boot: validate config, pick the database (DATABASE_URL or an embedded PostgreSQL), apply
// migrations and seed an empty catalog (unless MIGRATE_ON_START=false), then serve (serve.ts).
// Only the configuration and the database are imported here (the bundle puts the application in
// chunks of its own): the application's code loads while the database starts.
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

  // The embedded PostgreSQL's process is launched first: it then starts on the other core while
  // this one loads the application, which holds the event loop for most of that time.
  let launched = (): void => undefined;
  const launch = new Promise<void>((resolve) => (launched = resolve));
  const resolving = resolveDatabase(config, { share: true, onLaunched: () => launched() });
  await Promise.race([launch, resolving.catch(() => undefined)]);
  const application = import('./serve.js');
  // A failed start of the database must not leave the import's rejection unhandled.
  application.catch(() => undefined);
  const database = await resolving;
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
