import { FixedWindowStore } from './rate-limit-store.js';

describe(FixedWindowStore.name, () => {
  it('allows `limit` hits per window and key, then blocks until the window resets', () => {
    const store = new FixedWindowStore();
    const t0 = 1_000_000;
    const decisions = [0, 1, 2, 3].map((i) => store.hit('key:a', 3, 60_000, t0 + i));
    expect(decisions.map((d) => d.blocked)).toEqual([false, false, false, true]);
    // 60 s window opened at t0; at t0 + 3 ms, 59.997 s remain: retry after 60 s (rounded up).
    expect(decisions[3]?.retryAfterSeconds).toBe(60);
    expect(store.hit('key:a', 3, 60_000, t0 + 30_500).retryAfterSeconds).toBe(30);
    // Another key has its own window.
    expect(store.hit('key:b', 3, 60_000, t0 + 4).blocked).toBe(false);
    // The window resets at t0 + 60 s.
    expect(store.hit('key:a', 3, 60_000, t0 + 60_000).blocked).toBe(false);
  });
});
