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
  /** Keys looked up (no cache: each try is a lookup, as with API_KEY_CACHE_MS=0). */
  const lookups: string[] = [];
  const keys = {
    verify: async (key: string) => {
      lookups.push(key);
      return key === VALID ? caller : null;
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
  it('locks an address after FAILED_AUTH_PER_MINUTE failures: its wrong and missing keys get 429, a valid key is still served', async () => {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const { gate: g, lookups } = await gate();
    for (let i = 0; i < FAILED_AUTH_PER_MINUTE; i++)
      await expect(g.authenticate(request(i % 2 ? `gca_wrong_${i}` : null))).rejects.toMatchObject({ code: i % 2 ? 'AUTH.INVALID_KEY' : 'AUTH.MISSING_KEY' });
    now += 15_000;
    // Locked: the window opened at the first failure, 15 s ago, so retry after 45 s.
    await expect(g.authenticate(request('gca_wrong_more'))).rejects.toMatchObject({ name: 'TooManyRequests', retryAfterSeconds: 45 });
    await expect(g.authenticate(request(null))).rejects.toBeInstanceOf(TooManyRequests);
    // A valid key from the locked address, never seen before (nothing cached), is looked up and served.
    lookups.length = 0;
    const valid = request(VALID);
    await expect(g.authenticate(valid)).resolves.toEqual(caller);
    expect(valid.caller).toEqual(caller);
    expect(lookups).toEqual([VALID]);
    // Serving it unlocks nothing: guessing from that address still gets 429; another address is not locked.
    await expect(g.authenticate(request('gca_wrong_again'))).rejects.toBeInstanceOf(TooManyRequests);
    await expect(g.authenticate(request('gca_wrong_x', '10.0.0.2'))).rejects.toMatchObject({ code: 'AUTH.INVALID_KEY' });
    // The window ends: the address may try again.
    now += 45_000;
    await expect(g.authenticate(request('gca_wrong_later'))).rejects.toMatchObject({ code: 'AUTH.INVALID_KEY' });
  });

  it('does not look up a key longer than 200 characters, and counts it as a failure', async () => {
    const { gate: g, lookups } = await gate();
    for (let i = 0; i < FAILED_AUTH_PER_MINUTE; i++)
      await expect(g.authenticate(request(`gca_${'x'.repeat(200)}`))).rejects.toMatchObject({ code: 'AUTH.INVALID_KEY' });
    await expect(g.authenticate(request(`gca_${'x'.repeat(200)}`))).rejects.toBeInstanceOf(TooManyRequests);
    expect(lookups).toEqual([]);
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
