import { jurisdictionsOf } from '../src/domain/compliance/index.js';
import { createTestServer, type TestServer } from './setup/test-app.js';

const OFFER_FIELDS = `id provider region country gpu gpuCount instanceType pricingModel
  pricePerHour { amount currency } pricePerGpuHour { amount currency } listPricePerHour { amount currency }
  source observedAt derived complies totalPricePerHour { amount currency } instances`;

describe('offers (e2e, bundled catalog)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('lists H100 offers from at least 10 providers, with sources, and the reference article figures', async () => {
    const res = await t.http().get('/v1/offers').query({ gpu: 'h100-sxm-80gb,h100-pcie-80gb,h100-nvl-94gb', limit: 500 }).expect(200);
    const items = res.body.items as { provider: string; source: string; pricePerGpuHour: { amount: string }; pricingModel: string; instanceType: string }[];
    expect(new Set(items.map((i) => i.provider)).size).toBeGreaterThanOrEqual(10);
    expect(items.every((i) => i.source.length > 3)).toBe(true);
    const price = (provider: string, model: string, amount: string) =>
      items.some((i) => i.provider === provider && i.pricingModel === model && i.pricePerGpuHour.amount === amount);
    expect(price('aws', 'ON_DEMAND', '3.9000')).toBe(true);
    expect(price('azure', 'ON_DEMAND', '6.9800')).toBe(true);
    expect(price('gcp', 'ON_DEMAND', '3.0000')).toBe(true);
    expect(price('vastai', 'SPOT', '1.4900')).toBe(true);
    expect(price('gmi', 'ON_DEMAND', '2.1000')).toBe(true);
    expect(price('aws', 'RESERVED_3Y', '1.9000')).toBe(true);
    expect(price('aws', 'RESERVED_1Y', '2.1000')).toBe(true);
    // Sorted by comparable price per GPU-hour.
    const amounts = items.map((i) => Number(i.pricePerGpuHour.amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
  });

  it('pages with a cursor without gaps or repeats, and the cursor pins the version', async () => {
    const all = (await t.http().get('/v1/offers').query({ limit: 500 }).expect(200)).body.items.map((i: { id: string }) => i.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await t.http().get('/v1/offers').query({ limit: 17, ...(cursor ? { cursor } : {}) }).expect(200);
      seen.push(...page.body.items.map((i: { id: string }) => i.id));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all);
    const first = await t.http().get('/v1/offers').query({ limit: 5 }).expect(200);
    const mismatch = await t.http().get('/v1/offers').query({ limit: 5, gpu: 'l4-24gb', cursor: first.body.nextCursor }).expect(400);
    expect(mismatch.body.errors[0].field).toBe('cursor');
  });

  it('converts prices to EUR with the version FX rate', async () => {
    const usd = (await t.http().get('/v1/offers').query({ provider: 'aws', gpu: 'a10g-24gb', limit: 1 }).expect(200)).body.items[0];
    const eur = (await t.http().get('/v1/offers').query({ provider: 'aws', gpu: 'a10g-24gb', limit: 1, currency: 'EUR' }).expect(200)).body.items[0];
    expect(eur.id).toBe(usd.id);
    expect(eur.pricePerHour.currency).toBe('EUR');
    const versions = (await t.http().get('/v1/catalog/versions').expect(200)).body.items;
    const rate = Number(versions[0].fxRates.rates.find((r: { currency: string }) => r.currency === 'EUR').rate);
    expect(Number(eur.pricePerHour.amount)).toBeCloseTo(Number(usd.pricePerHour.amount) * rate, 3);
  });

  it('serves offers as CSV with FOCUS-style columns', async () => {
    const res = await t.http().get('/v1/offers').query({ gpu: 'l4-24gb', limit: 5 }).set('Accept', 'text/csv').expect(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const [header, ...rows] = res.text.trim().split('\r\n');
    expect(header!.split(',')).toEqual(expect.arrayContaining(['ListUnitPrice', 'PricingCategory', 'RegionId', 'SkuPriceId']));
    expect(rows).toHaveLength(5);
  });

  it('finds the cheapest H100 under GDPR_PERSONAL_DATA in the EEA only, names the cheaper excluded offers, and agrees with GraphQL to the cent', async () => {
    const query = { gpu: 'h100-sxm-80gb,h100-pcie-80gb', preset: 'GDPR_PERSONAL_DATA', explain: 'true', limit: 5 };
    const rest = (await t.http().get('/v1/offers/cheapest').query(query).expect(200)).body;
    expect(rest.items.length).toBeGreaterThan(0);
    for (const item of rest.items) expect(jurisdictionsOf(item.country)).toContain('EEA');
    expect(rest.items[0].complies.join(' ')).toMatch(/inside EEA/);
    expect(rest.excluded.length).toBeGreaterThan(0);
    const cheapestCompliant = Number(rest.items[0].pricePerGpuHour.amount);
    for (const e of rest.excluded) {
      expect(Number(e.offer.pricePerGpuHour.amount)).toBeLessThan(cheapestCompliant);
      expect(e.reasons.join(' ')).toMatch(/outside EEA/);
    }

    const gql = await t.graphql<{ cheapestOffers: { catalogVersion: { label: string }; items: unknown[]; excluded: { offer: unknown; reasons: string[] }[] } }>(
      `query($r: GpuRequirement!, $p: CompliancePolicyInput) {
        cheapestOffers(requirement: $r, policy: $p, limit: 5, explain: true) {
          catalogVersion { id label } items { ${OFFER_FIELDS} } excluded { offer { ${OFFER_FIELDS} } reasons }
        }
      }`,
      { r: { gpus: ['h100-sxm-80gb', 'h100-pcie-80gb'] }, p: { preset: 'GDPR_PERSONAL_DATA' } },
    );
    expect(gql.errors).toBeUndefined();
    const pick = (o: Record<string, unknown>) => ({ id: o.id, pricePerGpuHour: o.pricePerGpuHour, pricePerHour: o.pricePerHour, complies: o.complies });
    expect(gql.data.cheapestOffers.items.map((i) => pick(i as Record<string, unknown>))).toEqual(rest.items.map(pick));
    expect(gql.data.cheapestOffers.excluded.map((e) => [(e.offer as { id: string }).id, e.reasons])).toEqual(rest.excluded.map((e: { offer: { id: string }; reasons: string[] }) => [e.offer.id, e.reasons]));
    expect(gql.data.cheapestOffers.catalogVersion.label).toBe(rest.catalogVersion.label);
  });

  it('returns only EU/EEA-headquartered operators under EU_SOVEREIGN', async () => {
    const rest = (await t.http().get('/v1/offers/cheapest').query({ gpu: 'h100-sxm-80gb,h100-pcie-80gb', preset: 'EU_SOVEREIGN', limit: 20 }).expect(200)).body;
    const providers = new Set(rest.items.map((i: { provider: string }) => i.provider));
    expect(providers.size).toBeGreaterThan(0);
    expect([...providers].every((p) => ['ovhcloud', 'scaleway', 'hetzner'].includes(p as string))).toBe(true);
  });

  it('never gives spot to INTOLERANT workloads and explains it', async () => {
    const rest = (await t.http().get('/v1/offers/cheapest').query({ gpu: 'h100-sxm-80gb', tolerance: 'INTOLERANT', explain: true, limit: 5 }).expect(200)).body;
    expect(rest.items.every((i: { pricingModel: string }) => i.pricingModel !== 'SPOT')).toBe(true);
    expect(rest.excluded.some((e: { reasons: string[] }) => e.reasons.includes('spot not allowed for INTOLERANT'))).toBe(true);
  });

  it('answers an impossible policy with no items and the nearest misses, not an error', async () => {
    const rest = (await t.http().get('/v1/offers/cheapest').query({ gpu: 'h100-sxm-80gb', countries: 'IS', limit: 5 }).expect(200)).body;
    expect(rest.items).toEqual([]);
    expect(rest.nearestMisses.length).toBeGreaterThan(0);
    expect(rest.nearestMisses[0].reasons.length).toBeGreaterThan(0);
  });

  it('turns a model to serve into a memory need per GPU with the estimator sizing', async () => {
    // Llama-3-70B at INT4 is ~37 GB of weights: more than a 40 GB A100 can hold with 10% reserve
    // and a KV cache, so the smallest acceptable GPUs are the 48 GB ones.
    const int4 = (await t.http().get('/v1/offers/cheapest').query({ model: 'llama-3-70b', precision: 'INT4', gpuCount: 1, limit: 100 }).expect(200)).body;
    expect(int4.items.length).toBeGreaterThan(0);
    expect(Math.min(...int4.items.map((i: { gpuMemoryGb: number }) => i.gpuMemoryGb))).toBe(48);
    // A custom 70-billion-parameter model at INT4 needs about as much.
    const custom = (await t.http().get('/v1/offers/cheapest').query({ parametersB: 70, precision: 'INT4', gpuCount: 1, limit: 100 }).expect(200)).body;
    expect(Math.min(...custom.items.map((i: { gpuMemoryGb: number }) => i.gpuMemoryGb))).toBe(48);
    await t.http().get('/v1/offers/cheapest').query({ model: 'llama-3-8b', parametersB: 8 }).expect(400);
    // At FP16 (141 GB of weights) no single GPU of the catalog is enough: nothing, not an error.
    // GraphQL's offer listing takes the same model filter and agrees with REST's.
    const restList = (await t.http().get('/v1/offers').query({ parametersB: 70, precision: 'INT4', gpuCount: 1, limit: 100 }).expect(200)).body;
    const gqlList = await t.graphql<{ offers: { items: { id: string }[] } }>(
      '{ offers(first: 100, filter: { gpuCount: 1, model: { parametersB: 70, precision: INT4 } }) { items { id } } }',
    );
    expect(gqlList.data.offers.items.map((i) => i.id)).toEqual(restList.items.map((i: { id: string }) => i.id));
    expect(restList.items.length).toBeGreaterThan(0);
    const fp16 = (await t.http().get('/v1/offers/cheapest').query({ model: 'llama-3-70b', precision: 'FP16', gpuCount: 1 }).expect(200)).body;
    expect(fp16.items).toEqual([]);
  });

  it.each([
    [{ gpuCount: '0' }, 'gpuCount'],
    [{ residency: 'MOON' }, 'residency'],
    [{ preset: 'NOPE' }, 'preset'],
    [{ gpu: 'h900' }, 'gpus'],
    [{ minSla: '120' }, 'minSla'],
    [{ preset: 'GDPR_PERSONAL_DATA', residency: 'ANY' }, 'residency'],
    [{ discounts: 'aws:abc' }, 'discounts'],
  ])('rejects %j with 400 naming %s', async (query, field) => {
    const res = await t.http().get('/v1/offers/cheapest').query(query).expect(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('rejects bad GraphQL input with BAD_USER_INPUT naming the field', async () => {
    const res = await t.graphql('{ cheapestOffers(requirement: { gpuCount: 0 }, policy: { preset: "GDPR_PERSONAL_DATA" }) { items { id } } }');
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(res.errors?.[0]?.extensions)).toContain('requirement.gpuCount');
    const policy = await t.graphql('{ cheapestOffers(requirement: { gpus: ["h100-sxm-80gb"] }, policy: { preset: "NOPE" }) { items { id } } }');
    expect(policy.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(policy.errors?.[0]?.extensions)).toContain('preset');
  });
});
