// One error format: every bad request, over REST and GraphQL, gets a 4xx in the documented shape
// (REST: application/problem+json with type, title, status, detail, code and, for validation,
// errors[{ field, message }]; GraphQL: errors[].extensions.code) and never a stack trace or SQL.
import type { Response } from 'supertest';
import { createTestServer, type TestServer } from './setup/test-app.js';
import { at } from '../src/domain/checked.js';

// Server internals that must never reach a client: stack frames, file paths, SQL, the ORM.
const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\n\s*at \S|\bat (?:async )?[\w$.<>]+ \(|\(?(?:file:\/\/|node:)[^\s)]*:\d+:\d+/],
  ['a source path', /\.(?:ts|js|mjs):\d+|node_modules|\/work\/|\/dist\/|\/src\//],
  ['SQL', /\bSELECT\b|\bINSERT INTO\b|\bUPDATE\s+"|\bDELETE FROM\b|\bFROM\s+"|\bWHERE\b/],
  ['the ORM', /prisma|invocation|\bpg\b|postgres/i],
  ['a stack property', /"stack"|stacktrace/i],
];

function expectNoLeak(text: string): void {
  for (const [what, pattern] of LEAKS) {
    if (pattern.test(text)) throw new Error(`the error body exposes ${what} (${pattern}):\n${text}`);
  }
}

/** The problem+json shape, status and code of a REST error answer. */
function expectProblem(res: Response, status: number | number[], code?: string): void {
  const statuses = Array.isArray(status) ? status : [status];
  if (!statuses.includes(res.status)) throw new Error(`expected status ${statuses.join(' or ')}, got ${res.status}: ${res.text}`);
  expect(res.headers['content-type']).toContain('application/problem+json');
  expect(res.body).toEqual(
    expect.objectContaining({ type: expect.any(String), title: expect.any(String), status: res.status, detail: expect.any(String), code: expect.any(String) }),
  );
  expect(res.body.title.length).toBeGreaterThan(0);
  if (code) expect(res.body.code).toBe(code);
  if (res.body.errors !== undefined) {
    expect(Array.isArray(res.body.errors)).toBe(true);
    for (const e of res.body.errors) expect(e).toEqual({ field: expect.any(String), message: expect.any(String) });
  }
  expectNoLeak(res.text);
}

const fields = (res: Response): string[] => (res.body.errors ?? []).map((e: { field: string }) => e.field);

const VALID_ESTIMATE = {
  model: { preset: 'llama-3-8b', precision: 'FP16' },
  workload: { requestsPerSecond: 1, avgInputTokens: 500, avgOutputTokens: 200 },
};

interface RestCase {
  name: string;
  send: (t: TestServer) => Promise<Response>;
  status: number | number[];
  code?: string;
  /** Field names the `errors` list must contain. */
  fields?: string[];
}

const get = (path: string) => (t: TestServer) =>
  t
    .http()
    .get(path)
    .then((r) => r);
const postJson =
  (body: unknown, path = '/v1/estimates') =>
  (t: TestServer) =>
    t
      .http()
      .post(path)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body))
      .then((r) => r);
const postRaw =
  (contentType: string | null, raw: string | undefined, path = '/v1/estimates') =>
  (t: TestServer) => {
    const req = t.http().post(path);
    if (contentType) req.set('Content-Type', contentType);
    return (raw === undefined ? req : req.send(raw)).then((r) => r);
  };

const REST_CASES: RestCase[] = [
  // Routing.
  { name: 'unknown route', send: get('/nope'), status: 404 },
  { name: 'unknown route under /v1', send: get('/v1/prices'), status: 404 },
  {
    name: 'PUT on a read-only resource',
    send: (t) =>
      t
        .http()
        .put('/v1/offers')
        .send({})
        .then((r) => r),
    status: [404, 405],
  },
  { name: 'GET on /v1/estimates (POST only)', send: get('/v1/estimates'), status: [404, 405] },
  // Catalog versions.
  { name: 'unknown catalog version on /v1/providers', send: get('/v1/providers?version=nope'), status: 404, code: 'CATALOG.VERSION_NOT_FOUND' },
  { name: 'unknown catalog version on /v1/regions', send: get('/v1/regions?version=nope'), status: 404, code: 'CATALOG.VERSION_NOT_FOUND' },
  { name: 'unknown catalog version on /v1/gpus', send: get('/v1/gpus?version=nope'), status: 404, code: 'CATALOG.VERSION_NOT_FOUND' },
  { name: 'unknown catalog version on /v1/offers', send: get('/v1/offers?version=nope'), status: 404, code: 'CATALOG.VERSION_NOT_FOUND' },
  { name: 'unknown catalog version on /v1/offers/cheapest', send: get('/v1/offers/cheapest?version=nope'), status: 404, code: 'CATALOG.VERSION_NOT_FOUND' },
  { name: 'asOf before the first publication', send: get('/v1/offers?asOf=1971-01-01T00:00:00Z'), status: 404, code: 'CATALOG.VERSION_NOT_FOUND' },
  { name: 'asOf outside the dates a catalog can have', send: get('/v1/offers?asOf=1900-01-01T00:00:00Z'), status: 400, code: 'REQUEST.INVALID' },
  { name: 'a version label with a NUL byte', send: get('/v1/providers?version=%00'), status: [400, 404] },
  { name: 'an offers version with a NUL byte', send: get('/v1/offers?version=a%00b'), status: [400, 404] },
  // Query parameters.
  { name: 'unknown query parameter on /v1/offers', send: get('/v1/offers?foo=1'), status: 400, code: 'REQUEST.INVALID', fields: ['foo'] },
  {
    name: 'unknown query parameter on /v1/offers/cheapest',
    send: get('/v1/offers/cheapest?sortBy=price'),
    status: 400,
    code: 'REQUEST.INVALID',
    fields: ['sortBy'],
  },
  { name: 'unknown query parameter on /v1/providers', send: get('/v1/providers?lang=de'), status: 400, code: 'REQUEST.INVALID', fields: ['lang'] },
  { name: 'cursor on /v1/offers/cheapest (list only)', send: get('/v1/offers/cheapest?cursor=abc'), status: 400, fields: ['cursor'] },
  ...(
    [
      ['gpuCount=abc', 'gpuCount'],
      ['gpuCount=1.5', 'gpuCount'],
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=1&limit=2', 'limit'],
      ['currency=GBP', 'currency'],
      ['asOf=yesterday', 'asOf'],
      ['minSla=101', 'minSla'],
      ['minSla=abc', 'minSla'],
      ['maxPricePerGpuHour=-1', 'maxPricePerGpuHour'],
      ['maxPricePerGpuHour=1e3', 'maxPricePerGpuHour'],
      ['residency=MARS', 'residency'],
      ['operator=US', 'operator'],
      ['tolerance=SOMETIMES', 'tolerance'],
      ['pricingModel=ON_DEMAND,FREE', 'pricingModel'],
      ['country=DEU', 'country'],
      ['allowPartialAdequacy=maybe', 'allowPartialAdequacy'],
      ['gpuCountMode=SOME', 'gpuCountMode'],
      ['precision=FP4', 'precision'],
      ['minGpuMemoryGb=-1', 'minGpuMemoryGb'],
    ] as const
  ).map(([query, field]): RestCase => ({
    name: `/v1/offers?${query}`,
    send: get(`/v1/offers?${query}`),
    status: 400,
    code: 'REQUEST.INVALID',
    fields: [field],
  })),
  { name: '/v1/offers/cheapest?explain=perhaps', send: get('/v1/offers/cheapest?explain=perhaps'), status: 400, code: 'REQUEST.INVALID', fields: ['explain'] },
  {
    name: '/v1/offers/cheapest?discounts=aws:abc',
    send: get('/v1/offers/cheapest?discounts=aws:abc'),
    status: 400,
    code: 'REQUEST.INVALID',
    fields: ['discounts'],
  },
  { name: '/v1/offers/cheapest?limit=0', send: get('/v1/offers/cheapest?limit=0'), status: 400, code: 'REQUEST.INVALID', fields: ['limit'] },
  { name: 'a cursor the service never issued', send: get('/v1/offers?cursor=garbage'), status: 400, code: 'OFFERS.CURSOR_INVALID', fields: ['cursor'] },
  // Catalog diff.
  { name: '/v1/catalog/diff without from and to', send: get('/v1/catalog/diff'), status: 400, code: 'REQUEST.INVALID', fields: ['from', 'to'] },
  { name: '/v1/catalog/diff without to', send: get('/v1/catalog/diff?from=2026-11'), status: 400, code: 'REQUEST.INVALID', fields: ['to'] },
  { name: '/v1/catalog/diff from an unknown version', send: get('/v1/catalog/diff?from=nope&to=2026-11'), status: 404, code: 'CATALOG.VERSION_NOT_FOUND' },
  { name: '/v1/catalog/diff to an unknown version', send: get('/v1/catalog/diff?from=2026-11&to=nope'), status: 404, code: 'CATALOG.VERSION_NOT_FOUND' },
  { name: '/v1/catalog/diff from a version with a NUL byte', send: get('/v1/catalog/diff?from=%00&to=2026-11'), status: [400, 404] },
  // POST /v1/estimates: the body.
  {
    name: 'malformed JSON',
    send: postRaw('application/json', '{"model": {"preset": "llama-3-8b"'),
    status: 400,
    code: 'REQUEST.MALFORMED_JSON',
    fields: ['body'],
  },
  {
    name: 'a __proto__ key (prototype pollution)',
    send: postRaw('application/json', '{"__proto__": {"polluted": true}}'),
    status: 400,
    code: 'REQUEST.MALFORMED_JSON',
    fields: ['body'],
  },
  { name: 'a JSON primitive body', send: postRaw('application/json', '42'), status: 400 },
  { name: 'a JSON array body', send: postJson([VALID_ESTIMATE]), status: 400 },
  {
    // The estimate routes read up to 9 MiB (they carry measurements); a longer declared body is
    // answered at once, before it is sent.
    name: 'a body over 9 MiB',
    send: (t: TestServer) =>
      t
        .http()
        .post('/v1/estimates')
        .set('Content-Type', 'application/json')
        .set('Content-Length', String(10 * 1024 * 1024))
        .then((r) => r),
    status: 413,
    code: 'REQUEST.TOO_LARGE',
    fields: ['body'],
  },
  { name: 'a text/plain body', send: postRaw('text/plain', JSON.stringify(VALID_ESTIMATE)), status: [400, 415] },
  { name: 'an XML body', send: postRaw('application/xml', '<estimate/>'), status: [400, 415] },
  { name: 'no body at all', send: postRaw(null, undefined), status: [400, 415] },
  { name: 'an empty JSON object', send: postJson({}), status: 400, code: 'REQUEST.INVALID', fields: ['model', 'workload'] },
  { name: 'a body without workload', send: postJson({ model: VALID_ESTIMATE.model }), status: 400, code: 'REQUEST.INVALID', fields: ['workload'] },
  { name: 'a body without model', send: postJson({ workload: VALID_ESTIMATE.workload }), status: 400, code: 'REQUEST.INVALID', fields: ['model'] },
  { name: 'model and workload null', send: postJson({ model: null, workload: null }), status: 400, code: 'REQUEST.INVALID', fields: ['model', 'workload'] },
  {
    name: 'an unknown top-level body field',
    send: postJson({ ...VALID_ESTIMATE, surprise: true }),
    status: 400,
    code: 'REQUEST.INVALID',
    fields: ['surprise'],
  },
  {
    name: 'an unknown nested body field',
    send: postJson({ ...VALID_ESTIMATE, workload: { ...VALID_ESTIMATE.workload, peakFactor: 2 } }),
    status: 400,
    code: 'REQUEST.INVALID',
    fields: ['workload.peakFactor'],
  },
  {
    name: 'a string where a number goes',
    send: postJson({ ...VALID_ESTIMATE, workload: { ...VALID_ESTIMATE.workload, avgInputTokens: '500' } }),
    status: 400,
    code: 'REQUEST.INVALID',
    fields: ['workload.avgInputTokens'],
  },
  {
    name: 'a huge number (1e308)',
    send: postJson({ ...VALID_ESTIMATE, workload: { ...VALID_ESTIMATE.workload, requestsPerSecond: 1e308 } }),
    status: 400,
    code: 'REQUEST.INVALID',
    fields: ['workload.requestsPerSecond'],
  },
  { name: 'an unknown precision', send: postJson({ ...VALID_ESTIMATE, precisions: ['FP4'] }), status: 400, code: 'REQUEST.INVALID', fields: ['precisions'] },
  { name: 'an empty gpus list', send: postJson({ ...VALID_ESTIMATE, gpus: [] }), status: 400, code: 'REQUEST.INVALID', fields: ['gpus'] },
  { name: 'an estimate on an unknown catalog version', send: postJson({ ...VALID_ESTIMATE, version: 'nope' }), status: 404, code: 'CATALOG.VERSION_NOT_FOUND' },
  { name: 'an estimate on a version with a NUL byte', send: postJson({ ...VALID_ESTIMATE, version: '\u0000' }), status: [400, 404] },
  {
    name: 'a model that fits no allowed GPU (llama-3-70b FP16 on t4-16gb)',
    send: postJson({
      model: { preset: 'llama-3-70b', precision: 'FP16' },
      workload: { requestsPerSecond: 1, avgInputTokens: 500, avgOutputTokens: 200 },
      gpus: ['t4-16gb'],
    }),
    status: 422,
    code: 'ESTIMATE.MODEL_DOES_NOT_FIT',
  },
];

interface GraphqlCase {
  name: string;
  /** The whole POST /graphql body (usually { query, variables }). */
  body: unknown;
  /** HTTP statuses allowed (Apollo answers request-level errors 400 and field errors 200). */
  status: number[];
  /** Acceptable extensions.code values of errors[0]. */
  codes: string[];
  /** Text that errors[0].extensions must contain (the field name). */
  extensionsContain?: string;
}

const ESTIMATE_QUERY = 'query($input: EstimateInput!) { estimate(input: $input) { monthlyCost { amount currency } } }';

const GRAPHQL_CASES: GraphqlCase[] = [
  { name: 'a syntax error', body: { query: '{ providers { slug ' }, status: [400], codes: ['GRAPHQL_PARSE_FAILED'] },
  { name: 'an unknown field', body: { query: '{ providers { slug nope } }' }, status: [400], codes: ['GRAPHQL_VALIDATION_FAILED'] },
  { name: 'an unknown root field', body: { query: '{ prices { amount } }' }, status: [400], codes: ['GRAPHQL_VALIDATION_FAILED'] },
  {
    name: 'a missing required argument',
    body: { query: '{ catalogDiff(from: "2026-11") { added { id } } }' },
    status: [400],
    codes: ['GRAPHQL_VALIDATION_FAILED'],
  },
  {
    name: 'an enum value that does not exist',
    body: { query: '{ offers(filter: { currency: GBP }) { items { id } } }' },
    status: [400],
    codes: ['GRAPHQL_VALIDATION_FAILED'],
  },
  {
    name: 'a variable of the wrong type',
    body: { query: 'query($n: Int) { offers(first: $n) { items { id } } }', variables: { n: 'abc' } },
    status: [400],
    codes: ['BAD_USER_INPUT'],
  },
  { name: 'a missing required variable', body: { query: ESTIMATE_QUERY, variables: {} }, status: [400], codes: ['BAD_USER_INPUT'] },
  {
    name: 'an input object with an unknown field (variables)',
    body: { query: ESTIMATE_QUERY, variables: { input: { ...VALID_ESTIMATE, surprise: true } } },
    status: [400],
    codes: ['BAD_USER_INPUT'],
  },
  {
    name: 'a validation failure inside the requirement (gpuCount: 0)',
    body: { query: '{ cheapestOffers(requirement: { gpuCount: 0 }) { items { id } } }' },
    status: [200],
    codes: ['BAD_USER_INPUT'],
    extensionsContain: 'requirement.gpuCount',
  },
  {
    name: 'a validation failure inside the estimate input (avgInputTokens: 0)',
    body: { query: ESTIMATE_QUERY, variables: { input: { ...VALID_ESTIMATE, workload: { ...VALID_ESTIMATE.workload, avgInputTokens: 0 } } } },
    status: [200],
    codes: ['BAD_USER_INPUT'],
    extensionsContain: 'workload.avgInputTokens',
  },
  {
    name: 'first: 0 on offers',
    body: { query: '{ offers(first: 0) { items { id } } }' },
    status: [200],
    codes: ['BAD_USER_INPUT'],
    extensionsContain: 'first',
  },
  { name: 'an unknown catalog version', body: { query: '{ providers(version: "nope") { slug } }' }, status: [200], codes: ['NOT_FOUND'] },
  {
    name: 'a diff from an unknown version',
    body: { query: '{ catalogDiff(from: "nope", to: "2026-11") { added { id } } }' },
    status: [200],
    codes: ['NOT_FOUND'],
  },
  {
    name: 'an estimate on an unknown version',
    body: { query: ESTIMATE_QUERY, variables: { input: { ...VALID_ESTIMATE, version: 'nope' } } },
    status: [200],
    codes: ['NOT_FOUND'],
  },
  {
    name: 'a version with a NUL byte',
    body: { query: 'query($v: String) { providers(version: $v) { slug } }', variables: { v: 'a\u0000b' } },
    status: [200, 400],
    codes: ['NOT_FOUND', 'BAD_USER_INPUT'],
  },
  {
    name: 'a model that fits no allowed GPU',
    body: { query: ESTIMATE_QUERY, variables: { input: { ...VALID_ESTIMATE, model: { preset: 'llama-3-70b', precision: 'FP16' }, gpus: ['t4-16gb'] } } },
    status: [200],
    codes: ['UNPROCESSABLE'],
  },
  // There is no Mutation (or Subscription) type: asking for one is the client's mistake, not an internal error.
  { name: 'a mutation', body: { query: 'mutation { x }' }, status: [200, 400], codes: ['GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT'] },
  { name: 'a subscription', body: { query: 'subscription { x }' }, status: [200, 400], codes: ['GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT'] },
  // Malformed request envelopes: the client's mistake too.
  { name: 'a body without a query', body: { variables: {} }, status: [400], codes: ['BAD_REQUEST', 'BAD_USER_INPUT'] },
  { name: 'a query that is not a string', body: { query: 123 }, status: [400], codes: ['BAD_REQUEST', 'BAD_USER_INPUT'] },
  {
    name: 'variables that are not an object',
    body: { query: '{ providers { slug } }', variables: [1] },
    status: [400],
    codes: ['BAD_REQUEST', 'BAD_USER_INPUT'],
  },
];

describe('one error format (e2e, bundled catalog)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('REST answers every bad request with a 4xx problem+json, no stack trace or SQL', () => {
    it.each(REST_CASES)('$name → $status', async ({ send, status, code, fields: expected }) => {
      const res = await send(t);
      expectProblem(res, status, code);
      if (expected) expect(fields(res)).toEqual(expect.arrayContaining(expected));
      if (res.body.code === 'REQUEST.INVALID') expect(res.body.errors?.length).toBeGreaterThan(0);
    });

    it('names the request in instance', async () => {
      const res = await t.http().get('/v1/offers?limit=0');
      expectProblem(res, 400, 'REQUEST.INVALID');
      expect(res.body.instance).toBe('/v1/offers?limit=0');
    });

    it('names every invalid field of one request, not only the first', async () => {
      const res = await t.http().get('/v1/offers').query({ limit: 0, currency: 'GBP', residency: 'MARS' });
      expectProblem(res, 400, 'REQUEST.INVALID');
      expect(fields(res)).toEqual(expect.arrayContaining(['limit', 'currency', 'residency']));
    });
  });

  describe('one rule for inputs, on every endpoint', () => {
    const H100_FIRST = /closest known: h100-/;
    it.each([
      ['/v1/offers?gpu=h100', 'gpu'],
      ['/v1/offers/cheapest?gpu=h100', 'gpu'],
      ['/v1/offers?provider=awz', 'provider'],
      ['/v1/offers/cheapest?gpu=h100-sxm-80gb&excludeProvider=lamda', 'excludeProvider'],
      ['/v1/offers?region=eu-central-9', 'region'],
      ['/v1/offers/cheapest?gpu=h100-sxm-80gb&discounts=ovhclod:10', 'discounts[0].provider'],
      ['/v1/gpus/h100/price-history', 'gpu'],
    ])('GET %s: an unknown identifier is a 400 naming it and the closest known ones', async (path, field) => {
      const res = await t.http().get(path);
      expectProblem(res, 400, 'REQUEST.INVALID');
      expect(fields(res)).toEqual([field]);
      expect(res.body.errors[0].message).toMatch(/^unknown (GPU model|provider|region) "[^"]+"; closest known: \S/);
      if (field === 'gpu') expect(res.body.errors[0].message).toMatch(H100_FIRST);
    });

    it('the same over GraphQL, as BAD_USER_INPUT naming the field', async () => {
      for (const query of ['{ offers(filter: { gpus: ["h100"] }) { nextCursor } }', '{ cheapestOffers(requirement: { gpus: ["h100"] }) { items { id } } }']) {
        const res = await t.http().post('/graphql').send({ query });
        const error = res.body.errors?.[0];
        expect(error?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
        expect(error?.message).toMatch(/unknown GPU model "h100"; closest known: h100-/);
      }
    });

    it('an unknown model preset names the closest presets, over REST and GraphQL', async () => {
      const rest = await t
        .http()
        .post('/v1/estimates')
        .send({ ...VALID_ESTIMATE, model: { preset: 'llama-3-8', precision: 'FP16' } });
      expectProblem(rest, 400);
      expect(rest.body.errors).toEqual([
        { field: 'model.preset', message: expect.stringMatching(/^unknown model preset "llama-3-8"; closest known: llama-3-8b/) },
      ]);
      const cheapest = await t.http().get('/v1/offers/cheapest?model=llama-3-8');
      expectProblem(cheapest, 400);
      expect(cheapest.body.errors[0].message).toMatch(/closest known: llama-3-8b/);
    });

    it('a missing required field says "is required", once', async () => {
      const { avgInputTokens: _dropped, ...workload } = VALID_ESTIMATE.workload;
      const res = await t
        .http()
        .post('/v1/estimates')
        .send({ ...VALID_ESTIMATE, workload });
      expectProblem(res, 400, 'REQUEST.INVALID');
      expect(res.body.errors).toEqual([{ field: 'workload.avgInputTokens', message: 'is required' }]);
    });

    it('malformed JSON is a problem+json with an errors entry for the body', async () => {
      const res = await t.http().post('/v1/estimates').set('Content-Type', 'application/json').send('{"model": ');
      expectProblem(res, 400, 'REQUEST.MALFORMED_JSON');
      expect(res.body.type).not.toBe('about:blank');
      expect(res.body.errors).toEqual([{ field: 'body', message: expect.stringContaining('is not valid JSON') }]);
    });
  });

  describe('GraphQL answers every bad request with extensions.code, no stack trace', () => {
    it.each(GRAPHQL_CASES)('$name → $codes', async ({ body, status, codes, extensionsContain }) => {
      const res = await t.http().post('/graphql').set('Content-Type', 'application/json').send(JSON.stringify(body));
      if (!status.includes(res.status)) throw new Error(`expected status ${status.join(' or ')}, got ${res.status}: ${res.text}`);
      const errors = res.body.errors as { message: string; extensions?: Record<string, unknown> }[] | undefined;
      if (!errors?.length) throw new Error(`expected errors, got ${res.text}`);
      for (const error of errors) {
        expect(typeof error.message).toBe('string');
        expect(typeof error.extensions?.code).toBe('string');
        expect(error.extensions).not.toHaveProperty('stacktrace');
        expect(error.extensions).not.toHaveProperty('exception');
      }
      if (!codes.includes(at(errors, 0).extensions?.code as string)) {
        throw new Error(`expected errors[0].extensions.code to be ${codes.join(' or ')}, got ${res.text}`);
      }
      if (extensionsContain) expect(JSON.stringify(at(errors, 0).extensions)).toContain(extensionsContain);
      expectNoLeak(res.text);
    });

    it('points a field error at the field that failed', async () => {
      const res = await t.http().post('/graphql').send({ query: '{ gpus { slug } providers(version: "nope") { slug } }' });
      expect(res.status).toBe(200);
      // providers is non-null, so its error nulls the whole data.
      expect(res.body.data).toBeNull();
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].path).toEqual(['providers']);
      expect(res.body.errors[0].extensions).toEqual({ code: 'NOT_FOUND', errorCode: 'CATALOG.VERSION_NOT_FOUND' });
    });
  });
});
