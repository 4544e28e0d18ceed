// Everything that makes the HTTP surface what it is, shared by main.ts and the e2e tests.
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { createValidationPipe } from './common/errors/validation.js';
import type { AppConfig } from './config/app-config.js';

export function configureApp(app: INestApplication, config: Pick<AppConfig, 'CORS_ORIGINS' | 'TRUST_PROXY'>): OpenAPIObject {
  const express = app as NestExpressApplication;
  express.useLogger(app.get(Logger));
  express.set('query parser', 'simple');
  // Behind a load balancer, the client address (rate limits, failed-login limits) is the one it
  // forwards; set TRUST_PROXY to the proxies to believe (see README).
  express.set('trust proxy', config.TRUST_PROXY);
  express.disable('x-powered-by');
  // The GraphiQL page loads its scripts inline; everything else gets the strict default policy.
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
  express.useBodyParser('json', { limit: '256kb' });
  // CORS only for the listed dashboard origins; none by default.
  if (config.CORS_ORIGINS.length) {
    app.enableCors({ origin: config.CORS_ORIGINS.includes('*') ? true : config.CORS_ORIGINS, allowedHeaders: ['content-type', 'authorization', 'x-api-key', 'x-request-id'], maxAge: 600 });
  }
  app.useGlobalPipes(createValidationPipe());
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });
  return document;
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('GPU Cost API')
    .setDescription(
      'Versioned GPU price catalog, cheapest compliant offer and inference cost estimates. ' +
        'Every catalog-backed answer names the catalog version it used; reads accept `version` or `asOf`. ' +
        'Errors are application/problem+json.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key, when AUTH_MODE=required' })
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, 'x-api-key')
    .addSecurityRequirements('bearer')
    .build();
  return SwaggerModule.createDocument(app, config);
}
