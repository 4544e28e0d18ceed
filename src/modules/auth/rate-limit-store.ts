// The rate limiter's store: a fixed one-minute window per caller, so a hit is one LRU lookup and
// one increment (O(1)), whatever the limit. (A store that keeps one timestamp per hit, as
// @nestjs/throttler's does, costs time and memory in proportion to the limit.) A caller may burst
// up to twice its limit across a window boundary; that is the usual price of fixed windows.
// With REDIS_URL the windows are shared by every instance (shared-counters.ts); this store is then
// what each instance falls back to while Redis does not answer.
import { LRUCache } from 'lru-cache';

export interface RateLimitDecision {
  blocked: boolean;
  /** Seconds until the caller's window resets (≥ 1). */
  retryAfterSeconds: number;
}

export interface WindowCount {
  count: number;
  /** Seconds until the window resets (≥ 1; meaningless when count is 0). */
  retryAfterSeconds: number;
}

/** A store answers at once (in memory) or after one round trip (Redis). */
export type MaybePromise<T> = T | Promise<T>;

export interface RateLimitStore {
  /** Counts one hit of `key` in its window (opened by the first hit) and says whether it is over `limit`. */
  hit(key: string, limit: number, windowMs: number): MaybePromise<RateLimitDecision>;
  /** The hits of `key` in its current window, without counting one. */
  peek(key: string): MaybePromise<WindowCount>;
  /** Where the counts live right now, for /health/ready and /metrics. */
  status(): CountersStatus;
}

export interface CountersStatus {
  /** shared: in Redis, global across instances; per-instance: in this process's memory. */
  mode: 'shared' | 'per-instance';
  /** Whether REDIS_URL is set. */
  redisConfigured: boolean;
  /** Redis commands that failed (each such hit was counted in memory instead). */
  redisErrors: number;
  /** Why the counts are per instance although REDIS_URL is set. */
  message?: string;
}

interface Window {
  count: number;
  resetAt: number;
}

/** Callers whose windows are kept at once; the least recently seen beyond this are forgotten. */
export const RATE_LIMIT_TRACKED_CALLERS = 100_000;

export function secondsUntil(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000));
}

export class FixedWindowStore implements RateLimitStore {
  private readonly windows = new LRUCache<string, Window>({ max: RATE_LIMIT_TRACKED_CALLERS });

  hit(key: string, limit: number, windowMs: number, now = Date.now()): RateLimitDecision {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { blocked: window.count > limit, retryAfterSeconds: secondsUntil(window.resetAt, now) };
  }

  peek(key: string, now = Date.now()): WindowCount {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) return { count: 0, retryAfterSeconds: 1 };
    return { count: window.count, retryAfterSeconds: secondsUntil(window.resetAt, now) };
  }

  status(): CountersStatus {
    return { mode: 'per-instance', redisConfigured: false, redisErrors: 0 };
  }
}
