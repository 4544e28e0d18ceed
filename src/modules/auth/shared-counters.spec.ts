// SharedCounterStore with an in-memory fake of Redis's two scripts that can be made to fail.
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { WindowScripts } from './shared-counters.js';
import { SharedCounterStore } from './shared-counters.js';

function fakeRedis() {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let clock = 1_000_000;
  let listener: (up: boolean, reason?: string) => void = () => undefined;
  const state = { down: false, calls: 0 };
  const check = () => {
    state.calls += 1;
    if (state.down) return Promise.reject(new Error('connect ECONNREFUSED'));
    return null;
  };
  const scripts: WindowScripts = {
    hitWindow: (key, windowMs) => {
      const refused = check();
      if (refused) return refused;
      let w = windows.get(key);
      if (!w || w.resetAt <= clock) windows.set(key, (w = { count: 0, resetAt: clock + windowMs }));
      w.count += 1;
      return Promise.resolve([w.count, w.resetAt - clock]);
    },
    peekWindow: (key) => {
      const refused = check();
      if (refused) return refused;
      const w = windows.get(key);
      return Promise.resolve(w && w.resetAt > clock ? [w.count, w.resetAt - clock] : [0, 0]);
    },
    onConnection: (l) => (listener = l),
    close: () => Promise.resolve(),
  };
  return { scripts, state, windows, tick: (ms: number) => (clock += ms), now: () => clock, connection: (up: boolean) => listener(up, 'test') };
}

describe(SharedCounterStore.name, () => {
  it('counts in the shared windows, one script call per hit, so two instances share one limit', async () => {
    const redis = fakeRedis();
    const a = new SharedCounterStore(redis.scripts, redis.now);
    const b = new SharedCounterStore(redis.scripts, redis.now);
    const decisions = [await a.hit('key:k', 3, 60_000), await b.hit('key:k', 3, 60_000), await a.hit('key:k', 3, 60_000), await b.hit('key:k', 3, 60_000)];
    expect(decisions.map((d) => d.blocked)).toEqual([false, false, false, true]);
    expect(decisions[3]?.retryAfterSeconds).toBe(60);
    expect(redis.state.calls).toBe(4);
    expect(await a.peek('key:k')).toEqual({ count: 4, retryAfterSeconds: 60 });
    expect(a.status()).toEqual({ mode: 'shared', redisConfigured: true, redisErrors: 0 });
  });

  it('while Redis fails, counts per instance, reports it, and is shared again once Redis answers', async () => {
    const redis = fakeRedis();
    const a = new SharedCounterStore(redis.scripts, redis.now);
    await a.hit('key:k', 2, 60_000);
    redis.state.down = true;
    redis.connection(false);
    // Per instance: this process's memory starts its own window.
    const local = [await a.hit('key:k', 2, 60_000), await a.hit('key:k', 2, 60_000), await a.hit('key:k', 2, 60_000)];
    expect(local.map((d) => d.blocked)).toEqual([false, false, true]);
    expect(a.status()).toMatchObject({ mode: 'per-instance', redisErrors: 3, message: expect.stringContaining('Redis unreachable') });
    expect((await a.peek('key:k')).count).toBe(3);
    redis.state.down = false;
    redis.connection(true);
    expect(a.status().mode).toBe('shared');
    // The shared window had counted one hit before the outage.
    expect((await a.hit('key:k', 2, 60_000)).blocked).toBe(false);
    expect((await a.hit('key:k', 2, 60_000)).blocked).toBe(true);
  });

  it('logs a Redis failure once a minute at most, not once per request', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const redis = fakeRedis();
      const store = new SharedCounterStore(redis.scripts, redis.now);
      redis.state.down = true;
      for (let i = 0; i < 100; i++) await store.hit('key:k', 600, 60_000);
      expect(warn).toHaveBeenCalledTimes(1);
      redis.tick(59_000);
      await store.hit('key:k', 600, 60_000);
      expect(warn).toHaveBeenCalledTimes(1);
      redis.tick(1_000);
      await store.hit('key:k', 600, 60_000);
      expect(warn).toHaveBeenCalledTimes(2);
      expect(store.status().redisErrors).toBe(102);
    } finally {
      warn.mockRestore();
    }
  });
});
