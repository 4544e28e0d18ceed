// RequestGate with in-memory fakes of the key service and the limiter's store.
import type { ApiKeysService, Caller } from './api-keys.service.js';
import type { CallerRequest } from './request-context.js';
import type { RateLimitStore } from './rate-limit-store.js';
import { FAILED_AUTH_PER_MINUTE, RequestGate, TooManyRequests } from './request-gate.js';

const VALID = 'gca_valid';
const caller: Caller = { keyId: 'k1', name: 'dashboard' };

function gate({ rateLimit = 600 } = {}) {
  const lookups: string[] = [];
  const cached = new Map<string, Caller | null>();
  const keys = {
    peek: (key: string) => cached.get(key),
    verify: async (key: string) => {
      lookups.push(key);
      const found = key === VALID ? caller : null;
      cached.set(key, found);
      return found;
    },
  } as unknown as ApiKeysService;
  const hits = new Map<string, number>();
  const storage: RateLimitStore = {
    hit: (key, limit) => {
      const n = (hits.get(key) ?? 0) + 1;
      hits.set(key, n);
      return { blocked: n > limit, retryAfterSeconds: 42 };
    },
    peek: (key) => ({ count: hits.get(key) ?? 0, retryAfterSeconds: 42 }),
    status: () => ({ mode: 'per-instance', redisConfigured: false, redisErrors: 0 }),
  };
  return { gate: new RequestGate(keys, storage, { AUTH_MODE: 'required', RATE_LIMIT_PER_MINUTE: rateLimit }), lookups };
}
const request = (key: string | null, ip = '10.0.0.1') => ({ ip, headers: key ? { 'x-api-key': key } : {} }) as unknown as CallerRequest;

describe(RequestGate.name, () => {
  it('refuses an address after FAILED_AUTH_PER_MINUTE failures without looking its key up, but lets a key verified a moment ago through', async () => {
    const { gate: g, lookups } = gate();
    await expect(g.authenticate(request(VALID))).resolves.toEqual(caller);
    for (let i = 0; i < FAILED_AUTH_PER_MINUTE; i++)
      await expect(g.authenticate(request(`gca_wrong_${i}`))).rejects.toMatchObject({ code: 'AUTH.INVALID_KEY' });
    const before = lookups.length;
    await expect(g.authenticate(request('gca_wrong_more'))).rejects.toBeInstanceOf(TooManyRequests);
    expect(lookups.length).toBe(before);
    // The holder of a cached valid key behind the same address is not locked out; another address is not either.
    await expect(g.authenticate(request(VALID))).resolves.toEqual(caller);
    await expect(g.authenticate(request('gca_wrong_x', '10.0.0.2'))).rejects.toMatchObject({ code: 'AUTH.INVALID_KEY' });
  });

  it('counts requests per key, and per address without one, and says when to retry', async () => {
    const { gate: g } = gate({ rateLimit: 2 });
    const withKey = request(VALID);
    await g.authenticate(withKey);
    void g.count(withKey);
    void g.count(withKey);
    expect(() => g.count(withKey)).toThrow(expect.objectContaining({ retryAfterSeconds: 42 }));
    // Another caller has its own bucket.
    expect(() => g.count(request(null, '10.0.0.9'))).not.toThrow();
  });
});
