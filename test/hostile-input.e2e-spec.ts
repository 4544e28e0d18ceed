// Hostile input, round three: explicit nulls and loose dates, each over REST and GraphQL. Each of
// these once answered 500 (or INTERNAL_SERVER_ERROR), or read a date nobody wrote.
// - Null means absent for every optional input: the answer equals the one without the field.
// - `asOf` is an RFC 3339 date-time checked against the calendar (src/common/inputs/date-time.ts).
// - A GraphQL error answered as INTERNAL_SERVER_ERROR leaves a log line with its stack.
// - Large inputs are refused before any per-element work, in little time and few bytes; GraphQL
//   documents are charged for the size of their answer and the database reads behind it.
// - Every refusal of the HTTP layer is problem+json (GraphQL errors[] on /graphql): a malformed
//   URL, a 431, a wrong method (405 with Allow), a body that is not JSON (415).
// - Offer cursors are signed: a forged or altered one, or one signed with another key, is a 400
//   naming the cursor as the transport spells it (REST `cursor`, GraphQL `after`).
// - An empty allow list (countries, providers, regions) is refused, not read as "no restriction".
// (Caching answers of authenticated callers and CSRF on cached GraphQL GETs: response-cache.e2e-spec.ts;
// publication times: catalog-updates.e2e-spec.ts; catalog sources: catalog-files.hostile.spec.ts.)
import { gzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import request from 'supertest';
import { slowestHealthDuring } from './setup/health-during.js';
import { createTestServer, type TestServer } from './setup/test-app.js';

const estimate = JSON.parse(readFileSync('examples/estimate.json', 'utf8')) as Record<string, unknown>;

/** The answer without what differs between two identical requests (none here: answers are pinned to the version). */
const sameAnswer = (body: unknown): string => JSON.stringify(body);

describe('hostile input, round three (e2e, bundled catalog)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('null means absent', () => {
    it.each(['version', 'asOf', 'apiPricePer1MTokens', 'egressGbPerMonth', 'discounts'])(
      'REST estimate with "%s": null answers as without it',
      async (field) => {
        const without = await t.http().post('/v1/estimates').send(estimate).expect(200);
        const withNull = await t
          .http()
          .post('/v1/estimates')
          .send({ ...estimate, [field]: null })
          .expect(200);
        expect(sameAnswer(withNull.body)).toBe(sameAnswer(without.body));
      },
    );

    it('REST: a nested optional null is absent too, and a required null is reported missing', async () => {
      const nested = await t
        .http()
        .post('/v1/estimates')
        .send({ ...estimate, policy: { ...(estimate.policy as object), maxPricePerGpuHour: null } })
        .expect(200);
      const without = await t.http().post('/v1/estimates').send(estimate).expect(200);
      expect(sameAnswer(nested.body)).toBe(sameAnswer(without.body));
      const missing = await t
        .http()
        .post('/v1/estimates')
        .send({ ...estimate, model: null })
        .expect(400);
      expect(missing.body.errors).toEqual([{ field: 'model', message: 'is required' }]);
    });

    it.each([
      ['gpus', '{ name }'],
      ['providers', '{ slug }'],
      ['regions', '{ code }'],
      ['referenceFigures', '{ catalogVersion { id } }'],
      ['offers', '{ items { id } }'],
    ])('GraphQL %s(version: null, asOf: null) answers as without them', async (field, selection) => {
      const plain = await t.graphql(`{ ${field} ${selection} }`);
      const nulls = await t.graphql(`{ ${field}(version: null, asOf: null) ${selection} }`);
      expect(plain.errors).toBeUndefined();
      expect(nulls).toEqual(plain);
      const variables = await t.graphql(`query($v: String, $a: DateTime) { ${field}(version: $v, asOf: $a) ${selection} }`, { v: null, a: null });
      expect(variables).toEqual(plain);
    });

    it('GraphQL cheapestOffers and estimate with null version, asOf and optional fields answer as without them', async () => {
      const cheapest = (extra: string) => t.graphql(`{ cheapestOffers(requirement: { gpus: ["h100-sxm-80gb"] }${extra}) { items { id } } }`);
      const plain = await cheapest('');
      expect(plain.errors).toBeUndefined();
      expect(await cheapest(', version: null, asOf: null, policy: null, discounts: null')).toEqual(plain);
      const query = 'query($input: EstimateInput!) { estimate(input: $input) { monthlyCost { amount } chosenOffers { offerId } } }';
      const withoutNulls = await t.graphql(query, { input: estimate });
      expect(withoutNulls.errors).toBeUndefined();
      expect(await t.graphql(query, { input: { ...estimate, version: null, asOf: null, apiPricePer1MTokens: null } })).toEqual(withoutNulls);
    });
  });

  describe('asOf is an RFC 3339 date-time on a real day', () => {
    const refused = ['2026-02-30T00:00:00Z', '0', '12', '2026-12-01', '2026-12-01T00:00:00', '2026-12-01T24:00:00Z'];

    it.each(refused)('REST refuses asOf=%s with 400 naming asOf and the rule', async (asOf) => {
      const res = await t.http().get('/v1/gpus').query({ asOf }).expect(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.errors).toEqual([{ field: 'asOf', message: 'must be an RFC 3339 date-time with a time zone, such as 2026-12-01T00:00:00Z' }]);
      const body = await t
        .http()
        .post('/v1/estimates')
        .send({ ...estimate, asOf })
        .expect(400);
      expect(body.body.errors).toEqual([{ field: 'asOf', message: 'must be an RFC 3339 date-time with a time zone, such as 2026-12-01T00:00:00Z' }]);
    });

    it.each([...refused, 5])('GraphQL refuses asOf %j as a variable (BAD_USER_INPUT) and as a literal', async (asOf) => {
      const variable = await t.graphql('query($a: DateTime) { gpus(asOf: $a) { name } }', { a: asOf });
      expect(variable.status).toBe(400);
      expect(variable.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringContaining('must be an RFC 3339 date-time') });
      const literal = await t.graphql(`{ gpus(asOf: ${JSON.stringify(asOf)}) { name } }`);
      expect(literal.status).toBe(400);
      expect(literal.errors?.[0]?.message).toContain('must be an RFC 3339 date-time');
      expect(literal.errors?.[0]?.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
    });

    it('reads an offset as the instant it names, over REST and GraphQL', async () => {
      const versions = await t.http().get('/v1/catalog/versions').expect(200);
      const published = new Date((versions.body as { items: { publishedAt: string }[] }).items[0]?.publishedAt ?? '');
      // One hour after the publish, written in UTC+02:00: the same version as the UTC form.
      const later = new Date(published.getTime() + 3_600_000);
      const local = new Date(later.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
      const utc = await t.http().get('/v1/gpus').query({ asOf: later.toISOString() }).expect(200);
      const offset = await t.http().get('/v1/gpus').query({ asOf: local }).expect(200);
      expect(sameAnswer(offset.body)).toBe(sameAnswer(utc.body));
      const gql = await t.graphql('query($a: DateTime) { gpus(asOf: $a) { name } }', { a: local });
      expect(gql.errors).toBeUndefined();
    });
  });

  /** The time an answer took, its status and its size in bytes. */
  const timed = async (send: () => PromiseLike<{ status: number; text: string; body: unknown; headers: Record<string, string> }>) => {
    const start = performance.now();
    const res = await send();
    return { res, ms: performance.now() - start, bytes: Buffer.byteLength(res.text ?? '') };
  };

  const healthDuring = (work: () => Promise<unknown>): Promise<number> => slowestHealthDuring(t.baseUrl, work);

  // What these guard against cost seconds and megabytes (2.6 s and 12.3 MB per request, measured
  // before the bounds); on a quiet machine each answer takes tens of milliseconds and a few
  // hundred bytes. The time bounds leave room for a loaded two-core machine.
  const ANSWER_MS = 1_500;
  const HEALTH_MS = 500;

  describe('large inputs are refused before the work', () => {
    const workload = { requestsPerSecond: 5, avgInputTokens: 500, avgOutputTokens: 200 };
    const base = { model: { preset: 'llama-3-8b' }, workload };

    it('REST: a 60,000-element list and a body of 120,000 zeros are refused before they are parsed, four at once leaving /health/live responsive', async () => {
      const measured = { ...base, measuredThroughput: Array.from({ length: 60_000 }, () => ({})) };
      const zeros = { ...base, workload: { ...workload, requestsPerSecond: undefined, hourlyProfile: new Array<number>(120_000).fill(0) } };
      for (const body of [measured, zeros]) {
        const { res, ms, bytes } = await timed(() => t.http().post('/v1/estimates').send(body));
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          code: 'REQUEST.TOO_MANY_VALUES',
          errors: [{ field: 'body', message: expect.stringContaining('more than 10000 values') }],
        });
        expect(bytes).toBeLessThan(1_000);
        expect(ms).toBeLessThan(ANSWER_MS);
      }
      const slowest = await healthDuring(() => Promise.all([1, 2, 3, 4].map(() => t.http().post('/v1/estimates').send(measured).expect(400))));
      expect(slowest).toBeLessThan(HEALTH_MS);
    });

    it('REST: a list over its cap but within the value count gets one error naming the list, before any element is validated', async () => {
      const measured = { ...base, measuredThroughput: Array.from({ length: 3_000 }, () => ({ gpu: 7 })) };
      const { res, ms, bytes } = await timed(() => t.http().post('/v1/estimates').send(measured));
      expect(res.status).toBe(400);
      // One error, not 3,000 (gpu: 7 breaks the element's rules too).
      expect(res.body).toMatchObject({ code: 'REQUEST.INVALID', errors: [{ field: 'measuredThroughput', message: 'must contain no more than 50 elements' }] });
      expect((res.body as { errors: unknown[] }).errors).toHaveLength(1);
      expect(bytes).toBeLessThan(1_000);
      expect(ms).toBeLessThan(ANSWER_MS);
    });

    it('GraphQL: a list over its cap as a variable is refused with the same field and rule', async () => {
      // 2,000 valid entries fit the body's limits; graphql-js reads them, the list's cap refuses them.
      const entry = { gpu: 'l4-24gb', precision: 'FP16', requestsPerSecond: 1 };
      const input = { ...base, measuredThroughput: Array.from({ length: 2_000 }, () => entry) };
      const { res, ms, bytes } = await timed(() =>
        t
          .http()
          .post('/graphql')
          .send({ query: 'query($i: EstimateInput!) { estimate(input: $i) { monthlyCost { amount } } }', variables: { i: input } }),
      );
      const errors = (res.body as { errors?: { extensions?: { code?: string; errors?: unknown } }[] }).errors;
      expect(errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        errors: [{ field: 'measuredThroughput', message: 'must contain no more than 50 elements' }],
      });
      expect(bytes).toBeLessThan(1_000);
      expect(ms).toBeLessThan(ANSWER_MS);
    });

    it('lists at most 20 field errors, and counts the rest', async () => {
      const unknown = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`extra${i}`, 1]));
      const res = await t
        .http()
        .post('/v1/estimates')
        .send({ ...base, ...unknown })
        .expect(400);
      const body = res.body as { errors: { field: string }[]; detail: string };
      // 30 unknown properties, 30 errors: 20 listed, the other 10 counted.
      expect(body.errors).toHaveLength(20);
      expect(body.errors[0]).toEqual({ field: 'extra0', message: 'property extra0 should not exist' });
      expect(body.detail).toMatch(/; and 10 more$/);
    });

    it('GraphQL: nine cheapestOffers(limit: 500) aliases are refused as too complex before running; one with a few fields is answered', async () => {
      const fields = 'id provider region country gpu gpuCount pricingModel priceKind sourceKind source observedAt';
      const alias = (i: number) => `a${i}: cheapestOffers(limit: 500, requirement: { gpuCount: 1 }) { items { ${fields} } }`;
      const nine = await timed(() =>
        t
          .http()
          .post('/graphql')
          .send({ query: `{ ${[0, 1, 2, 3, 4, 5, 6, 7, 8].map(alias).join(' ')} }` }),
      );
      expect(nine.res.status).toBe(400);
      // Each alias: 1 + 500 entries x (1 + 11 fields) = 6,001; nine of them 54,009 against 20,000.
      expect((nine.res.body as { errors: { message: string; extensions: { code: string } }[] }).errors[0]).toEqual({
        message: 'query complexity 54009 exceeds the limit of 20000',
        extensions: { code: 'QUERY_TOO_COMPLEX' },
      });
      expect(nine.bytes).toBeLessThan(1_000);
      const one = await t
        .http()
        .post('/graphql')
        .send({ query: `{ ${alias(0)} }` });
      expect(one.body.errors).toBeUndefined();
    });

    it('GraphQL: __typename aliases count against GRAPHQL_MAX_ALIASES (30), and __schema may be asked once', async () => {
      const typenames = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(' ')} }`;
      const over = await t
        .http()
        .post('/graphql')
        .send({ query: typenames(31) });
      expect(over.status).toBe(400);
      expect(JSON.stringify(over.body.errors)).toMatch(/aliases/i);
      expect(
        (
          await t
            .http()
            .post('/graphql')
            .send({ query: typenames(30) })
        ).body.errors,
      ).toBeUndefined();
      const schemas = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `s${i}: __schema { types { name fields { name } } }`).join(' ')} }`;
      const twice = await t
        .http()
        .post('/graphql')
        .send({ query: schemas(2) });
      expect(twice.status).toBe(400);
      expect(twice.body.errors[0]).toMatchObject({ message: 'a document may select __schema once', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
      const once = await t
        .http()
        .post('/graphql')
        .send({ query: schemas(1) });
      expect(once.body.errors).toBeUndefined();
      expect(once.body.data.s0.types.length).toBeGreaterThan(10);
    });

    it('GraphQL: a list without first or limit is charged its default page size', async () => {
      // offers without `first` returns 50: 1 + 50 x (items 1 + id 1) = 101 > 100.
      const small = await createTestServer({ env: { GRAPHQL_MAX_COMPLEXITY: '100' } });
      try {
        const res = await small.http().post('/graphql').send({ query: '{ offers { items { id } } }' });
        expect(res.status).toBe(400);
        expect(res.body.errors[0]).toMatchObject({ message: 'query complexity 101 exceeds the limit of 100', extensions: { code: 'QUERY_TOO_COMPLEX' } });
        const paged = await small.http().post('/graphql').send({ query: '{ offers(first: 10) { items { id } } }' });
        expect(paged.body.errors).toBeUndefined();
      } finally {
        await small.stop();
      }
    });

    it('GraphQL: thirty gpuPriceHistory aliases cost their database reads and are refused; fewer run two at a time, other reads meanwhile stay fast', async () => {
      const history = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `h${i}: gpuPriceHistory(gpu: "h100-sxm-80gb") { gpu }`).join(' ')} }`;
      const thirty = await t
        .http()
        .post('/graphql')
        .send({ query: history(30) });
      expect(thirty.status).toBe(400);
      // 30 x (1 + 1,000 for the database + 1 field) = 30,060.
      expect(thirty.body.errors[0]).toMatchObject({ message: 'query complexity 30060 exceeds the limit of 20000', extensions: { code: 'QUERY_TOO_COMPLEX' } });
      let versionsMs = 0;
      const answers = await Promise.all([
        ...[1, 2, 3, 4].map(() =>
          t
            .http()
            .post('/graphql')
            .send({ query: history(19) }),
        ),
        (async () => {
          await new Promise((r) => setTimeout(r, 20));
          versionsMs = (await timed(() => t.http().get('/v1/catalog/versions').expect(200))).ms;
        })(),
      ]);
      for (const answer of answers.slice(0, 4)) expect((answer as { body: { errors?: unknown } }).body.errors).toBeUndefined();
      expect(versionsMs).toBeLessThan(ANSWER_MS);
    });
  });

  describe('every refusal of the HTTP layer is problem+json, or GraphQL errors on /graphql', () => {
    it('a malformed URL is a problem+json 400 that says what is wrong', async () => {
      const res = await request(t.baseUrl).get('/v1/%');
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status: 400, code: 'REQUEST.BAD_URL', detail: expect.stringContaining('%') });
    });

    it('a query string over 16 KiB is a problem+json 431', async () => {
      // Written on a raw socket: the answer comes from Node's HTTP parser, before any route.
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(t.baseUrl).port), '127.0.0.1');
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
        socket.write(`GET /v1/gpus?a=${'x'.repeat(17_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      });
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 431 /);
      expect(head).toMatch(/content-type: application\/problem\+json/i);
      expect(JSON.parse(body)).toMatchObject({ status: 431, code: 'HTTP.431', title: 'Request Header Fields Too Large' });
    });

    it('a known path asked with another method is a 405 with Allow, REST and GraphQL', async () => {
      const rest = await request(t.baseUrl).delete('/v1/gpus');
      expect(rest.status).toBe(405);
      expect(rest.headers.allow).toBe('GET, HEAD');
      expect(rest.headers['content-type']).toContain('application/problem+json');
      expect(rest.body).toMatchObject({ status: 405, code: 'HTTP.405' });
      const estimate = await request(t.baseUrl).get('/v1/estimates');
      expect(estimate.status).toBe(405);
      expect(estimate.headers.allow).toBe('POST');
      const path = await request(t.baseUrl).put('/v1/offers/0123456789abcdef0123456789abcdef/history');
      expect(path.headers.allow).toBe('GET, HEAD');
      const gql = await request(t.baseUrl).put('/graphql').send({ query: '{ gpus { slug } }' });
      expect(gql.status).toBe(405);
      expect(gql.headers.allow).toMatch(/GET.*POST/);
      expect(gql.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', errorCode: 'HTTP.405' });
      // An unknown path stays a 404.
      await request(t.baseUrl).delete('/v1/nothing-here').expect(404);
    });

    it.each([
      ['text/plain', 'hello'],
      ['application/x-www-form-urlencoded', 'model=llama-3-8b'],
      ['application/xml', '<model/>'],
    ])('a body sent as %s is a 415 before it is read, REST and GraphQL', async (type, body) => {
      const rest = await t.http().post('/v1/estimates').set('content-type', type).send(body);
      expect(rest.status).toBe(415);
      expect(rest.body).toMatchObject({ code: 'REQUEST.UNSUPPORTED_MEDIA_TYPE', errors: [{ field: 'body' }] });
      // Nothing of the body is echoed back.
      expect(rest.text).not.toContain(body);
      const gql = await request(t.baseUrl).post('/graphql').set('content-type', type).send(body);
      expect(gql.status).toBe(415);
      expect(gql.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', errorCode: 'REQUEST.UNSUPPORTED_MEDIA_TYPE' });
    });

    it('a body that is not UTF-8, or compressed (gzip, or plain but labelled gzip), is a 415 naming why, REST and GraphQL', async () => {
      const json = JSON.stringify({ query: '{ gpus { slug } }' });
      const cases: [Record<string, string>, Buffer, RegExp][] = [
        [{ 'content-type': 'application/json; charset=utf-16' }, Buffer.from(json, 'utf16le'), /must be UTF-8, not utf-16/],
        [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync(json), /Content-Encoding gzip is not read/],
        [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, Buffer.from(json), /Content-Encoding gzip is not read/],
      ];
      for (const [headers, body, reason] of cases) {
        const rest = await request(t.baseUrl).post('/v1/estimates').set(headers).send(body);
        expect([rest.status, rest.body.code, rest.body.detail]).toEqual([415, 'REQUEST.UNSUPPORTED_MEDIA_TYPE', expect.stringMatching(reason)]);
        expect(rest.headers['accept-encoding']).toBe('identity');
        const gql = await request(t.baseUrl).post('/graphql').set(headers).send(body);
        expect(gql.status).toBe(415);
        expect(gql.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', errorCode: 'REQUEST.UNSUPPORTED_MEDIA_TYPE' });
      }
      // UTF-8 named as such is read.
      const named = await request(t.baseUrl).post('/graphql').set('content-type', 'application/json; charset=UTF-8').send(json);
      expect(named.body.errors).toBeUndefined();
    });

    it('an unknown method (QUERY) is a 405 naming the allowed ones', async () => {
      const res = await new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
        const req = httpRequest(`${t.baseUrl}/v1/gpus`, { method: 'QUERY' }, (r) => {
          r.resume();
          resolve({ status: r.statusCode ?? 0, allow: r.headers.allow });
        });
        req.on('error', reject);
        req.end();
      });
      expect(res).toEqual({ status: 405, allow: 'GET, HEAD' });
    });

    it('invalid JSON posted to /graphql gets GraphQL errors, not a REST problem', async () => {
      const res = await request(t.baseUrl).post('/graphql').set('content-type', 'application/json').send('{"query": ');
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', errorCode: 'REQUEST.MALFORMED_JSON' });
    });

    it('a mutation is a 400 GRAPHQL_VALIDATION_FAILED; a very large first is QUERY_TOO_COMPLEX', async () => {
      const mutation = await t.http().post('/graphql').send({ query: 'mutation { x }' });
      expect(mutation.status).toBe(400);
      expect(mutation.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      const large = await t.http().post('/graphql').send({ query: '{ offers(first: 2000000000) { items { id } } }' });
      expect(large.status).toBe(400);
      expect(large.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    });

    it('an unknown query parameter is refused on the endpoints that take none (versions, the estimate), as everywhere', async () => {
      const versions = await t.http().get('/v1/catalog/versions?unexpectedField=1').expect(400);
      expect(versions.body.errors).toEqual([{ field: 'unexpectedField', message: 'property unexpectedField should not exist' }]);
      const answer = await t.http().post('/v1/estimates?unexpectedField=1').send(estimate).expect(400);
      expect(answer.body.errors).toEqual([{ field: 'unexpectedField', message: 'property unexpectedField should not exist' }]);
    });

    it('an API priced at 0 gets no break-even (null), not a 500 or an INTERNAL_SERVER_ERROR', async () => {
      const rest = await t
        .http()
        .post('/v1/estimates')
        .send({ ...estimate, apiPricePer1MTokens: '0' })
        .expect(200);
      expect(rest.body.apiComparison).toMatchObject({ breakEvenTokensPerDay: null, selfHostingCheaper: false });
      const gql = await t.graphql('query($i: EstimateInput!) { estimate(input: $i) { apiComparison { breakEvenTokensPerDay } } }', {
        i: { ...estimate, apiPricePer1MTokens: '0' },
      });
      expect(gql.errors).toBeUndefined();
      expect(gql.data).toEqual({ estimate: { apiComparison: { breakEvenTokensPerDay: null } } });
    });

    it.each(['__proto__', 'constructor', 'prototype'])('?%s=x is refused as every unknown parameter is, and in a body too', async (name) => {
      const query = await t.http().get(`/v1/gpus?${name}=x`);
      expect(query.status).toBe(400);
      expect(query.body.errors).toEqual([{ field: name, message: `property ${name} should not exist` }]);
      // JSON.parse makes __proto__ an own key only from text; Fastify refuses that one as malformed.
      const body = await t
        .http()
        .post('/v1/estimates')
        .set('content-type', 'application/json')
        .send(`{"model":{"preset":"llama-3-8b","${name}":{}},"workload":{"requestsPerSecond":1,"avgInputTokens":5,"avgOutputTokens":5}}`);
      expect(body.status).toBe(400);
    });
  });

  describe('signed offer cursors', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    const unb64 = (text: string) => JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Record<string, unknown>;
    /** Cursors made from an issued one: unsigned, altered with the signature kept, the signature changed. */
    const forgeries = (issued: string): string[] => {
      const [payload = '', signature = ''] = issued.split('.');
      const fields = unb64(payload);
      const otherSignature = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
      return [
        payload,
        b64(JSON.stringify({ ...fields, d: '2020-01-01' })),
        `${b64(JSON.stringify({ ...fields, d: '2020-01-01' }))}.${signature}`,
        `${payload}.${otherSignature}`,
        `${payload}.`,
      ];
    };

    it('REST refuses a forged or altered cursor with 400 OFFERS.CURSOR_INVALID naming cursor, and takes the one it issued', async () => {
      const first = await t.http().get('/v1/offers').query({ limit: 2 }).expect(200);
      const issued = first.body.nextCursor as string;
      const next = await t.http().get('/v1/offers').query({ limit: 2, cursor: issued }).expect(200);
      expect(next.body.items).toHaveLength(2);
      expect(next.body.items[0].id).not.toBe(first.body.items[0].id);
      for (const cursor of forgeries(issued)) {
        const res = await t.http().get('/v1/offers').query({ limit: 2, cursor }).expect(400);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body.code).toBe('OFFERS.CURSOR_INVALID');
        expect(res.body.errors).toEqual([{ field: 'cursor', message: expect.stringContaining('is not a cursor this service issued') }]);
      }
    });

    it('GraphQL refuses the same forgeries with BAD_USER_INPUT naming after', async () => {
      const query = 'query($a: String) { offers(first: 2, after: $a) { items { id } nextCursor } }';
      const first = await t.graphql<{ offers: { nextCursor: string } }>(query, {});
      expect(first.errors).toBeUndefined();
      expect((await t.graphql(query, { a: first.data.offers.nextCursor })).errors).toBeUndefined();
      for (const cursor of forgeries(first.data.offers.nextCursor)) {
        const res = await t.graphql(query, { a: cursor });
        expect(res.errors?.[0]?.extensions).toEqual({
          code: 'BAD_USER_INPUT',
          errorCode: 'OFFERS.CURSOR_INVALID',
          errors: [{ field: 'after', message: expect.stringContaining('is not a cursor this service issued') }],
        });
      }
    });

    it('refuses a cursor another service signed with its own key (CURSOR_SIGNING_KEY)', async () => {
      const other = await createTestServer({ env: { CURSOR_SIGNING_KEY: 'another-deployment-signing-key-0123456789' } });
      try {
        const foreign = (await other.http().get('/v1/offers').query({ limit: 2 }).expect(200)).body.nextCursor as string;
        // The same catalog, the same query: only the key differs.
        await other.http().get('/v1/offers').query({ limit: 2, cursor: foreign }).expect(200);
        const res = await t.http().get('/v1/offers').query({ limit: 2, cursor: foreign }).expect(400);
        expect(res.body.errors).toEqual([{ field: 'cursor', message: expect.stringContaining('signed with another key') }]);
      } finally {
        await other.stop();
      }
    });
  });

  describe('empty allow lists are refused', () => {
    const rule = 'must contain at least 1 element';

    it.each(['countries', 'country', 'provider', 'region'])('REST refuses %s= on /v1/offers and /v1/offers/cheapest, naming it', async (name) => {
      for (const path of ['/v1/offers', '/v1/offers/cheapest']) {
        const res = await t
          .http()
          .get(path)
          .query({ gpu: 'h100-sxm-80gb', [name]: '' })
          .expect(400);
        expect(res.body.errors).toEqual([{ field: name, message: rule }]);
      }
    });

    it('REST takes an empty deny list (excludeProvider=): it denies nothing', async () => {
      const all = await t.http().get('/v1/offers/cheapest').query({ gpu: 'h100-sxm-80gb' }).expect(200);
      const empty = await t.http().get('/v1/offers/cheapest').query({ gpu: 'h100-sxm-80gb', excludeProvider: '' }).expect(200);
      expect(sameAnswer(empty.body)).toBe(sameAnswer(all.body));
    });

    it.each(['countries', 'providers', 'regions'])('REST body and GraphQL refuse "%s": [], naming policy.%s', async (name) => {
      const body = await t
        .http()
        .post('/v1/estimates')
        .send({ ...estimate, policy: { ...(estimate.policy as object), [name]: [] } })
        .expect(400);
      expect(body.body.errors).toEqual([{ field: `policy.${name}`, message: rule }]);
      const gql = await t.graphql(`{ cheapestOffers(requirement: { gpus: ["h100-sxm-80gb"] }, policy: { ${name}: [] }) { items { id } } }`);
      expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ field: `policy.${name}`, message: rule }] });
      const filter = await t.graphql(`{ offers(filter: { ${name}: [] }) { items { id } } }`);
      expect(filter.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ field: `filter.${name}`, message: rule }] });
    });
  });
});
