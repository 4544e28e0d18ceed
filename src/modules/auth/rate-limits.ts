// The gate's limits, counted by @fastify/rate-limit: each limit is the library's limiter
// (createRateLimit), a fixed one-minute window per key. With REDIS_URL the windows are in Redis,
// shared by every instance (the library's Redis store: one Lua script per count, atomic, so
// instances counting at once never lose a count). While Redis does not answer (down, slow, not
// connected yet), a count goes to a second limiter of the same limit in this process's memory
// (per-instance limits, the service keeps answering: docs/adr/0007-rate-limits-fail-open-to-per-instance.md);
// the failure is counted for /metrics, shown in /health/ready and logged at most once a minute.
// (The library's skipOnError would let such a request through uncounted.) A command that times out
// drops the connection, which is made again (reset()).
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import { Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { defined } from '../../domain/checked.js';

const RATE_LIMIT_WINDOW_MS = 60_000;

/** Keys (callers, addresses) whose windows an instance keeps in memory; the least recently seen beyond this are forgotten. */
const RATE_LIMIT_TRACKED_KEYS = 100_000;

/**
 * Keys of this service in a Redis that others may share: the names of the hand-written counters
 * before the library, whose script counts them alike, so that a rolling deploy keeps one count.
 */
const NAMESPACE = 'gpu-cost-api:window:';
const LOG_EVERY_MS = 60_000;

/** ioredis's error for a command not answered within commandTimeout. */
const COMMAND_TIMED_OUT = 'Command timed out';

export interface RateLimitDecision {
  blocked: boolean;
  /** Seconds until the key's window resets (≥ 1). */
  retryAfterSeconds: number;
}

export interface Limit {
  /** Counts one request of the key in its window; blocked when that request is over the limit. */
  hit(request: FastifyRequest): Promise<RateLimitDecision>;
}

export interface CountersStatus {
  /** shared: in Redis, global across instances; per-instance: in this process's memory. */
  mode: 'shared' | 'per-instance';
  /** Whether REDIS_URL is set. */
  redisConfigured: boolean;
  /** Redis commands that failed (each such request was counted in memory instead). */
  redisErrors: number;
  /** Why the counts are per instance although REDIS_URL is set. */
  message?: string;
}

/** The Redis client: short timeouts, no queue while disconnected (a count then falls back at once), reconnecting every second. */
export function rateLimitRedis(url: string, timeouts: { connectMs: number; commandMs: number }): Redis {
  return new Redis(url, {
    connectTimeout: timeouts.connectMs,
    commandTimeout: timeouts.commandMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => 1000,
    lazyConnect: false,
  });
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
type LimiterAnswer = Awaited<ReturnType<Limiter>>;

/**
 * The library's limiter with these options. The plugin keeps one store per registration, so each
 * limiter is registered in a Fastify scope of its own; `global: false` adds no hook to any route.
 */
async function limiter(fastify: FastifyInstance, options: RateLimitPluginOptions): Promise<Limiter> {
  let made: Limiter | undefined;
  await fastify.register(async (scope) => {
    await scope.register(rateLimit, { ...options, global: false });
    made = scope.createRateLimit();
  });
  return defined(made, 'the rate limiter');
}

function decision(answer: LimiterAnswer): RateLimitDecision {
  // isAllowed: an allow-list match, and no limit here has an allow list.
  if (answer.isAllowed) return { blocked: false, retryAfterSeconds: 1 };
  return { blocked: answer.isExceeded, retryAfterSeconds: Math.max(1, answer.ttlInSeconds) };
}

/** Where the gate's limits count: Redis (REDIS_URL) with this process's memory as the fallback, or memory alone. */
export class RateLimitCounters {
  private readonly logger = new Logger('RateLimits');
  private errors = 0;
  private problem: string | null;
  private lastLoggedAt = -Infinity;
  /** Whether the connection has been dropped after a timeout and is not ready again yet. */
  private resetting = false;

  constructor(
    private readonly redis: Redis | null,
    private readonly now: () => number = Date.now,
  ) {
    this.problem = redis ? 'not connected yet' : null;
    redis?.on('ready', () => {
      if (this.problem !== null && this.errors > 0) this.logger.log('Redis answers again: rate limits are shared across instances');
      this.problem = null;
      this.resetting = false;
    });
    redis?.on('error', (error: Error) => (this.problem = `Redis unreachable (${error.message})`));
    redis?.on('close', () => (this.problem = 'Redis unreachable (connection closed)'));
  }

  /** `max` requests a minute per keyOf(request). Registers the limiters on `fastify`, so before it starts. */
  async limit(fastify: FastifyInstance, max: number, keyOf: (request: FastifyRequest) => string): Promise<Limit> {
    const options = { max, timeWindow: RATE_LIMIT_WINDOW_MS, keyGenerator: keyOf };
    const local = await limiter(fastify, { ...options, cache: RATE_LIMIT_TRACKED_KEYS });
    const shared = this.redis ? await limiter(fastify, { ...options, redis: this.redis, nameSpace: NAMESPACE }) : null;
    const count = async (request: FastifyRequest): Promise<LimiterAnswer> => {
      if (shared) {
        try {
          const answer = await shared(request);
          this.problem = null;
          return answer;
        } catch (error) {
          this.failed(error);
        }
      }
      return local(request);
    };
    return { hit: async (request) => decision(await count(request)) };
  }

  /** Where the counts live right now, for /health/ready and /metrics. */
  status(): CountersStatus {
    if (!this.redis) return { mode: 'per-instance', redisConfigured: false, redisErrors: 0 };
    return this.problem === null
      ? { mode: 'shared', redisConfigured: true, redisErrors: this.errors }
      : { mode: 'per-instance', redisConfigured: true, redisErrors: this.errors, message: `${this.problem}: rate limits are per instance` };
  }

  close(): void {
    this.redis?.disconnect();
  }

  private failed(error: unknown): void {
    this.errors += 1;
    const message = error instanceof Error ? error.message : String(error);
    this.problem = `Redis unreachable (${message})`;
    const reset = message === COMMAND_TIMED_OUT && this.reset();
    const now = this.now();
    if (now - this.lastLoggedAt < LOG_EVERY_MS) return;
    this.lastLoggedAt = now;
    this.logger.warn(
      `${this.problem}; counting rate limits per instance${reset ? ', reconnecting' : ''} (${this.errors} failed commands so far; logged at most once a minute)`,
    );
  }

  /**
   * Drops the connection after a command timed out, and makes it again (ioredis's retryStrategy).
   * The command stays in the connection's queue, and answers are matched to commands in order: had
   * its answer been lost (a half-open connection, a proxy that dropped bytes), every later command
   * would take a later one's answer (another key's count) or time out waiting, for as long as the
   * connection lives. Once per connection, however many of its commands time out; meanwhile counts
   * fail at once and go to memory. Whether it reset now.
   */
  private reset(): boolean {
    if (!this.redis || this.resetting) return false;
    this.resetting = true;
    this.redis.disconnect(true);
    return true;
  }
}
