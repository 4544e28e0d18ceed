// The per-request work that is the same for every route, as Fastify hooks, each doing as little as
// it can:
//   onRequest   a body that is not JSON is refused (415) before it is read; then the request gate
//               for the API (/v1 and /graphql): API key, then the caller's rate limit; before the
//               body is read, so a refused caller costs no parsing
//   preHandler  the response cache: a repeated read is answered from memory (or with 304)
//   onSend      every answer gets the security headers; a fresh one its ETag and Cache-Control,
//               and is kept if asked before (at once if it may have needed the database)
//   onResponse  metrics (labels resolved once per route) and the request log line
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config/app-config.js';
import { logRequest } from '../../config/logger.options.js';
import { CatalogService } from '../catalog/index.js';
import { RequestGate, TooManyRequests, type CallerRequest } from '../auth/index.js';
import { MetricsService } from '../metrics/index.js';
import { AppError } from '../../common/errors/app-error.js';
import { formatGraphqlError } from '../../common/errors/graphql-errors.js';
import {
  isDatabaseUnavailable,
  sendAsGraphqlError,
  sendProblem,
  setProblemHeaders,
  toProblem,
  type ProblemDetails,
} from '../../common/errors/problem-details.filter.js';
import { keepsAnswersAtOnce } from '../../common/http/keep-answers.js';
import { routeOf } from './route-pattern.js';
import { contentHashReady } from '../../common/http/content-hash.js';
import { preflightForced } from './graphql-csrf.js';
import {
  cacheControl,
  etagOf,
  matchesIfNoneMatch,
  planCaching,
  REPLAYED_HEADERS,
  ResponseCache,
  type CacheAudience,
  type CachedAnswer,
  type CachePlan,
} from './response-cache.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the preHandler hook when the answer may be cached. */
    cachePlan: CachePlan | null;
    /** When the cache plan was made: the day and the Cache-Control lifetime count from it. */
    cachePlannedAt: Date | null;
  }
}

/** The API surface, which the gate guards; health, metrics and the docs stay open. */
function isGated(route: string | undefined): boolean {
  return route !== undefined && (route === '/graphql' || route.startsWith('/v1/'));
}

export async function installHttpHooks(
  app: NestFastifyApplication,
  config: Pick<AppConfig, 'CATALOG_REFRESH_MS' | 'RESPONSE_CACHE_MB'>,
  securityHeaders: readonly (readonly [string, string])[],
): Promise<ResponseCache> {
  await contentHashReady;
  const fastify = app.getHttpAdapter().getInstance();
  const gate = app.get(RequestGate);
  await gate.installLimits(fastify);
  const hooks: Hooks = {
    gate,
    catalog: app.get(CatalogService),
    cache: new ResponseCache(config.RESPONSE_CACHE_MB * 1024 * 1024),
    refreshSeconds: Math.max(1, Math.ceil(config.CATALOG_REFRESH_MS / 1000)),
    // An answer that needed a key is the caller's: no shared cache may keep it for others.
    audience: gate.keyRequired ? 'private' : 'public',
    securityHeaders,
  };
  const metrics = app.get(MetricsService);

  fastify.decorateRequest('cachePlan', null);
  fastify.decorateRequest('cachePlannedAt', null);
  fastify.decorateRequest('routePattern', null);

  fastify.addHook('onRequest', bodyTypeHook);
  fastify.addHook('onRequest', gateHook(hooks));
  fastify.addHook('preHandler', cacheLookupHook(hooks));
  fastify.addHook('onSend', answerHook(hooks));
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, routeOf(request) ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    logRequest(request, reply);
    done();
  });
  return hooks.cache;
}

/** The largest request body whose answer is kept (POST /v1/estimates). */
const MAX_CACHED_BODY_BYTES = 32 * 1024;

/** What the hooks share, made once at installation. */
interface Hooks {
  gate: RequestGate;
  catalog: CatalogService;
  cache: ResponseCache;
  refreshSeconds: number;
  audience: CacheAudience;
  securityHeaders: readonly (readonly [string, string])[];
}

/** `application/json` or a `+json` type, parameters aside. */
const JSON_MEDIA_TYPE = /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * onRequest: every body the API reads is JSON. A body sent as anything else (text/plain, a form)
 * is a 415 before it is parsed: Fastify would read text as a string and Nest's form parser a form
 * into fields, each then refused as unknown properties that echo the body. A request without a
 * body (no length, no chunked encoding) passes: what it lacks is said by validation.
 */
function bodyTypeHook(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return done();
  const type = request.headers['content-type'];
  const hasBody =
    type !== undefined ||
    (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0') ||
    request.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return done();
  const refusal = unsupportedBody(type, request.headers['content-encoding']);
  if (!refusal) return done();
  const problem: ProblemDetails = {
    type: 'https://gpu-cost-api.dev/problems/request-unsupported-media-type',
    title: 'Unsupported Media Type',
    status: 415,
    detail: `body ${refusal}`,
    code: 'REQUEST.UNSUPPORTED_MEDIA_TYPE',
    errors: [{ field: 'body', message: refusal }],
  };
  void reply.header('accept', 'application/json');
  void reply.header('accept-encoding', 'identity');
  if (routeOf(request) === '/graphql') sendAsGraphqlError(reply, problem);
  else sendProblem(request, reply, problem);
}

/**
 * Why a body cannot be read, or null: JSON only, in UTF-8 (a charset parameter, if any, names it),
 * and not compressed (a Content-Encoding other than identity: Fastify would parse the compressed
 * bytes, or the plain ones labelled gzip, as if they were plain).
 */
export function unsupportedBody(type: string | undefined, encoding: string | string[] | undefined): string | null {
  if (type === undefined || !JSON_MEDIA_TYPE.test(type)) {
    return `must be sent as application/json${type === undefined ? ' (no content-type was given)' : `, not ${type.split(';')[0]?.trim()}`}`;
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(type)?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) return `must be UTF-8, not ${charset}`;
  const coding = (Array.isArray(encoding) ? encoding.join(',') : (encoding ?? '')).trim();
  if (coding !== '' && !/^identity$/i.test(coding)) return `must be sent uncompressed (Content-Encoding ${coding} is not read)`;
  return null;
}

/** onRequest: the request gate (key, then rate limit) for the API's routes, before the body is read. */
function gateHook({ gate, catalog }: Hooks) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    // Answers given while PostgreSQL is unreachable come from the in-memory catalog.
    if (catalog.servingFromCache) void reply.header('x-served-from-cache', 'true');
    const route = routeOf(request);
    if (!isGated(route)) return done();
    // Without keys (AUTH_MODE=off) and with RATE_LIMIT_PER_MINUTE=0 the gate is synchronous: no
    // promise and no function per request.
    if (!gate.keyRequired) return countThen(gate, request, reply, done);
    gate.authenticate(request as CallerRequest).then(
      () => countThen(gate, request, reply, done),
      (error: unknown) => refused(request, reply, error, done),
    );
  };
}

/** Counts the request against its caller's limit, then goes on (or refuses it). */
function countThen(gate: RequestGate, request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
  const counted = gate.count(request);
  if (!counted) return done();
  counted.then(
    () => done(),
    (error: unknown) => refused(request, reply, error, done),
  );
}

/** preHandler: plans the request's caching and answers a hit (or a 304) without reaching Nest. */
function cacheLookupHook({ catalog, cache, refreshSeconds, audience }: Hooks) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    // Only the API's answers are cached; health, metrics and the docs pass at once.
    const route = routeOf(request);
    if (!isGated(route)) return done();
    // A body this large is no estimate anyone repeats (a real one is a few KiB): it is not worth
    // walking and serialising for a cache key.
    if (Number(request.headers['content-length'] ?? 0) > MAX_CACHED_BODY_BYTES) return done();
    const now = new Date();
    const plan = planCaching(
      { method: request.method, route, path: pathOf(request.url), query: request.query, body: request.body, accept: request.headers.accept },
      catalog.currentVersionId,
      now,
    );
    if (!plan) return done();
    request.cachePlan = plan;
    request.cachePlannedAt = now;
    const hit = cache.get(plan.key);
    // Apollo refuses a GraphQL request that a browser sends without a preflight (CSRF); a copy
    // from this cache must not skip that check. Such a request goes on to Apollo, which refuses it
    // with its own status and body.
    if (!hit || (route === '/graphql' && !preflightForced(request.headers))) {
      void reply.header('x-cache', 'miss');
      return done();
    }
    void reply.header('x-cache', 'hit');
    for (const name of REPLAYED_HEADERS) {
      const value = hit.headers[name];
      if (value !== undefined) void reply.header(name, value);
    }
    if (plan.httpCacheable) {
      validators(reply, plan, hit.etag, refreshSeconds, now, audience);
      if (matchesIfNoneMatch(request.headers['if-none-match'], hit.etag)) {
        void reply.code(304).send();
        return;
      }
    }
    void reply.send(hit.body);
  };
}

/** onSend: security headers on every answer; keeps a cacheable answer and adds its validators. */
function answerHook({ cache, refreshSeconds, audience, securityHeaders }: Hooks) {
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void): void => {
    // Every answer, whoever made it (a route, a refusal, a 404, a cached copy), unless it set its own.
    for (const [name, value] of securityHeaders) if (!reply.hasHeader(name)) void reply.header(name, value);
    const plan = request.cachePlan;
    if (!plan || reply.statusCode !== 200 || typeof payload !== 'string' || reply.getHeader('x-cache') === 'hit') return done(null, payload);
    // A GraphQL answer with errors (a persisted query not known yet, say) is not kept.
    if (plan.httpCacheable && routeOf(request) === '/graphql' && payload.includes('"errors"')) return done(null, payload);
    const keep = cache.admits(plan.key, plan.keepAtOnce || keepsAnswersAtOnce(request));
    // A POST (the estimate) gets no validator: its answer is hashed only when it is kept.
    if (!plan.httpCacheable && !keep) return done(null, payload);
    const etag = etagOf(payload);
    if (keep) {
      const answer: CachedAnswer = { body: payload, etag, headers: {} };
      for (const name of REPLAYED_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) answer.headers[name] = String(value);
      }
      cache.set(plan.key, answer);
    }
    if (!plan.httpCacheable) return done(null, payload);
    validators(reply, plan, etag, refreshSeconds, request.cachePlannedAt ?? new Date(), audience);
    if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
      void reply.code(304);
      return done(null, '');
    }
    done(null, payload);
  };
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function validators(reply: FastifyReply, plan: CachePlan, etag: string, refreshSeconds: number, now: Date, audience: CacheAudience): void {
  void reply.header('etag', etag);
  void reply.header('cache-control', cacheControl(plan.freshness, refreshSeconds, now, audience));
  // Only the offer list negotiates its representation (JSON or CSV).
  if (plan.key.startsWith('GET /v1/offers ')) void reply.header('vary', 'Accept');
}

/** Answers the gate's refusal (refuse), or hands anything that is not a refusal to Fastify. */
function refused(request: FastifyRequest, reply: FastifyReply, error: unknown, done: (error?: Error) => void): void {
  try {
    refuse(request, reply, routeOf(request) === '/graphql', error);
  } catch (unexpected) {
    done(unexpected as Error);
  }
}

/**
 * The gate's refusal: problem+json for REST; for /graphql the error GraphQL answers would give
 * (formatGraphqlError), with the same status. A refusal is a 401, a 429 or a 503; anything else
 * is a fault and goes on to the exception filter.
 */
function refuse(request: FastifyRequest, reply: FastifyReply, graphql: boolean, error: unknown): void {
  const limited = error instanceof TooManyRequests;
  if (!limited && !(error instanceof AppError && error.kind === 'UNAUTHENTICATED') && !isDatabaseUnavailable(error)) throw error;
  const problem: ProblemDetails = limited
    ? { type: 'about:blank', title: 'Too Many Requests', status: 429, detail: error.message, code: 'HTTP.429' }
    : toProblem(error);
  if (limited) void reply.header('retry-after', String(error.retryAfterSeconds));
  if (!graphql) return sendProblem(request, reply, problem);
  setProblemHeaders(reply, problem.status);
  const formatted = limited ? { message: error.message, extensions: { code: 'TOO_MANY_REQUESTS' } } : formatGraphqlError({ message: problem.detail }, error);
  void reply
    .code(problem.status)
    .type('application/json')
    .send({ errors: [formatted] });
}
