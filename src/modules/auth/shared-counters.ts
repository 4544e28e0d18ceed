// Rate-limit and failed-authentication windows shared by every instance through Redis
// (REDIS_URL). A hit is one round trip: a Lua script that increments the window's counter, starts
// its expiry on the first hit and returns the count with the time left, atomically, so instances
// hitting at once never lose a count. While Redis does not answer (down, slow, not connected yet),
// each hit is counted in this process's memory instead (per-instance limits, the service keeps
// answering: docs/adr/0007-rate-limits-fail-open-to-per-instance.md), the failure is counted for
// /metrics and shown in /health/ready, and logged at most once a minute.
import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { FixedWindowStore, secondsUntil, type CountersStatus, type RateLimitDecision, type RateLimitStore, type WindowCount } from './rate-limit-store.js';

/** What the store needs of Redis: the two scripts, each answering [count, milliseconds left]. */
export interface WindowScripts {
  hitWindow(key: string, windowMs: number): Promise<[number, number]>;
  peekWindow(key: string): Promise<[number, number]>;
  /** Called with true when the connection is ready, false when it is lost. */
  onConnection(listener: (up: boolean, reason?: string) => void): void;
  close(): Promise<void>;
}

const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}`;

const PEEK_SCRIPT = `
local n = redis.call('GET', KEYS[1])
if not n then return {0, 0} end
return {tonumber(n), redis.call('PTTL', KEYS[1])}`;

/** Keys of this service in a Redis that others may share. */
const PREFIX = 'gpu-cost-api:window:';
const LOG_EVERY_MS = 60_000;

/** The Redis client: short timeouts, no queue while disconnected (a hit then falls back at once), reconnecting every second. */
export function redisWindowScripts(url: string, timeouts: { connectMs: number; commandMs: number }): WindowScripts {
  const redis = new Redis(url, {
    connectTimeout: timeouts.connectMs,
    commandTimeout: timeouts.commandMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => 1000,
    keyPrefix: PREFIX,
    lazyConnect: false,
  });
  redis.defineCommand('hitWindow', { numberOfKeys: 1, lua: HIT_SCRIPT });
  redis.defineCommand('peekWindow', { numberOfKeys: 1, lua: PEEK_SCRIPT });
  type Scripted = Redis & {
    hitWindow(key: string, windowMs: number): Promise<[number, number]>;
    peekWindow(key: string): Promise<[number, number]>;
  };
  const scripted = redis as Scripted;
  return {
    hitWindow: (key, windowMs) => scripted.hitWindow(key, windowMs),
    peekWindow: (key) => scripted.peekWindow(key),
    onConnection: (listener) => {
      redis.on('ready', () => listener(true));
      redis.on('error', (error: Error) => listener(false, error.message));
      redis.on('close', () => listener(false, 'connection closed'));
    },
    close: async () => {
      redis.disconnect();
      return Promise.resolve();
    },
  };
}

export class SharedCounterStore implements RateLimitStore {
  private readonly logger = new Logger('SharedCounters');
  private readonly local = new FixedWindowStore();
  private errors = 0;
  private problem: string | null = 'not connected yet';
  private lastLoggedAt = -Infinity;

  constructor(
    private readonly redis: WindowScripts,
    private readonly now: () => number = Date.now,
  ) {
    redis.onConnection((up, reason) => {
      if (up) {
        if (this.problem !== null && this.errors > 0) this.logger.log('Redis answers again: rate limits are shared across instances');
        this.problem = null;
      } else this.problem = `Redis unreachable (${reason ?? 'unknown'})`;
    });
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    try {
      const [count, leftMs] = await this.redis.hitWindow(key, windowMs);
      this.problem = null;
      return { blocked: count > limit, retryAfterSeconds: secondsUntil(leftMs, 0) };
    } catch (error) {
      this.failed(error);
      return this.local.hit(key, limit, windowMs, this.now());
    }
  }

  async peek(key: string): Promise<WindowCount> {
    try {
      const [count, leftMs] = await this.redis.peekWindow(key);
      this.problem = null;
      return { count, retryAfterSeconds: secondsUntil(leftMs, 0) };
    } catch (error) {
      this.failed(error);
      return this.local.peek(key, this.now());
    }
  }

  status(): CountersStatus {
    return this.problem === null
      ? { mode: 'shared', redisConfigured: true, redisErrors: this.errors }
      : { mode: 'per-instance', redisConfigured: true, redisErrors: this.errors, message: `${this.problem}: rate limits are per instance` };
  }

  close(): Promise<void> {
    return this.redis.close();
  }

  private failed(error: unknown): void {
    this.errors += 1;
    this.problem = `Redis unreachable (${error instanceof Error ? error.message : String(error)})`;
    const now = this.now();
    if (now - this.lastLoggedAt < LOG_EVERY_MS) return;
    this.lastLoggedAt = now;
    this.logger.warn(`${this.problem}; counting rate limits per instance (${this.errors} failed commands so far; logged at most once a minute)`);
  }
}
