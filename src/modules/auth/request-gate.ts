// Who may call, and how often: the one place that authenticates a request (AUTH_MODE=required),
// limits failed authentications per client address, and counts the caller's requests against
// RATE_LIMIT_PER_MINUTE. Every request to /v1 and /graphql passes it in Fastify's onRequest hook
// (modules/http/http-hooks.ts), before its body is read or a GraphQL document parsed, so an
// anonymous or over-limit caller costs no parsing at all. The counts live in GATE_STORAGE: this
// process's memory, or Redis shared by all instances (REDIS_URL; request-gate.module.ts).
import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { ApiKeysService, type Caller } from './api-keys.service.js';
import type { CountersStatus, RateLimitDecision, RateLimitStore } from './rate-limit-store.js';
import type { CallerRequest } from './request-context.js';

/** The rate limiter's store (bound in request-gate.module.ts; a fake in the unit tests). */
export const GATE_STORAGE = Symbol('GATE_STORAGE');

/** Failed authentications a client address may make per minute before it gets 429. */
export const FAILED_AUTH_PER_MINUTE = 20;
const MINUTE_MS = 60_000;

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

@Injectable()
export class RequestGate {
  constructor(
    private readonly keys: ApiKeysService,
    @Inject(GATE_STORAGE) private readonly storage: RateLimitStore,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'AUTH_MODE' | 'RATE_LIMIT_PER_MINUTE'>,
  ) {}

  /** Whether requests need an API key (AUTH_MODE=required); without, authenticate() has nothing to do. */
  get keyRequired(): boolean {
    return this.config.AUTH_MODE !== 'off';
  }

  /** AUTH_MODE=required: the caller of a valid key, else throws (401, or 429 after too many failures). */
  async authenticate(req: CallerRequest): Promise<Caller | null> {
    if (this.config.AUTH_MODE === 'off') return null;
    if (req.caller) return req.caller;
    const ip = req.ip ?? 'unknown';
    const key = keyFrom(req.headers);
    // A key verified a moment ago passes at once, so that others failing from the same address
    // (behind a shared proxy, say) cannot lock its holder out.
    const known = key ? this.keys.peek(key) : undefined;
    if (known) {
      req.caller = known;
      return known;
    }
    // A client that keeps failing is refused before its key is looked up. (Failures in the
    // current minute, from the address's first failure.)
    const failures = await this.storage.peek(`fail:${ip}`);
    if (failures.count >= FAILED_AUTH_PER_MINUTE) throw new TooManyRequests(failures.retryAfterSeconds);
    if (!key) {
      await this.storage.hit(`fail:${ip}`, FAILED_AUTH_PER_MINUTE, MINUTE_MS);
      throw new AppError('AUTH.MISSING_KEY', 'UNAUTHENTICATED', 'an API key is required: send Authorization: Bearer <key> or x-api-key');
    }
    const caller = key.length <= 200 ? await this.keys.verify(key) : null;
    if (!caller) {
      await this.storage.hit(`fail:${ip}`, FAILED_AUTH_PER_MINUTE, MINUTE_MS);
      throw new AppError('AUTH.INVALID_KEY', 'UNAUTHENTICATED', 'the API key is unknown or revoked');
    }
    req.caller = caller;
    return caller;
  }

  /**
   * One request of the caller (its key, else its address); throws (or, with a shared store,
   * rejects with) TooManyRequests over the limit. In memory it answers at once, without a promise.
   */
  count(req: CallerRequest): void | Promise<void> {
    const limit = this.config.RATE_LIMIT_PER_MINUTE;
    if (limit === 0) return;
    const tracker = req.caller ? `key:${req.caller.keyId}` : `ip:${req.ip ?? 'unknown'}`;
    const decision = this.storage.hit(tracker, limit, MINUTE_MS);
    if (decision instanceof Promise) return decision.then(refuseOver);
    refuseOver(decision);
  }

  /** Where the counts live (shared in Redis, or per instance), for /health/ready and /metrics. */
  countersStatus(): CountersStatus {
    return this.storage.status();
  }
}

function refuseOver(decision: RateLimitDecision): void {
  if (decision.blocked) throw new TooManyRequests(decision.retryAfterSeconds);
}
