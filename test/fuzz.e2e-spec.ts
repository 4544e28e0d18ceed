// Fuzzing the HTTP surface: random and mutated inputs never get a 5xx (or, over GraphQL, an
// INTERNAL_SERVER_ERROR, GraphQL's 5xx), and every REST error is a well-formed problem+json,
// every GraphQL error carries extensions.code. Fixed seed, bounded runs: deterministic in CI.
import fc from 'fast-check';
import { MODEL_PRESET_SLUGS } from '../src/domain/sizing/index.js';
import { checkGraphql, checkRest } from './setup/fuzz-checks.js';
import { createTestServer, type TestServer } from './setup/test-app.js';
import { last } from '../src/domain/checked.js';

const SEED = 42;
const GPUS = ['a10g-24gb', 'l4-24gb', 't4-16gb', 'h100-sxm-80gb', 'h100-pcie-80gb', 'a100-sxm-80gb', 'l40s-48gb', 'h200-141gb'];
const PROVIDERS = ['aws', 'azure', 'gcp', 'lambda', 'coreweave', 'runpod', 'vastai', 'together', 'gmi', 'ovhcloud', 'scaleway', 'hetzner'];
const PRECISIONS = ['FP32', 'FP16', 'BF16', 'FP8', 'INT8', 'INT4'];
const PRICING_MODELS = ['ON_DEMAND', 'SPOT', 'RESERVED_1Y', 'RESERVED_3Y', 'SERVERLESS', 'MONTHLY'];
const DIURNAL = [20, 15, 10, 10, 10, 15, 30, 60, 100, 140, 160, 170, 170, 160, 150, 150, 140, 130, 120, 100, 80, 60, 40, 30];

const VALID_ESTIMATE = {
  model: { preset: 'llama-3-8b', precision: 'FP16' },
  workload: { hourlyProfile: DIURNAL, avgInputTokens: 500, avgOutputTokens: 200, batchShare: 0.15 },
  policy: { preset: 'GDPR_PERSONAL_DATA', tolerance: 'RECOVERABLE' },
  precisions: ['FP16', 'FP8', 'INT8', 'INT4'],
  gpus: ['a10g-24gb', 'l4-24gb', 't4-16gb'],
  currency: 'EUR',
};

// ---- Arbitraries -------------------------------------------------------------------------------

const nest = (depth: number): unknown => (depth === 0 ? 1 : depth % 2 ? [nest(depth - 1)] : { a: nest(depth - 1) });

/** Values that break naive code: wrong types, extremes, NaN-like strings, unicode, deep nesting. */
const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -0,
    -1,
    1.5,
    -1e308,
    1e308,
    5e-324,
    2 ** 53 + 1,
    -(2 ** 31),
    2 ** 31,
    1024,
    1025,
    1e21,
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    'NaN',
    'Infinity',
    '-Infinity',
    'null',
    'undefined',
    'true',
    '[]',
    '{}',
    '\u0000',
    'a\u0000b',
    '\uFEFF',
    '💥',
    'ＦＰ１６',
    'llama-3-8b\n',
    "'; DROP TABLE offers; --",
    '%00',
    '../../etc/passwd',
    '__proto__',
    'constructor',
    'x'.repeat(10_000),
    [],
    {},
    [null],
    [[]],
    JSON.parse('{"__proto__":{"polluted":true}}'),
    { constructor: { prototype: { polluted: true } } },
    Array(23).fill(1),
    Array(25).fill(1),
    Array(24).fill(-1),
    Array(24).fill('1'),
    Array(24).fill(null),
    Array(1000).fill(0),
    nest(50),
    nest(500),
  ),
  fc.integer(),
  fc.double(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)), { maxLength: 30 }),
  fc.jsonValue({ maxDepth: 3 }),
);

type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
}

type Mutation = { kind: 'set'; path: Path; value: unknown } | { kind: 'delete'; path: Path } | { kind: 'add'; path: Path; key: string; value: unknown };

function applyMutation(root: unknown, m: Mutation): unknown {
  const copy = structuredClone(root);
  if (m.path.length === 0) {
    if (m.kind === 'set') return m.value;
    if (m.kind === 'delete') return {};
  }
  let parent: unknown = copy;
  const steps = m.kind === 'add' ? m.path : m.path.slice(0, -1);
  for (const k of steps) {
    if (parent === null || typeof parent !== 'object') return copy;
    parent = (parent as Record<string | number, unknown>)[k];
  }
  if (parent === null || typeof parent !== 'object') return copy;
  const target = parent as Record<string | number, unknown>;
  if (m.kind === 'add') Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
  else if (m.kind === 'set') target[last(m.path)] = m.value;
  else if (Array.isArray(target)) target.splice(Number(m.path.at(-1)), 1);
  else delete target[last(m.path)];
  return copy;
}

/** Copies of a valid document with 1–4 random mutations: values swapped, keys deleted or added. */
function mutated(valid: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(valid);
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), path: fc.constantFrom(...paths), value: nasty }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...paths) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('add' as const),
        path: fc.constantFrom(...paths.filter((p) => p.length < 2)),
        key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', 'surprise', ''), fc.string({ maxLength: 8 })),
        value: nasty,
      }),
    },
  );
  return fc.array(mutation, { minLength: 1, maxLength: 4 }).map((ms) => ms.reduce<unknown>((doc, m) => applyMutation(doc, m), valid));
}

/** Valid-looking estimate requests: every optional part drawn from plausible values. */
const plausibleEstimate = fc.record(
  {
    model: fc.oneof(
      fc.record({ preset: fc.constantFrom(...MODEL_PRESET_SLUGS), precision: fc.constantFrom(...PRECISIONS) }, { requiredKeys: ['preset'] }),
      fc.record({ parametersB: fc.double({ min: 0.01, max: 2000, noNaN: true }), layers: fc.integer({ min: 1, max: 200 }) }, { requiredKeys: ['parametersB'] }),
    ),
    workload: fc.oneof(
      fc.record({
        requestsPerSecond: fc.double({ min: 0, max: 5000, noNaN: true }),
        avgInputTokens: fc.integer({ min: 1, max: 100_000 }),
        avgOutputTokens: fc.integer({ min: 1, max: 10_000 }),
      }),
      fc.record({
        hourlyProfile: fc.array(fc.double({ min: 0, max: 1000, noNaN: true }), { minLength: 24, maxLength: 24 }),
        avgInputTokens: fc.integer({ min: 1, max: 4000 }),
        avgOutputTokens: fc.integer({ min: 1, max: 4000 }),
        batchShare: fc.double({ min: 0, max: 0.999, noNaN: true }),
        scaleToZero: fc.boolean(),
      }),
    ),
    policy: fc.record(
      {
        preset: fc.constantFrom('GDPR_PERSONAL_DATA', 'EU_SOVEREIGN', 'DE_BSI_C5'),
        tolerance: fc.constantFrom('TOLERANT', 'RECOVERABLE', 'INTOLERANT'),
        pricingModels: fc.subarray(PRICING_MODELS, { minLength: 1 }),
        providers: fc.subarray(PROVIDERS, { minLength: 1 }),
        // Prices are decimal strings in every input.
        maxPricePerGpuHour: fc.integer({ min: 0, max: 2000 }).map((cents) => (cents / 100).toFixed(2)),
      },
      { requiredKeys: [] },
    ),
    gpus: fc.subarray(GPUS, { minLength: 1 }),
    precisions: fc.subarray(PRECISIONS, { minLength: 1 }),
    currency: fc.constantFrom('USD', 'EUR'),
    egressGbPerMonth: fc.double({ min: 0, max: 1e6, noNaN: true }),
    minReplicas: fc.integer({ min: 0, max: 100 }),
    apiPricePer1MTokens: fc.constantFrom('0.60', '10', '0.000000001'),
    measuredThroughput: fc.array(fc.record({ gpu: fc.constantFrom(...GPUS), requestsPerSecond: fc.double({ min: 0.0001, max: 1000, noNaN: true }) }), {
      maxLength: 3,
    }),
    version: fc.constantFrom('2026-11', 'nope'),
  },
  { requiredKeys: ['model', 'workload'] },
);

const estimateBody: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: mutated(VALID_ESTIMATE) },
  { weight: 2, arbitrary: plausibleEstimate.chain((valid) => fc.oneof(fc.constant(valid as unknown), mutated(valid))) },
  { weight: 1, arbitrary: fc.jsonValue() },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), nasty, { maxKeys: 5 }) },
);

const VALID_REQUIREMENT = {
  gpus: ['h100-sxm-80gb', 'h100-pcie-80gb'],
  minGpuMemoryGb: 40,
  gpuCount: 1,
  gpuCountMode: 'PER_INSTANCE',
  model: { preset: 'llama-3-8b', precision: 'FP16' },
};
const VALID_POLICY = {
  preset: 'GDPR_PERSONAL_DATA',
  residency: 'EEA',
  countries: ['DE', 'FR'],
  operator: 'ANY',
  certifications: ['ISO27001'],
  minSla: 99.5,
  pricingModels: ['ON_DEMAND', 'SPOT'],
  tolerance: 'TOLERANT',
  providers: ['aws', 'ovhcloud'],
  excludeProviders: ['azure'],
  maxPricePerGpuHour: '10',
};
const randomOrMutated = (valid: unknown): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(valid) },
    { weight: 6, arbitrary: mutated(valid) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: nasty },
  );

/** A variables object: each variable absent, valid, mutated, random. */
const cheapestVariables = fc.record(
  {
    r: randomOrMutated(VALID_REQUIREMENT),
    p: randomOrMutated(VALID_POLICY),
    c: fc.oneof(fc.constantFrom('USD', 'EUR'), nasty),
    v: fc.oneof(fc.constantFrom('2026-11', 'nope'), nasty),
    l: fc.oneof(fc.integer({ min: 1, max: 100 }), nasty),
    e: fc.oneof(fc.boolean(), nasty),
    d: fc.oneof(
      fc.constant([{ provider: 'aws', percent: 12 }]),
      randomOrMutated([
        { provider: 'aws', percent: 12 },
        { provider: 'azure', percent: 5 },
      ]),
    ),
  },
  { requiredKeys: ['r'] },
);

const offersVariables = fc.record(
  {
    f: randomOrMutated({ ...VALID_POLICY, gpus: ['l4-24gb'], gpuCount: 1, minGpuMemoryGb: 16, currency: 'EUR' }),
    v: fc.oneof(fc.constantFrom('2026-11', 'nope'), nasty),
    a: fc.oneof(fc.constantFrom('2026-01-01T00:00:00Z', '2100-01-01T00:00:00Z', 'yesterday', '1900-01-01'), nasty),
    n: fc.oneof(fc.integer({ min: 1, max: 500 }), nasty),
    c: fc.oneof(fc.constantFrom('garbage', 'eyJ4IjoxfQ'), nasty),
  },
  { requiredKeys: [] },
);

// Query strings: known parameters with plausible or nasty values, unknown ones, broken escapes.
const QUERY_VALUES: Record<string, string[]> = {
  gpu: ['h100-sxm-80gb', 'h100-sxm-80gb,l4-24gb', 'h900', ''],
  gpuCount: ['1', '8', '0', '1024', '1025', '-1', '1.5'],
  gpuCountMode: ['PER_INSTANCE', 'TOTAL', 'SOME'],
  minGpuMemoryGb: ['16', '80', '4097', '-1'],
  model: ['llama-3-8b', 'llama-3-70b', 'gpt-9'],
  precision: PRECISIONS,
  provider: ['aws', 'aws,ovhcloud', 'nope'],
  excludeProvider: ['aws', 'azure,gcp'],
  region: ['aws:eu-central-1', 'eu-central-1', 'mars-1'],
  country: ['DE', 'de', 'DEU', 'US'],
  residency: ['ANY', 'EU', 'EEA', 'GDPR_ADEQUATE', 'MARS'],
  countries: ['DE,FR', 'IS', 'XX', 'D'],
  allowPartialAdequacy: ['true', 'false', '1', 'maybe'],
  operator: ['ANY', 'EU', 'US'],
  preset: ['GDPR_PERSONAL_DATA', 'EU_SOVEREIGN', 'DE_BSI_C5', 'NOPE'],
  pricingModel: ['ON_DEMAND', 'SPOT,RESERVED_1Y', 'FREE'],
  pricingModels: ['SERVERLESS', 'RESERVED_3Y'],
  tolerance: ['TOLERANT', 'RECOVERABLE', 'INTOLERANT', 'MAYBE'],
  certifications: ['ISO27001', 'BSI_C5,SOC2'],
  minSla: ['99.9', '100', '101', '-1'],
  maxPricePerGpuHour: ['4.00', '0', '999999.999999', '-1', '1e3'],
  currency: ['USD', 'EUR', 'GBP'],
  version: ['2026-11', 'nope'],
  asOf: ['2026-12-01T00:00:00Z', '2100-01-01T00:00:00Z', '1900-01-01', 'yesterday', '0'],
  limit: ['1', '50', '500', '0', '501'],
  cursor: ['garbage', 'eyJ4IjoxfQ'],
  explain: ['true', 'false', 'perhaps'],
  discounts: ['aws:12', 'aws:12,azure:5', 'aws:abc', 'aws:5,aws:6'],
};

const queryValue = (key: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...(QUERY_VALUES[key] ?? ['x'])) },
    { weight: 1, arbitrary: fc.constantFrom('', '%00', '\u0000', 'NaN', 'Infinity', '1e308', '-0', 'null', '💥', 'x'.repeat(2000), "' OR 1=1 --") },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  );

/** A query string: 0–6 parameters (known or random names, sometimes repeated), sometimes raw broken escapes. */
const queryString: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(
      fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...Object.keys(QUERY_VALUES)).chain((k) => queryValue(k).map((v) => [k, v] as const)) },
        { weight: 1, arbitrary: fc.tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }), fc.string({ maxLength: 10 })) },
      ),
      { maxLength: 6 },
    ),
    fc.constantFrom('', '', '', '', '&%', '&%zz=1', '&gpu=%E0%A4%A', '&limit', '&=1', '&&', '&version=%00', '&gpu[0]=a', '&gpu[a]=b'),
  )
  .map(([pairs, raw]) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&') + raw);

// ---- Properties --------------------------------------------------------------------------------

const RUNS = { seed: SEED, numRuns: 200 } as const;

describe('fuzzing (e2e, bundled catalog): no 5xx, every error well-formed', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('POST /v1/estimates: random and mutated JSON bodies', async () => {
    await fc.assert(
      fc.asyncProperty(estimateBody, async (body) => {
        const text = JSON.stringify(body) ?? '';
        const res = await t.http().post('/v1/estimates').set('Content-Type', 'application/json').send(text);
        checkRest(text, res);
        if (res.status === 200)
          expect(res.body.monthlyCost).toEqual({ amount: expect.stringMatching(/^\d+\.\d{2}$/), currency: expect.stringMatching(/^(USD|EUR)$/) });
      }),
      { ...RUNS, numRuns: 250 },
    );
  }, 60_000);

  it('POST /v1/estimates: random bytes, strings and content types', async () => {
    const raw = fc.record({
      contentType: fc.constantFrom(
        'application/json',
        'application/json; charset=latin1',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        'application/octet-stream',
        '',
      ),
      payload: fc.oneof(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.jsonValue().map((v) => JSON.stringify(v)),
        fc.constantFrom('', '{', '{"model":', '[', 'null', '"x"', '{"a":1}{"b":2}', 'a=b&c=d'),
      ),
    });
    await fc.assert(
      fc.asyncProperty(raw, async ({ contentType, payload }) => {
        const req = t.http().post('/v1/estimates');
        if (contentType) req.set('Content-Type', contentType);
        const res = await req.send(payload);
        checkRest(`(${contentType || 'no content-type'}) ${payload}`, res);
      }),
      { ...RUNS, numRuns: 150 },
    );
  }, 60_000);

  it('GET /v1/offers: random query strings', async () => {
    await fc.assert(
      fc.asyncProperty(queryString, async (qs) => {
        const res = await t.http().get(`/v1/offers?${qs}`);
        checkRest(`GET /v1/offers?${qs}`, res);
        if (res.status === 200) expect(Array.isArray(res.body.items)).toBe(true);
      }),
      { ...RUNS, numRuns: 250 },
    );
  }, 60_000);

  it('GET /v1/offers/cheapest: random query strings', async () => {
    await fc.assert(
      fc.asyncProperty(queryString, async (qs) => {
        const res = await t.http().get(`/v1/offers/cheapest?${qs}`);
        checkRest(`GET /v1/offers/cheapest?${qs}`, res);
        if (res.status === 200) expect(Array.isArray(res.body.items)).toBe(true);
      }),
      { ...RUNS, numRuns: 250 },
    );
  }, 60_000);

  it('GraphQL estimate(input:): random and mutated variables', async () => {
    const query = 'query($input: EstimateInput!) { estimate(input: $input) { monthlyCost { amount currency } gpu precision tiers { pricingModel } } }';
    await fc.assert(
      fc.asyncProperty(estimateBody, async (input) => {
        const sent = { query, variables: { input } };
        const res = await t.http().post('/graphql').set('Content-Type', 'application/json').send(JSON.stringify(sent));
        checkGraphql(sent, res);
        if (res.status === 200 && !res.body.errors) expect(res.body.data.estimate.monthlyCost.amount).toMatch(/^\d+\.\d{2}$/);
      }),
      { ...RUNS, numRuns: 250 },
    );
  }, 60_000);

  it('GraphQL cheapestOffers: random requirement, policy and arguments', async () => {
    const query = `query($r: GpuRequirement!, $p: CompliancePolicyInput, $c: Currency, $v: String, $l: Int, $e: Boolean, $d: [DiscountInput!]) {
      cheapestOffers(requirement: $r, policy: $p, currency: $c, version: $v, limit: $l, explain: $e, discounts: $d) {
        catalogVersion { label } items { id pricePerGpuHour { amount } } excluded { reasons }
      }
    }`;
    await fc.assert(
      fc.asyncProperty(cheapestVariables, async (variables) => {
        const sent = { query, variables };
        const res = await t.http().post('/graphql').set('Content-Type', 'application/json').send(JSON.stringify(sent));
        checkGraphql(sent, res);
        if (res.status === 200 && !res.body.errors) expect(Array.isArray(res.body.data.cheapestOffers.items)).toBe(true);
      }),
      { ...RUNS, numRuns: 250 },
    );
  }, 60_000);

  it('GraphQL offers: random filter, version, asOf, first and after', async () => {
    const query = `query($f: OfferFilter, $v: String, $a: DateTime, $n: Int, $c: String) {
      offers(filter: $f, version: $v, asOf: $a, first: $n, after: $c) { items { id } nextCursor }
    }`;
    await fc.assert(
      fc.asyncProperty(offersVariables, async (variables) => {
        const sent = { query, variables };
        const res = await t.http().post('/graphql').set('Content-Type', 'application/json').send(JSON.stringify(sent));
        checkGraphql(sent, res);
        if (res.status === 200 && !res.body.errors) expect(Array.isArray(res.body.data.offers.items)).toBe(true);
      }),
      { ...RUNS, numRuns: 200 },
    );
  }, 60_000);

  it('GraphQL: random request envelopes (query, variables, operationName of any JSON type)', async () => {
    const envelope = fc.oneof(
      fc.record(
        {
          query: fc.oneof(
            fc.constantFrom('{ gpus { slug } }', 'query Q { providers { slug } }', '{', 'mutation { x }', '{ __typename }', ''),
            fc.string({ maxLength: 40 }),
            nasty,
          ),
          variables: fc.oneof(fc.constant({}), fc.jsonValue({ maxDepth: 2 }), nasty),
          operationName: fc.oneof(fc.constantFrom('Q', 'nope'), nasty),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(envelope, async (sent) => {
        const res = await t
          .http()
          .post('/graphql')
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(sent) ?? '');
        checkGraphql(sent, res);
      }),
      { ...RUNS, numRuns: 150 },
    );
  }, 60_000);
});
