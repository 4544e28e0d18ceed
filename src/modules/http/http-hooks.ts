// The per-request work that is the same for every route, as Fastify hooks, each doing as little as
// it can:
//   onRequest   the request gate for the API (/v1 and /graphql): API key, then the caller's rate
//               limit; before the body is read, so a refused caller costs no parsing
//   preHandler  the response cache: a repeated read is answered from memory (or with 304)
//   onSend      every answer gets the security headers; a fresh one its ETag and Cache-Control,
//               and is kept if asked before (at once if it may have needed the database)
//   onResponse  metrics (labels resolved once per route) and the request log line
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config/app-config.js';
import { logRequest } from '../../config/logger.options.js';
import { CatalogService } from '../../modules/catalog/catalog.service.js';
import { RequestGate, TooManyRequests } from '../../modules/auth/request-gate.js';
import type { CallerRequest } from '../../modules/auth/request-context.js';
import { MetricsService } from '../../modules/metrics/metrics.service.js';
import { AppError } from '../errors/app-error.js';
import { formatGraphqlError } from '../errors/graphql-errors.js';
import { isDatabaseUnavailable, sendProblem, setProblemHeaders, toProblem, type ProblemDetails } from '../errors/problem-details.filter.js';
import { keepsAnswersAtOnce } from './keep-answers.js';
import { routeOf } from './route-pattern.js';
import { cacheControl, etagOf, matchesIfNoneMatch, planCaching, REPLAYED_HEADERS, ResponseCache, type CachedAnswer, type CachePlan } from './response-cache.js';

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

export function installHttpHooks(
  app: NestFastifyApplication,
  config: Pick<AppConfig, 'CATALOG_REFRESH_MS' | 'RESPONSE_CACHE_MB'>,
  securityHeaders: readonly (readonly [string, string])[],
): ResponseCache {
  const fastify = app.getHttpAdapter().getInstance();
  const gate = app.get(RequestGate);
  const catalog = app.get(CatalogService);
  const metrics = app.get(MetricsService);
  const cache = new ResponseCache(config.RESPONSE_CACHE_MB * 1024 * 1024);
  const refreshSeconds = Math.max(1, Math.ceil(config.CATALOG_REFRESH_MS / 1000));

  fastify.decorateRequest('cachePlan', null);
  fastify.decorateRequest('cachePlannedAt', null);
  fastify.decorateRequest('routePattern', null);

  fastify.addHook('onRequest', (request, reply, done) => {
    // Answers given while PostgreSQL is unreachable come from the in-memory catalog.
    if (catalog.servingFromCache) void reply.header('x-served-from-cache', 'true');
    const route = routeOf(request);
    if (!isGated(route)) return done();
    // Without keys (AUTH_MODE=off) the gate is synchronous: no promise and no function per request.
    if (!gate.keyRequired) {
      try {
        gate.count(request);
      } catch (error) {
        return refused(request, reply, error, done);
      }
      return done();
    }
    gate.authenticate(request as CallerRequest).then(
      () => {
        try {
          gate.count(request);
        } catch (error) {
          return refused(request, reply, error, done);
        }
        done();
      },
      (error: unknown) => refused(request, reply, error, done),
    );
  });

  fastify.addHook('preHandler', (request, reply, done) => {
    // Only the API's answers are cached; health, metrics and the docs pass at once.
    const route = routeOf(request);
    if (!isGated(route)) return done();
    const now = new Date();
    const plan = planCaching(
      {
        method: request.method,
        route,
        path: pathOf(request.url),
        query: request.query,
        body: request.body,
        accept: request.headers.accept,
      },
      catalog.currentVersionId,
      now,
    );
    if (!plan) return done();
    request.cachePlan = plan;
    request.cachePlannedAt = now;
    const hit = cache.get(plan.key);
    if (!hit) {
      void reply.header('x-cache', 'miss');
      return done();
    }
    void reply.header('x-cache', 'hit');
    for (const name of REPLAYED_HEADERS) {
      const value = hit.headers[name];
      if (value !== undefined) void reply.header(name, value);
    }
    if (plan.httpCacheable) {
      validators(reply, plan, hit.etag, refreshSeconds, now);
      if (matchesIfNoneMatch(request.headers['if-none-match'], hit.etag)) {
        void reply.code(304).send();
        return;
      }
    }
    void reply.send(hit.body);
  });

  fastify.addHook('onSend', (request, reply, payload, done) => {
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
    validators(reply, plan, etag, refreshSeconds, request.cachePlannedAt ?? new Date());
    if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
      void reply.code(304);
      return done(null, '');
    }
    done(null, payload);
  });

  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, routeOf(request) ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    logRequest(request, reply);
    done();
  });

  return cache;
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function validators(reply: FastifyReply, plan: CachePlan, etag: string, refreshSeconds: number, now: Date): void {
  void reply.header('etag', etag);
  void reply.header('cache-control', cacheControl(plan.freshness, refreshSeconds, now));
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
