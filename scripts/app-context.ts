// The admin scripts' way in: the same Nest services as the API, on DATABASE_URL or the embedded
// PostgreSQL, with migrations applied first (so a fresh database works).
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { CliModule } from '../src/cli.module.js';
import { loadConfig, type AppConfig } from '../src/config/app-config.js';
import { resolveDatabase } from '../src/database/database-url.js';
import { applyMigrations } from '../src/database/schema-engine.js';

export async function withAppContext<T>(work: (app: INestApplicationContext, config: AppConfig) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await resolveDatabase(config);
  try {
    await applyMigrations(database.url);
    const app = await NestFactory.createApplicationContext(CliModule.register({ config, databaseUrl: database.url }), { logger: ['error', 'warn'] });
    try {
      return await work(app, config);
    } finally {
      await app.close();
    }
  } finally {
    await database.stop();
  }
}
