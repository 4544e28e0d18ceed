// The rate limiter's store: a fixed one-minute window per caller, so a hit is one LRU lookup and
// one increment (O(1)), whatever the limit. (A store that keeps one timestamp per hit, as
// @nestjs/throttler's does, costs time and memory in proportion to the limit.) A caller may burst
// up to twice its limit across a window boundary; that is the usual price of fixed windows.
import { LRUCache } from 'lru-cache';

export interface RateLimitDecision {
  blocked: boolean;
  /** Seconds until the caller's window resets (≥ 1). */
  retryAfterSeconds: number;
}

export interface RateLimitStore {
  hit(key: string, limit: number, windowMs: number, now?: number): RateLimitDecision;
}

interface Window {
  count: number;
  resetAt: number;
}

/** Callers whose windows are kept at once; the least recently seen beyond this are forgotten. */
export const RATE_LIMIT_TRACKED_CALLERS = 100_000;

export class FixedWindowStore implements RateLimitStore {
  private readonly windows = new LRUCache<string, Window>({ max: RATE_LIMIT_TRACKED_CALLERS });

  hit(key: string, limit: number, windowMs: number, now = Date.now()): RateLimitDecision {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { blocked: window.count > limit, retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
  }
}
