// The response cache and HTTP caching (modules/http/response-cache.ts, http-hooks.ts) on the real
// service: an answer is kept from its second request, and later repeats are answered from memory
// with a strong ETag (304 for If-None-Match) and a
// Cache-Control that says how long the answer holds; and the cache never serves an answer of
// another catalog version, another currency, or past another API key's rate limit.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import xxhash from 'xxhash-wasm';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ApiKeysService } from '../src/modules/auth/index.js';
import { CatalogImportService } from '../src/modules/catalog-admin/index.js';
import { eventually } from './setup/eventually.js';
import { copySmallCatalog, createTestContext, createTestServer, SMALL_CATALOG, type TestContext, type TestServer } from './setup/test-app.js';
import { at } from '../src/domain/checked.js';

const AZURE_H100 = '/v1/offers?gpu=h100-sxm-80gb&provider=azure';
const CHEAPEST = '/v1/offers/cheapest?gpu=h100-sxm-80gb&preset=GDPR_PERSONAL_DATA';

describe('response cache (e2e, small catalog)', () => {
  let t: TestServer;
  let ctx: TestContext;
  let workDir: string;
  beforeAll(async () => {
    t = await createTestServer({ catalog: SMALL_CATALOG });
    ctx = await createTestContext({ db: t.db, catalog: null });
    workDir = await mkdtemp(path.join(os.tmpdir(), 'response-cache-'));
  });
  afterAll(async () => {
    await ctx.close();
    await t.stop();
    await rm(workDir, { recursive: true, force: true });
  });
  /** Moves every publication of the test database by `seconds`. */
  const shiftPublications = async (seconds: number) => {
    const client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    try {
      await client.query(`UPDATE catalog_publications SET published_at = published_at + make_interval(secs => $1)`, [seconds]);
    } finally {
      await client.end();
    }
  };

  it('keeps an answer from its second request and answers later repeats from memory with the same bytes and a strong ETag, and 304 for If-None-Match', async () => {
    const first = await t.http().get(CHEAPEST).expect(200);
    const second = await t.http().get(CHEAPEST).expect(200);
    const third = await t.http().get(CHEAPEST).expect(200);
    expect([first, second, third].map((r) => r.headers['x-cache'])).toEqual(['miss', 'miss', 'hit']);
    expect([second.text, third.text]).toEqual([first.text, first.text]);
    // Strong (no W/), and the hash of the bytes (xxHash64): computed here from the bytes received.
    const expected = `"${(await xxhash()).h64ToString(first.text)}"`;
    expect([first, second, third].map((r) => r.headers.etag)).toEqual([expected, expected, expected]);
    const notModified = await t.http().get(CHEAPEST).set('If-None-Match', expected).expect(304);
    expect(notModified.text ?? '').toBe('');
    expect(notModified.headers.etag).toBe(expected);
    // A stale tag gets the full answer; a list with the tag, or a weak form of it, matches.
    await t.http().get(CHEAPEST).set('If-None-Match', '"something-else"').expect(200);
    await t.http().get(CHEAPEST).set('If-None-Match', `"x", W/${expected}`).expect(304);
    // A fresh answer is checked against If-None-Match too: the same bytes under another key (an
    // explicit Accept), asked for the first time, so neither kept nor answered from memory.
    const fresh = await t.http().get(CHEAPEST).set('Accept', 'application/json').set('If-None-Match', expected).expect(304);
    expect([fresh.headers['x-cache'], fresh.headers.etag]).toEqual(['miss', expected]);
    // The query's order does not matter: the same request normalised.
    const reordered = await t.http().get('/v1/offers/cheapest?preset=GDPR_PERSONAL_DATA&gpu=h100-sxm-80gb').expect(200);
    expect(reordered.headers['x-cache']).toBe('hit');
  });

  it('keeps from their first request the answers that needed the database: price histories, reads naming a version', async () => {
    const offerId = at((await t.http().get(CHEAPEST).expect(200)).body.items as { id: string }[], 0).id;
    for (const history of [
      '/v1/gpus/h100-sxm-80gb/price-history?currency=EUR',
      `/v1/offers/${offerId}/history?currency=EUR`,
      '/v1/regions?version=fixture-1',
    ]) {
      const [first, second] = [await t.http().get(history).expect(200), await t.http().get(history).expect(200)];
      expect([history, first.headers['x-cache'], second.headers['x-cache']]).toEqual([history, 'miss', 'hit']);
      expect(second.text).toBe(first.text);
    }
  });

  it('says how long an answer holds: current (max-age 1 s, stale-while-revalidate), past instant (immutable), pinned version (to midnight UTC)', async () => {
    const current = await t.http().get('/v1/gpus').expect(200);
    expect(current.headers['cache-control']).toBe('public, max-age=1, stale-while-revalidate=60');
    // An instant after the version was published and already past (not "now - 1 s", which can fall
    // before the publication of a service started a moment ago).
    const versions = (await t.http().get('/v1/catalog/versions').expect(200)).body as { items: { current: boolean; publishedAt: string }[] };
    const publishedAt = Date.parse(versions.items.find((v) => v.current)?.publishedAt ?? '');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, publishedAt + 10 - Date.now())));
    // An instant of the last minute: a publish may still be on its way to this instance, so the
    // answer is only as fresh as a current one.
    const recent = await t
      .http()
      .get('/v1/gpus')
      .query({ asOf: new Date(publishedAt + 1).toISOString() })
      .expect(200);
    expect(recent.headers['cache-control']).toBe('public, max-age=1, stale-while-revalidate=60');
    // A minute and more ago: immutable. The publications move two minutes back, as if the service
    // had been up that long, and forward again after.
    await shiftPublications(-120);
    try {
      const past = await t
        .http()
        .get('/v1/gpus')
        .query({ asOf: new Date(publishedAt - 120_000 + 1).toISOString() })
        .expect(200);
      expect(past.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    } finally {
      await shiftPublications(120);
    }
    const pinned = await t.http().get('/v1/gpus').query({ version: 'fixture-1' }).expect(200);
    const maxAge = Number(/^public, max-age=(\d+)$/.exec(pinned.headers['cache-control'] ?? '')?.[1]);
    const untilMidnight = (Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) - Date.now()) / 1000;
    expect(maxAge).toBeGreaterThan(0);
    expect(Math.abs(maxAge - untilMidnight)).toBeLessThan(5);
    // Errors are not cached, and are not marked cacheable.
    const missing = await t.http().get('/v1/gpus').query({ version: 'no-such-version' }).expect(404);
    expect(missing.headers['cache-control']).toBeUndefined();
    expect((await t.http().get('/v1/gpus').query({ version: 'no-such-version' }).expect(404)).headers['x-cache']).toBe('miss');
  });

  it('never answers with another currency', async () => {
    // The USD answer is kept first: were EUR under the same key, it would be answered with it.
    const usd = await t.http().get(AZURE_H100).query({ currency: 'USD' }).expect(200);
    await t.http().get(AZURE_H100).query({ currency: 'USD' }).expect(200);
    const eur = await t.http().get(AZURE_H100).query({ currency: 'EUR' }).expect(200);
    expect(eur.headers['x-cache']).toBe('miss');
    await t.http().get(AZURE_H100).query({ currency: 'EUR' }).expect(200);
    const again = await t.http().get(AZURE_H100).query({ currency: 'EUR' }).expect(200);
    expect(again.headers['x-cache']).toBe('hit');
    const currencies = [usd, eur, again].map((r) => at((r.body as { items: { pricePerGpuHour: { currency: string } }[] }).items, 0).pricePerGpuHour.currency);
    expect(currencies).toEqual(['USD', 'EUR', 'EUR']);
    // 6.98 USD at 0.8650 EUR per USD is 6.0377 EUR (by hand).
    expect(at((eur.body as { items: { pricePerGpuHour: { amount: string } }[] }).items, 0).pricePerGpuHour.amount).toBe('6.0377');
  });

  it('keeps JSON and CSV apart (Vary: Accept)', async () => {
    // The JSON answer is kept first: were CSV under the same key, it would be answered with it.
    const json = await t.http().get(AZURE_H100).expect(200);
    await t.http().get(AZURE_H100).expect(200);
    const csv = await t.http().get(AZURE_H100).set('Accept', 'text/csv').expect(200);
    await t.http().get(AZURE_H100).set('Accept', 'text/csv').expect(200);
    const csvAgain = await t.http().get(AZURE_H100).set('Accept', 'text/csv').expect(200);
    expect(json.headers['content-type']).toContain('application/json');
    expect([csv.headers['content-type'], csvAgain.headers['content-type']]).toEqual([expect.stringContaining('text/csv'), expect.stringContaining('text/csv')]);
    expect(csvAgain.headers['x-cache']).toBe('hit');
    expect(csvAgain.headers['x-catalog-version']).toBe(csv.headers['x-catalog-version']);
    expect(csv.headers.vary).toBe('Accept');
  });

  it('keeps estimates (POST) in memory only: a hit, but no ETag or Cache-Control', async () => {
    const body = { model: { preset: 'llama-3-8b' }, workload: { requestsPerSecond: 2, avgInputTokens: 500, avgOutputTokens: 200 } };
    const first = await t.http().post('/v1/estimates').send(body).expect(200);
    const kept = await t.http().post('/v1/estimates').send(body).expect(200);
    const second = await t.http().post('/v1/estimates').send({ workload: body.workload, model: body.model }).expect(200);
    expect([first, kept, second].map((r) => r.headers['x-cache'])).toEqual(['miss', 'miss', 'hit']);
    expect(second.text).toBe(first.text);
    for (const r of [first, kept, second]) expect([r.headers.etag, r.headers['cache-control']]).toEqual([undefined, undefined]);
  });

  it('refuses a GraphQL GET without a preflight-forcing header as Apollo does, also when its answer is in the cache', async () => {
    // Apollo's own refusal (CSRF prevention), for a query whose answer nobody has asked for.
    const cold = await t.http().get('/graphql').query({ query: '{ providers { slug } }' });
    expect(cold.status).toBe(400);
    expect(cold.body.errors?.[0]?.message).toContain('Cross-Site Request Forgery');
    const query = '{ regions { code } }';
    const preflighted = () => t.http().get('/graphql').query({ query }).set('apollo-require-preflight', 'true');
    expect([(await preflighted().expect(200)).headers['x-cache'], (await preflighted().expect(200)).headers['x-cache']]).toEqual(['miss', 'hit']);
    // What a cross-site page can send without a preflight: no header, a simple content type, an empty header.
    for (const headers of [{}, { 'content-type': 'text/plain' }, { 'apollo-require-preflight': '' }]) {
      const refused = await t.http().get('/graphql').query({ query }).set(headers);
      expect([refused.status, refused.headers['content-type'], refused.body]).toEqual([cold.status, cold.headers['content-type'], cold.body]);
      expect(refused.headers['x-cache']).not.toBe('hit');
    }
    // Any header that forces a preflight gets the cached answer.
    for (const headers of [{ 'x-apollo-operation-name': 'Regions' }, { 'content-type': 'application/json' }]) {
      expect((await t.http().get('/graphql').query({ query }).set(headers).expect(200)).headers['x-cache']).toBe('hit');
    }
  });

  it('caches GraphQL queries sent with GET (and persisted queries), never introspection or POST', async () => {
    const query = '{ gpus { slug } }';
    const get = () => t.http().get('/graphql').query({ query }).set('apollo-require-preflight', 'true');
    // Kept from the first answer: a GraphQL query may read the price histories from the database.
    const [a, b] = [await get().expect(200), await get().expect(200)];
    expect([a.headers['x-cache'], b.headers['x-cache']]).toEqual(['miss', 'hit']);
    expect(b.body.data.gpus.length).toBeGreaterThan(0);
    expect(b.headers['cache-control']).toBe('public, max-age=1, stale-while-revalidate=60');
    const introspection = () => t.http().get('/graphql').query({ query: '{ __schema { queryType { name } } }' }).set('apollo-require-preflight', 'true');
    await introspection().expect(200);
    expect((await introspection().expect(200)).headers['x-cache']).toBeUndefined();
    expect((await t.http().post('/graphql').send({ query }).expect(200)).headers['x-cache']).toBeUndefined();

    // Automatic persisted queries: the hash alone is unknown at first (an error, not kept), then
    // known once the query was sent with it, and from then on a repeat is a hit.
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash } });
    const byHash = () => t.http().get('/graphql').query({ extensions }).set('apollo-require-preflight', 'true');
    const unknown = await byHash();
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    await t.http().get('/graphql').query({ query, extensions }).set('apollo-require-preflight', 'true').expect(200);
    const [p1, p2] = [await byHash().expect(200), await byHash().expect(200)];
    expect(p1.body).toEqual(a.body);
    expect([p1.headers['x-cache'], p2.headers['x-cache']]).toEqual(['miss', 'hit']);
  });

  it('never answers with another catalog version: a publish is seen by the next request', async () => {
    const before = await t.http().get(AZURE_H100).expect(200);
    await t.http().get(AZURE_H100).expect(200);
    expect((await t.http().get(AZURE_H100).expect(200)).headers['x-cache']).toBe('hit');
    const label = (r: { body: unknown }) => (r.body as { catalogVersion: { label: string } }).catalogVersion.label;
    const price = (r: { body: unknown }) => at((r.body as { items: { pricePerGpuHour: { amount: string } }[] }).items, 0).pricePerGpuHour.amount;
    expect([label(before), price(before)]).toEqual(['fixture-1', '6.9800']);

    const dir = await copySmallCatalog(workDir, 'cheaper', (text) =>
      text.replace('label: fixture-1', 'label: fixture-cheaper').replace('pricePerGpuHour: "6.98"', 'pricePerGpuHour: "6.50"'),
    );
    const report = await ctx.app.get(CatalogImportService).import({ paths: [dir], publish: true });
    expect(report.status).toBe('created');
    // The instance notices the publish within CATALOG_REFRESH_MS (1 s); every answer before is
    // the old version entire, every answer after the new one entire, never the old from the cache.
    const seen: string[] = [];
    await eventually(async () => {
      const r = await t.http().get(AZURE_H100).expect(200);
      seen.push(`${label(r)} ${price(r)} ${r.headers['x-cache']}`);
      expect(label(r)).toBe('fixture-cheaper');
    }, 5_000);
    expect(seen.every((s) => s.startsWith('fixture-1 6.9800') || s.startsWith('fixture-cheaper 6.5000'))).toBe(true);
    expect(seen.at(-1)).toBe('fixture-cheaper 6.5000 miss');
    await t.http().get(AZURE_H100).expect(200);
    expect((await t.http().get(AZURE_H100).expect(200)).headers['x-cache']).toBe('hit');
    expect(label(await t.http().get(AZURE_H100).expect(200))).toBe('fixture-cheaper');
  });
});

describe('response cache and rate limits (e2e, AUTH_MODE=required)', () => {
  let t: TestServer;
  let ctx: TestContext;
  beforeAll(async () => {
    t = await createTestServer({ catalog: SMALL_CATALOG, env: { AUTH_MODE: 'required', RATE_LIMIT_PER_MINUTE: '3', API_KEY_CACHE_MS: '0' } });
    ctx = await createTestContext({ db: t.db, catalog: null });
  });
  afterAll(async () => {
    await ctx.close();
    await t.stop();
  });

  it('marks every cacheable answer private, fresh or from its cache, REST and GraphQL: no shared cache may keep it', async () => {
    const keys = ctx.app.get(ApiKeysService);
    // Three requests a minute per key here: a key per group.
    const [a, b] = [(await keys.create('private-a')).key, (await keys.create('private-b')).key];
    const current = await t.http().get('/v1/providers').set('x-api-key', a).expect(200);
    expect(current.headers['cache-control']).toBe('private, max-age=1, stale-while-revalidate=60');
    const pinned = await t.http().get('/v1/providers').query({ version: 'fixture-1' }).set('x-api-key', a).expect(200);
    expect(pinned.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    const gql = () => t.http().get('/graphql').query({ query: '{ providers { slug } }' }).set('apollo-require-preflight', 'true').set('x-api-key', b);
    const [fresh, cached] = [await gql().expect(200), await gql().expect(200)];
    expect([fresh.headers['x-cache'], cached.headers['x-cache']]).toEqual(['miss', 'hit']);
    for (const r of [fresh, cached]) expect(r.headers['cache-control']).toBe('private, max-age=1, stale-while-revalidate=60');
  });

  it("never serves a cached answer past a key's limit, nor without a key; another key's limit is its own", async () => {
    const keys = ctx.app.get(ApiKeysService);
    const [a, b] = [(await keys.create('cache-a')).key, (await keys.create('cache-b')).key];
    const statuses: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await t.http().get('/v1/gpus').set('x-api-key', a);
      statuses.push(`${r.status} ${r.headers['x-cache'] ?? '-'}`);
    }
    expect(statuses).toEqual(['200 miss', '200 miss', '200 hit', '429 -']);
    // The cached answer is there, but only for a caller the gate lets through.
    await t.http().get('/v1/gpus').expect(401);
    const other = await t.http().get('/v1/gpus').set('x-api-key', b).expect(200);
    expect(other.headers['x-cache']).toBe('hit');
  });
});
