// Who may call, and how often: the one place that authenticates a request (AUTH_MODE=required),
// refuses an address's failed authentications past a limit, and counts the caller's requests against
// RATE_LIMIT_PER_MINUTE. Every request to /v1 and /graphql passes it in Fastify's onRequest hook
// (modules/http/http-hooks.ts), before its body is read or a GraphQL document parsed, so an
// anonymous or over-limit caller costs no parsing at all. The limits are @fastify/rate-limit's,
// counted in this process's memory or in Redis shared by all instances (REDIS_URL; rate-limits.ts).
import { Inject, Injectable } from '@nestjs/common';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../common/errors/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { defined } from '../../domain/checked.js';
import { ApiKeysService, type Caller } from './api-keys.service.js';
import { RateLimitCounters, type CountersStatus, type Limit, type RateLimitDecision } from './rate-limits.js';
import type { CallerRequest } from './request-context.js';

/** Failed authentications a client address may make per minute before it gets 429. */
export const FAILED_AUTH_PER_MINUTE = 20;

export class TooManyRequests extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many requests; retry later.');
    this.name = 'TooManyRequests';
  }
}

export function keyFrom(headers: Record<string, string | string[] | undefined>): string | null {
  const auth = headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+\S+$/i.test(auth)) return auth.replace(/^Bearer\s+/i, '');
  const key = headers['x-api-key'];
  return typeof key === 'string' && key.length > 0 ? key : null;
}

/** The client's address as the library keys it: IPv6 by its /64 network, which one client holds whole. */
const addressOf = (request: FastifyRequest): string => normalizeIP(request.ip ?? 'unknown');

/** The tracker of a request's count: its caller's key once authenticated, else its address. */
export const trackerOf = (request: FastifyRequest): string => {
  const caller = (request as CallerRequest).caller;
  return caller ? `key:${caller.keyId}` : `ip:${addressOf(request)}`;
};

@Injectable()
export class RequestGate {
  private failures: Limit | null = null;
  private requests: Limit | null = null;

  constructor(
    private readonly keys: ApiKeysService,
    private readonly counters: RateLimitCounters,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'AUTH_MODE' | 'RATE_LIMIT_PER_MINUTE'>,
  ) {}

  /** Makes the limits on the app's Fastify instance; installHttpHooks calls it before the app starts. */
  async installLimits(fastify: FastifyInstance): Promise<void> {
    if (this.keyRequired) this.failures = await this.counters.limit(fastify, FAILED_AUTH_PER_MINUTE, (request) => `fail:${addressOf(request)}`);
    const perMinute = this.config.RATE_LIMIT_PER_MINUTE;
    if (perMinute > 0) this.requests = await this.counters.limit(fastify, perMinute, trackerOf);
  }

  /** Whether requests need an API key (AUTH_MODE=required); without, authenticate() has nothing to do. */
  get keyRequired(): boolean {
    return this.config.AUTH_MODE !== 'off';
  }

  /**
   * AUTH_MODE=required: the caller of a valid key, else throws: 401, or 429 once its address has
   * failed FAILED_AUTH_PER_MINUTE times this minute. Only failing tries are counted and refused:
   * a valid key is served from a locked address too, so that others failing from the same address
   * (behind a shared proxy, say) cannot lock its holder out; a wrong or missing key stays refused.
   * So a locked address's keys are still looked up (an unknown one is cached as such too).
   */
  async authenticate(req: CallerRequest): Promise<Caller | null> {
    if (this.config.AUTH_MODE === 'off') return null;
    if (req.caller) return req.caller;
    const key = keyFrom(req.headers);
    const caller = key !== null && key.length <= 200 ? await this.keys.verify(key) : null;
    if (caller) {
      req.caller = caller;
      return caller;
    }
    // Failures in the current minute, from the address's first failure.
    refuseOver(await defined(this.failures, 'the failed-authentication limit (installLimits)').hit(req));
    if (key === null) throw new AppError('AUTH.MISSING_KEY', 'UNAUTHENTICATED', 'an API key is required: send Authorization: Bearer <key> or x-api-key');
    throw new AppError('AUTH.INVALID_KEY', 'UNAUTHENTICATED', 'the API key is unknown or revoked');
  }

  /**
   * One request of the caller (its key, else its address); rejects with TooManyRequests over the
   * limit. With RATE_LIMIT_PER_MINUTE=0 it answers at once, without a promise.
   */
  count(req: CallerRequest): Promise<void> | undefined {
    return this.requests?.hit(req).then(refuseOver);
  }

  /** Where the counts live (shared in Redis, or per instance), for /health/ready and /metrics. */
  countersStatus(): CountersStatus {
    return this.counters.status();
  }
}

function refuseOver(decision: RateLimitDecision): void {
  if (decision.blocked) throw new TooManyRequests(decision.retryAfterSeconds);
}
