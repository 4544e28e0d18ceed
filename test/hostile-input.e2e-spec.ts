// Hostile input, round three: explicit nulls and loose dates, each over REST and GraphQL. Each of
// these once answered 500 (or INTERNAL_SERVER_ERROR), or read a date nobody wrote.
// - Null means absent for every optional input: the answer equals the one without the field.
// - `asOf` is an RFC 3339 date-time checked against the calendar (src/common/inputs/date-time.ts).
// - A GraphQL error answered as INTERNAL_SERVER_ERROR leaves a log line with its stack.
// - Offer cursors are signed: a forged or altered one, or one signed with another key, is a 400
//   naming the cursor as the transport spells it (REST `cursor`, GraphQL `after`).
// - An empty allow list (countries, providers, regions) is refused, not read as "no restriction".
// (Caching answers of authenticated callers and CSRF on cached GraphQL GETs: response-cache.e2e-spec.ts;
// publication times: catalog-updates.e2e-spec.ts; catalog sources: catalog-files.hostile.spec.ts.)
import { readFileSync } from 'node:fs';
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
