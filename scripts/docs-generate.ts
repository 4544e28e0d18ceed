// npm run docs:generate: writes schema.gql and openapi.json from the code, so the committed
// contract files stay in step with it (an e2e test fails when they drift).
import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { AppModule } from '../src/app.module.js';
import { buildOpenApiDocument, createHttpAdapter } from '../src/app.setup.js';
import { printSchemaOf } from '../src/common/schema-printer.js';
import { loadConfig } from '../src/config/app-config.js';
import { createRootLogger } from '../src/config/logger.options.js';
import { resolveDatabase } from '../src/database/database-url.js';
import { runScript } from './script-runner.js';

await runScript(async () => {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const database = await resolveDatabase(config);
  try {
    const logger = createRootLogger(config);
    const app = await NestFactory.create(AppModule.register({ config, databaseUrl: database.url, logger }), createHttpAdapter(config, logger), {
      logger: ['error'],
    });
    await app.init();
    await writeFile('schema.gql', printSchemaOf(app.get(GraphQLSchemaHost).schema));
    await writeFile('openapi.json', `${JSON.stringify(buildOpenApiDocument(app, config), null, 2)}\n`);
    await app.close();
    console.log('Wrote schema.gql and openapi.json');
  } finally {
    await database.stop();
  }
});
