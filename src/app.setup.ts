// Everything that makes the HTTP surface what it is, shared by main.ts and the docs script: the
// Fastify adapter and its options, security headers, CORS, the validation pipe, the OpenAPI page,
// and the per-request hooks (the request gate, the response cache, metrics, the request log).
import type { INestApplication } from '@nestjs/common';
import { resolveSecurityHeaders } from '@nestjs/core/security/security-headers.js';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { createRequire } from 'node:module';
import { LogController, type FastifyServerOptions } from 'fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import { installGraphiqlAssets } from './common/graphiql.js';
import { answerJson } from './common/http/answer-json.js';
import { createValidationPipe } from './common/errors/validation.js';
import { installHttpHooks } from './modules/http/index.js';
import { BODY_LIMIT_BYTES, MEASUREMENT_ROUTE_LIMITS } from './common/http/limits.js';
import { boundedJsonParser } from './common/http/json-body.js';
import { recordRoutes } from './common/http/route-table.js';
import { trustProxyOf } from './common/http/trust-proxy.js';
import { clientErrorAnswer, frameworkError } from './common/errors/http-layer-errors.js';
import { finishOpenApiDocument } from './common/openapi/finish-document.js';
import { EstimateBodies } from './modules/estimates/index.js';
import type { AppConfig } from './config/app-config.js';
import { requestId } from './config/logger.options.js';

/**
 * helmet's default policy (default-src, script-src, img-src 'self' data:, object-src 'none', ...)
 * without the https: it allows for fonts and styles, and without upgrade-insecure-requests, which
 * would send a browser reaching the service over plain HTTP (http://host:3000 on a network) to
 * an https:// address that does not answer. GraphiQL's fonts are data: URLs in its stylesheet.
 */
export const CSP_DIRECTIVES = {
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'style-src': ["'self'", "'unsafe-inline'"],
  'upgrade-insecure-requests': null,
};

/**
 * Fastify's schema compilers (ajv for validation, fast-json-stringify for responses), loaded when a
 * route with a schema first needs one. No route here has one (Nest validates with class-validator),
 * and Fastify otherwise loads both at start: some hundred files, and memory that no request uses
 * (BENCHMARKS.md, "Memory"). They are Fastify's own dependencies, so they are resolved from it.
 */
const fromFastify = createRequire(import.meta.resolve('fastify'));
type CompilerFactory = (...args: unknown[]) => unknown;
const lazyFactory = (pkg: string): CompilerFactory => {
  let factory: CompilerFactory | undefined;
  return (...args) => (factory ??= (fromFastify(pkg) as () => CompilerFactory)())(...args);
};
const LAZY_SCHEMA_COMPILERS = {
  buildValidator: lazyFactory('@fastify/ajv-compiler'),
  buildSerializer: lazyFactory('@fastify/fast-json-stringify-compiler'),
} as unknown as NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/**
 * helmet 8's headers as Nest builds them (resolveSecurityHeaders, what app.useSecurityHeaders
 * uses), with helmet's Content-Security-Policy narrowed: the pages (GraphiQL, the OpenAPI UI) run
 * only scripts from this origin, none inline, and load nothing from elsewhere; inline styles stay
 * allowed (the OpenAPI UI's page has some). The response hooks add them to every answer
 * (http-hooks.ts): Nest's hook set them one by one on the raw response, then Fastify's own headers
 * were merged in; as Fastify headers they are written in one pass. What they still cost is in
 * BENCHMARKS.md, "Per-request work".
 */
export const SECURITY_HEADERS: readonly (readonly [string, string])[] = resolveSecurityHeaders({
  contentSecurityPolicy: { directives: CSP_DIRECTIVES },
  crossOriginEmbedderPolicy: false,
}).headers.map(([name, value]) => [name.toLowerCase(), value] as const);

export function createHttpAdapter(
  config: Pick<AppConfig, 'TRUST_PROXY' | 'MEASUREMENT_MAX_SAMPLES' | 'GRAPHQL_MAX_TOKENS'>,
  logger: PinoLogger,
): FastifyAdapter {
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // One "request completed" line per request, written by logRequest (logger.options.ts).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestId,
    bodyLimit: BODY_LIMIT_BYTES,
    // Behind a load balancer, the client address (rate limits, failed-login limits) is the one it
    // forwards; set TRUST_PROXY to the proxies to believe (docs/operations.md).
    trustProxy: trustProxyOf(config.TRUST_PROXY),
    routerOptions: { ignoreTrailingSlash: true },
    schemaController: { compilersFactory: LAZY_SCHEMA_COMPILERS },
    // The router's own refusals (a malformed URL such as /v1/%) and the HTTP parser's (431 for a
    // request line or headers over Node's limit), as problem+json like every other error.
    frameworkErrors: frameworkError,
    clientErrorHandler: clientErrorAnswer,
  });
  recordRoutes(adapter.getInstance());
  // The routes that take measurements read larger bodies (common/http/limits.ts).
  adapter.getInstance().addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const limit = MEASUREMENT_ROUTE_LIMITS[route.url];
    if (methods.includes('POST') && limit !== undefined) route.bodyLimit = limit;
  });
  // Registered before Nest's own JSON parser, which Nest then leaves out (common/http/json-body.ts).
  // Large estimate and GraphQL bodies are read by the estimate workers (modules/estimates/estimate-bodies.ts).
  const bodies = new EstimateBodies(config, adapter.getInstance());
  adapter.getInstance().addHook('preParsing', bodies.collect);
  adapter.useBodyParser(
    'application/json',
    false,
    { bodyLimit: BODY_LIMIT_BYTES },
    boundedJsonParser(adapter.getInstance(), config.MEASUREMENT_MAX_SAMPLES, bodies.read),
  );
  // Before any route exists: Fastify gives each route the serialiser set when it is added.
  adapter.getInstance().setReplySerializer((payload) => answerJson(payload));
  return adapter;
}

export async function configureApp(
  app: NestFastifyApplication,
  config: Pick<AppConfig, 'CORS_ORIGINS' | 'CATALOG_REFRESH_MS' | 'RESPONSE_CACHE_MB' | 'OPENAPI_SERVERS' | 'GRAPHQL_PLAYGROUND'>,
): Promise<void> {
  app.useLogger(app.get(Logger));
  // CORS only for the listed dashboard origins; none by default.
  if (config.CORS_ORIGINS.length) {
    app.enableCors({
      origin: config.CORS_ORIGINS.includes('*') ? true : config.CORS_ORIGINS,
      allowedHeaders: ['content-type', 'authorization', 'x-api-key', 'x-request-id', 'if-none-match'],
      exposedHeaders: ['etag', 'x-catalog-version', 'x-next-cursor', 'x-cache'],
      maxAge: 600,
    });
  }
  app.useGlobalPipes(createValidationPipe());
  await installHttpHooks(app, config, SECURITY_HEADERS);
  if (config.GRAPHQL_PLAYGROUND) installGraphiqlAssets(app);
  // Built on the first request for /docs, /openapi.json or /openapi.yaml, not at start: scanning
  // every controller's metadata cost a start about 140 ms on two cores (BENCHMARKS.md, "Starts").
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, config), { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });
}

export function buildOpenApiDocument(app: INestApplication, config: Pick<AppConfig, 'OPENAPI_SERVERS'>): OpenAPIObject {
  const document = new DocumentBuilder()
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
  return finishOpenApiDocument(SwaggerModule.createDocument(app, document), { servers: config.OPENAPI_SERVERS });
}
