import { contentHashReady } from '../../common/http/content-hash.js';
import { cacheControl, matchesIfNoneMatch, planCaching, ResponseCache, type CacheableRequest } from './response-cache.js';

const NOW = new Date('2026-11-30T22:00:00.000Z');
const get = (route: string, query: Record<string, unknown> = {}, extra: Partial<CacheableRequest> = {}): CacheableRequest => ({
  method: 'GET',
  route,
  path: route,
  query,
  body: undefined,
  accept: undefined,
  ...extra,
});

describe(planCaching.name, () => {
  it('keys a read by the current version, the day and the normalised request', () => {
    const a = planCaching(get('/v1/offers', { gpu: 'l4', currency: 'EUR' }), 'v1', NOW);
    const reordered = planCaching(get('/v1/offers', { currency: 'EUR', gpu: 'l4' }), 'v1', NOW);
    expect(reordered?.key).toBe(a?.key);
    for (const other of [
      planCaching(get('/v1/offers', { gpu: 'l4', currency: 'USD' }), 'v1', NOW),
      planCaching(get('/v1/offers', { gpu: 'l4', currency: 'EUR' }), 'v2', NOW),
      planCaching(get('/v1/offers', { gpu: 'l4', currency: 'EUR' }), 'v1', new Date('2026-12-01T00:00:00.000Z')),
      planCaching(get('/v1/offers', { gpu: 'l4', currency: 'EUR' }, { accept: 'text/csv' }), 'v1', NOW),
    ]) {
      expect(other?.key).toBeDefined();
      expect(other?.key).not.toBe(a?.key);
    }
  });

  it('caches only reads: not without a loaded version, not unmatched or open routes, not the version list, not introspection', () => {
    expect(planCaching(get('/v1/gpus'), null, NOW)).toBeNull();
    expect(planCaching(get('/v1/gpus', {}, { route: undefined }), 'v1', NOW)).toBeNull();
    expect(planCaching(get('/health/live'), 'v1', NOW)).toBeNull();
    expect(planCaching(get('/v1/catalog/versions'), 'v1', NOW)).toBeNull();
    expect(planCaching(get('/graphql', { query: '{ __schema { types { name } } }' }), 'v1', NOW)).toBeNull();
    expect(planCaching(get('/graphql', { query: '{ gpus { slug } }' }), 'v1', NOW)).not.toBeNull();
    expect(planCaching({ ...get('/graphql'), method: 'POST', body: { query: '{ gpus { slug } }' } }, 'v1', NOW)).toBeNull();
  });

  it('keeps estimates (POST) by body, in memory only, and skips bodies too deep to be valid', () => {
    const body = { workload: { requestsPerSecond: 1 }, model: { preset: 'llama-3-8b' } };
    const plan = planCaching({ ...get('/v1/estimates'), method: 'POST', body }, 'v1', NOW);
    expect(plan?.httpCacheable).toBe(false);
    const sameBodyOtherOrder = planCaching({ ...get('/v1/estimates'), method: 'POST', body: { model: body.model, workload: body.workload } }, 'v1', NOW);
    expect(sameBodyOtherOrder?.key).toBe(plan?.key);
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = { a: deep };
    expect(planCaching({ ...get('/v1/estimates'), method: 'POST', body: deep }, 'v1', NOW)).toBeNull();
  });

  it('keeps at once what may have needed the database: reads naming a version or an instant, and GraphQL queries', () => {
    const atOnce = (request: CacheableRequest) => planCaching(request, 'v1', NOW)?.keepAtOnce;
    expect(atOnce(get('/v1/gpus'))).toBe(false);
    expect(atOnce(get('/v1/offers/cheapest', { gpu: 'l4', version: '' }))).toBe(false);
    expect(atOnce(get('/v1/gpus', { version: '2026-11-30' }))).toBe(true);
    expect(atOnce(get('/v1/gpus', { asOf: '2026-11-01T00:00:00Z' }))).toBe(true);
    expect(atOnce(get('/v1/gpus', { asOf: '2027-01-01T00:00:00Z' }))).toBe(true);
    expect(atOnce(get('/graphql', { query: '{ gpus { slug } }' }))).toBe(true);
    const estimate = (body: unknown) => atOnce({ ...get('/v1/estimates'), method: 'POST', body });
    expect(estimate({ workload: { requestsPerSecond: 1 } })).toBe(false);
    expect(estimate({ workload: { requestsPerSecond: 1 }, version: '2026-11-30' })).toBe(true);
  });

  it('tells current answers from pinned ones', () => {
    expect(planCaching(get('/v1/gpus'), 'v1', NOW)?.freshness).toEqual({ kind: 'current' });
    expect(planCaching(get('/v1/gpus', { version: '2026-11-30' }), 'v1', NOW)?.freshness).toEqual({ kind: 'until-midnight' });
    expect(planCaching(get('/v1/gpus', { asOf: '2026-11-01T00:00:00Z' }), 'v1', NOW)?.freshness).toEqual({ kind: 'immutable' });
    // An instant still to come names whatever will be current then: not pinned.
    expect(planCaching(get('/v1/gpus', { asOf: '2027-01-01T00:00:00Z' }), 'v1', NOW)?.freshness).toEqual({ kind: 'current' });
  });

  it('marks an asOf immutable only from a minute before now: a publish may still be on its way to this instance', () => {
    const freshness = (asOf: string) => planCaching(get('/v1/gpus', { asOf }), 'v1', NOW)?.freshness.kind;
    // NOW is 22:00:00.000; the margin is 60 s.
    expect(freshness('2026-11-30T21:59:00.000Z')).toBe('immutable');
    expect(freshness('2026-11-30T21:59:00.001Z')).toBe('current');
    expect(freshness('2026-11-30T21:59:59.999Z')).toBe('current');
    expect(freshness('2026-11-30T22:00:00.000Z')).toBe('current');
    // The same instant with an offset.
    expect(freshness('2026-11-30T22:58:59+01:00')).toBe('immutable');
    expect(freshness('2026-11-30T22:59:30+01:00')).toBe('current');
  });
});

describe(cacheControl.name, () => {
  it('gives current answers the refresh interval, pinned ones a year or the rest of the UTC day', () => {
    expect(cacheControl({ kind: 'current' }, 1, NOW, 'public')).toBe('public, max-age=1, stale-while-revalidate=60');
    expect(cacheControl({ kind: 'immutable' }, 1, NOW, 'public')).toBe('public, max-age=31536000, immutable');
    // 22:00 UTC: two hours to midnight.
    expect(cacheControl({ kind: 'until-midnight' }, 1, NOW, 'public')).toBe('public, max-age=7200');
  });

  it('says private, never public, for an audience that needed a key', () => {
    expect(cacheControl({ kind: 'current' }, 1, NOW, 'private')).toBe('private, max-age=1, stale-while-revalidate=60');
    expect(cacheControl({ kind: 'immutable' }, 1, NOW, 'private')).toBe('private, max-age=31536000, immutable');
    expect(cacheControl({ kind: 'until-midnight' }, 1, NOW, 'private')).toBe('private, max-age=7200');
  });
});

describe(matchesIfNoneMatch.name, () => {
  it('compares weakly, over a list, and matches *', () => {
    expect(matchesIfNoneMatch('"abc"', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('W/"abc"', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('"x", "abc"', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('*', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('"abcd"', '"abc"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, '"abc"')).toBe(false);
  });
});

describe(ResponseCache.name, () => {
  beforeAll(() => contentHashReady);

  it('stays within its byte budget, dropping the least recently used', () => {
    const cache = new ResponseCache(64 * 1024);
    const body = 'x'.repeat(1024);
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, { body, etag: '"e"', headers: {} });
    expect(cache.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(cache.get('k99')?.body).toBe(body);
    expect(cache.get('k0')).toBeUndefined();
  });

  it('keeps an answer from the second time its key is answered, while the key is among the recent ones seen once', () => {
    const cache = new ResponseCache(64 * 1024); // notes up to 256 keys seen once
    expect([cache.admits('a'), cache.admits('a')]).toEqual([false, true]);
    // Once admitted, the key starts over (the answer is kept; its key is no longer "seen once").
    expect(cache.admits('a')).toBe(false);
    expect(cache.admits('b')).toBe(false);
    for (let i = 0; i < 255; i++) expect(cache.admits(`other-${i}`)).toBe(false);
    expect(cache.admits('b')).toBe(true); // 'b' and 255 others: still within the 256 noted
    expect(cache.admits('c')).toBe(false);
    for (let i = 0; i < 256; i++) cache.admits(`more-${i}`);
    expect(cache.admits('c')).toBe(false); // pushed out by 256 newer keys: seen once again
  });

  it('keeps an answer read from the database at once', () => {
    const cache = new ResponseCache(64 * 1024);
    expect([cache.admits('history', true), cache.admits('cheap'), cache.admits('cheap', false)]).toEqual([true, false, true]);
  });

  it('admits nothing when it is turned off (RESPONSE_CACHE_MB=0)', () => {
    const cache = new ResponseCache(0);
    expect([cache.admits('a'), cache.admits('a'), cache.admits('a', true)]).toEqual([false, false, false]);
  });
});
