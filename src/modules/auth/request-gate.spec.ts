// RequestGate with an in-memory fake of the key service, counting in memory (no REDIS_URL) with
// @fastify/rate-limit registered on a bare Fastify instance, as installHttpHooks registers it.
import { jest } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ApiKeysService, Caller } from './api-keys.service.js';
import { RateLimitCounters } from './rate-limits.js';
import type { CallerRequest } from './request-context.js';
import { FAILED_AUTH_PER_MINUTE, RequestGate, TooManyRequests } from './request-gate.js';

const VALID = 'gca_valid';
const caller: Caller = { keyId: 'k1', name: 'dashboard' };

const instances: FastifyInstance[] = [];
afterEach(async () => {
  jest.restoreAllMocks();
  for (const fastify of instances.splice(0)) await fastify.close();
});

async function gate({ rateLimit = 600, authMode = 'required' }: { rateLimit?: number; authMode?: 'required' | 'off' } = {}) {
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
  const g = new RequestGate(keys, new RateLimitCounters(null), { AUTH_MODE: authMode, RATE_LIMIT_PER_MINUTE: rateLimit });
  const fastify = Fastify();
  instances.push(fastify);
  await g.installLimits(fastify);
  return { gate: g, lookups };
}
/** What the gate and the limiter read of a Fastify request. */
const request = (key: string | null, ip = '10.0.0.1') =>
  ({ ip, headers: key ? { 'x-api-key': key } : {}, routeOptions: { config: {} } }) as unknown as CallerRequest;

describe(RequestGate.name, () => {
  it('refuses an address after FAILED_AUTH_PER_MINUTE failures without looking its key up, but lets a key verified a moment ago through', async () => {
    const { gate: g, lookups } = await gate();
    await expect(g.authenticate(request(VALID))).resolves.toEqual(caller);
    for (let i = 0; i < FAILED_AUTH_PER_MINUTE; i++)
      await expect(g.authenticate(request(`gca_wrong_${i}`))).rejects.toMatchObject({ code: 'AUTH.INVALID_KEY' });
    const before = lookups.length;
    await expect(g.authenticate(request('gca_wrong_more'))).rejects.toBeInstanceOf(TooManyRequests);
    await expect(g.authenticate(request(null))).rejects.toBeInstanceOf(TooManyRequests);
    expect(lookups.length).toBe(before);
    // The holder of a cached valid key behind the same address is not locked out; another address is not either.
    await expect(g.authenticate(request(VALID))).resolves.toEqual(caller);
    await expect(g.authenticate(request('gca_wrong_x', '10.0.0.2'))).rejects.toMatchObject({ code: 'AUTH.INVALID_KEY' });
  });

  it('counts an IPv6 address by its /64, so a client cannot step past the lockout by changing addresses', async () => {
    const { gate: g } = await gate();
    for (let i = 0; i < FAILED_AUTH_PER_MINUTE; i++)
      await expect(g.authenticate(request(null, `2001:db8:1:2::${i + 1}`))).rejects.toMatchObject({ code: 'AUTH.MISSING_KEY' });
    await expect(g.authenticate(request(null, '2001:db8:1:2:ffff::1'))).rejects.toBeInstanceOf(TooManyRequests);
    await expect(g.authenticate(request(null, '2001:db8:1:3::1'))).rejects.toMatchObject({ code: 'AUTH.MISSING_KEY' });
  });

  it('counts requests per key, and per address without one, in one-minute windows, and says when to retry', async () => {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const { gate: g } = await gate({ rateLimit: 2 });
    const withKey = request(VALID);
    await g.authenticate(withKey);
    await g.count(withKey);
    now += 20_500;
    await g.count(withKey);
    // The window opened at the first request: 39.5 s are left, so retry after 40.
    await expect(g.count(withKey)).rejects.toMatchObject({ retryAfterSeconds: 40 });
    // The same address without the key, or another address, has its own window.
    await expect(g.count(request(null))).resolves.toBeUndefined();
    await expect(g.count(request(null, '10.0.0.9'))).resolves.toBeUndefined();
    now += 39_500;
    await expect(g.count(withKey)).resolves.toBeUndefined();
  });

  it('counts nothing with RATE_LIMIT_PER_MINUTE=0, and answers without a promise', async () => {
    const { gate: g } = await gate({ rateLimit: 0, authMode: 'off' });
    for (let i = 0; i < 1_000; i++) expect(g.count(request(null))).toBeUndefined();
    await expect(g.authenticate(request(null))).resolves.toBeNull();
  });
});
