// RateLimitCounters over an in-memory fake of Redis that can be made to fail. The fake answers the
// script @fastify/rate-limit's Redis store calls to count (rateLimit: count and milliseconds
// left), so the library's own limiter runs on it.
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimitCounters } from './rate-limits.js';

type Callback = (error: Error | null, result?: [number, number]) => void;

function fakeRedis() {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let clock = 1_000_000;
  const listeners = new Map<string, ((arg?: unknown) => void)[]>();
  /** down: refuses each command; timingOut: each times out (ioredis's error); disconnects: disconnect(reconnect) calls. */
  const state = { down: false, timingOut: false, calls: 0, disconnects: [] as boolean[] };
  const refused = (callback: Callback) => {
    state.calls += 1;
    if (state.down) callback(new Error('connect ECONNREFUSED'));
    else if (state.timingOut) callback(new Error('Command timed out'));
    return state.down || state.timingOut;
  };
  const redis = {
    defineCommand: () => undefined,
    rateLimit: (key: string, windowMs: number, _max: number, _continue: boolean, _backoff: boolean, callback: Callback) => {
      if (refused(callback)) return;
      let w = windows.get(key);
      if (!w || w.resetAt <= clock) windows.set(key, (w = { count: 0, resetAt: clock + windowMs }));
      w.count += 1;
      callback(null, [w.count, w.resetAt - clock]);
    },
    on: (event: string, listener: (arg?: unknown) => void) => listeners.set(event, [...(listeners.get(event) ?? []), listener]),
    disconnect: (reconnect?: boolean) => state.disconnects.push(reconnect === true),
  };
  const emit = (event: string, arg?: unknown) => {
    for (const listener of listeners.get(event) ?? []) listener(arg);
  };
  return { redis: redis as unknown as Redis, state, windows, emit, tick: (ms: number) => (clock += ms), now: () => clock };
}

const instances: FastifyInstance[] = [];
afterEach(async () => {
  jest.restoreAllMocks();
  for (const fastify of instances.splice(0)) await fastify.close();
});

/** One instance's limit of `max` a minute per `x-caller` header. */
async function instance(counters: RateLimitCounters, max: number) {
  const fastify = Fastify();
  instances.push(fastify);
  return counters.limit(fastify, max, (request) => `key:${String(request.headers['x-caller'])}`);
}
const from = (caller: string) => ({ ip: '10.0.0.1', headers: { 'x-caller': caller }, routeOptions: { config: {} } }) as unknown as FastifyRequest;

describe(RateLimitCounters.name, () => {
  it('counts in the shared windows, one script call per count, so two instances share one limit', async () => {
    const fake = fakeRedis();
    const [a, b] = [new RateLimitCounters(fake.redis, fake.now), new RateLimitCounters(fake.redis, fake.now)];
    expect(a.status()).toMatchObject({ mode: 'per-instance', message: expect.stringContaining('not connected yet') });
    const [limitA, limitB] = [await instance(a, 3), await instance(b, 3)];
    const decisions = [await limitA.hit(from('k')), await limitB.hit(from('k')), await limitA.hit(from('k')), await limitB.hit(from('k'))];
    expect(decisions.map((d) => d.blocked)).toEqual([false, false, false, true]);
    expect(decisions[3]?.retryAfterSeconds).toBe(60);
    expect(fake.state.calls).toBe(4);
    expect(fake.windows.get('gpu-cost-api:window:key:k')?.count).toBe(4);
    expect(a.status()).toEqual({ mode: 'shared', redisConfigured: true, redisErrors: 0 });
  });

  it('while Redis fails, counts per instance (not skipped), reports it, and is shared again once Redis answers', async () => {
    const fake = fakeRedis();
    const a = new RateLimitCounters(fake.redis, fake.now);
    const limit = await instance(a, 2);
    await limit.hit(from('k'));
    fake.state.down = true;
    fake.emit('close');
    // Per instance: this process's memory starts its own window, and the third request is refused.
    const local = [await limit.hit(from('k')), await limit.hit(from('k')), await limit.hit(from('k'))];
    expect(local.map((d) => d.blocked)).toEqual([false, false, true]);
    expect(local[2]?.retryAfterSeconds).toBe(60);
    expect(a.status()).toMatchObject({ mode: 'per-instance', redisErrors: 3, message: expect.stringContaining('Redis unreachable') });
    fake.state.down = false;
    fake.emit('ready');
    expect(a.status().mode).toBe('shared');
    // The shared window had counted one request before the outage.
    expect((await limit.hit(from('k'))).blocked).toBe(false);
    expect((await limit.hit(from('k'))).blocked).toBe(true);
  });

  it('drops and remakes the connection once after its commands time out, counting in memory meanwhile', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const fake = fakeRedis();
    const counters = new RateLimitCounters(fake.redis, fake.now);
    const limit = await instance(counters, 2);
    fake.emit('ready');
    await limit.hit(from('k'));
    fake.state.timingOut = true;
    const during = [await limit.hit(from('k')), await limit.hit(from('k')), await limit.hit(from('k'))];
    // Counted in this process's memory, which starts its own window: the third is over the limit.
    expect(during.map((d) => d.blocked)).toEqual([false, false, true]);
    // One reset (reconnecting), however many of the connection's commands timed out.
    expect(fake.state.disconnects).toEqual([true]);
    expect(counters.status()).toMatchObject({ mode: 'per-instance', redisErrors: 3, message: expect.stringContaining('Command timed out') });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('reconnecting'));
    // A refused command is no reason to reset: ioredis reconnects a closed connection by itself.
    fake.state.timingOut = false;
    fake.state.down = true;
    await limit.hit(from('k'));
    expect(fake.state.disconnects).toEqual([true]);
    // Once the new connection is ready, counts are shared again, and a timeout on it resets it too.
    fake.state.down = false;
    fake.emit('ready');
    expect((await limit.hit(from('other'))).blocked).toBe(false);
    expect(counters.status().mode).toBe('shared');
    fake.state.timingOut = true;
    await limit.hit(from('other'));
    expect(fake.state.disconnects).toEqual([true, true]);
  });

  it('without Redis, counts per instance and says so', async () => {
    const counters = new RateLimitCounters(null);
    const limit = await instance(counters, 1);
    expect((await limit.hit(from('k'))).blocked).toBe(false);
    expect((await limit.hit(from('k'))).blocked).toBe(true);
    expect(counters.status()).toEqual({ mode: 'per-instance', redisConfigured: false, redisErrors: 0 });
  });

  it('logs a Redis failure once a minute at most, not once per request', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const fake = fakeRedis();
      const counters = new RateLimitCounters(fake.redis, fake.now);
      const limit = await instance(counters, 600);
      fake.state.down = true;
      for (let i = 0; i < 100; i++) await limit.hit(from('k'));
      expect(warn).toHaveBeenCalledTimes(1);
      fake.tick(59_000);
      await limit.hit(from('k'));
      expect(warn).toHaveBeenCalledTimes(1);
      fake.tick(1_000);
      await limit.hit(from('k'));
      expect(warn).toHaveBeenCalledTimes(2);
      expect(counters.status().redisErrors).toBe(102);
    } finally {
      warn.mockRestore();
    }
  });
});
