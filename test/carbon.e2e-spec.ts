// Energy and carbon beside every price (#33, #40, docs/carbon.md), over REST and GraphQL against the
// bundled catalog: offers' figures computed by hand from data/catalog/energy.yaml, each figure with its
// basis, method, source and year, a reason where there is none, the policy's maxGridIntensity, the
// carbon order, and the cleanest compliant offer for the GDPR preset.
import { createTestServer, SMALL_CATALOG, type TestServer } from './setup/test-app.js';

type Figure = { value: number; basis: string; subject: string; year: number; source: string; note: string | null; gridSource: string | null };
type Offer = {
  id: string;
  region: string;
  country: string;
  provider: string;
  gpu?: string;
  energy: number | null;
  carbon: number | null;
  gridIntensity: number | null;
  gridSource?: string | null;
  energyFigures?: { tdpWatts: Figure; pue: Figure; gridIntensity: Figure } | null;
  carbonUnknownReason?: string | null;
  pricePerGpuHour: { amount: string };
};
type Cleanest = {
  offer: Offer;
  isCheapest: boolean;
  premiumPerGpuHour: { amount: string };
  premiumPercent: string | null;
  carbonSavedPerGpuHour: number | null;
};
const FIELDS = 'id region country provider energy carbon gridIntensity pricePerGpuHour { amount }';
const FIGURE = 'value basis subject year source note gridSource';
const CARBON_FIELDS = `${FIELDS} gpu gridSource carbonUnknownReason energyFigures { tdpWatts { ${FIGURE} } pue { ${FIGURE} } gridIntensity { ${FIGURE} } }`;

describe('energy and carbon of offers (e2e, bundled catalog)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('an H100 SXM GPU-hour on AWS: Stockholm 0.798 kWh (0.7 kW × PUE 1.14) and 15.96 g (× 20 g/kWh, zone SE-SE3), Frankfurt 272.916 g (× 342), over REST and GraphQL', async () => {
    const rest = (await t.http().get('/v1/offers').query({ gpu: 'h100-sxm-80gb', provider: 'aws', pricingModel: 'ON_DEMAND', limit: 100 }).expect(200)).body
      .items as Offer[];
    const se = rest.find((o) => o.region === 'aws:eu-north-1');
    const de = rest.find((o) => o.region === 'aws:eu-central-1');
    expect(se?.energy).toBeCloseTo(0.798, 6);
    expect(se?.carbon).toBeCloseTo(15.96, 2);
    expect(se?.gridIntensity).toBe(20);
    if (de) expect(de.carbon).toBeCloseTo(272.916, 2);
    const gql = await t.graphql<{ offers: { items: Offer[] } }>(
      `{ offers(filter: { gpus: ["h100-sxm-80gb"], providers: ["aws"], pricingModels: [ON_DEMAND] }, first: 100) { items { ${FIELDS} } } }`,
    );
    expect(gql.data.offers.items.find((o) => o.id === se?.id)).toEqual(se && pick(se));
  });

  it('AWS Oregon has its own grid, not the US average: zone US-NW-BPAT 129 g/kWh (2025), an H100 SXM GPU-hour 0.7 × 1.14 × 129 = 102.942 g', async () => {
    const rest = (await t.http().get('/v1/offers').query({ gpu: 'h100-sxm-80gb', provider: 'aws', region: 'aws:us-west-2', limit: 5 }).expect(200)).body
      .items as Offer[];
    const oregon = rest.find((o) => o.region === 'aws:us-west-2');
    // The Green Software Foundation's zone for us-west-2, Bonneville (co2.js yearly_2025.js: 129 g/kWh);
    // 0.7 kW × 1.14 = 0.798 kWh, × 129 = 79.8 + 23.142 = 102.942 g.
    expect(oregon?.gridIntensity).toBe(129);
    expect(oregon?.carbon).toBeCloseTo(102.942, 2);
    expect(oregon?.gridSource).toBe('ELECTRICITY_MAPS');
    expect(oregon?.energyFigures?.gridIntensity).toMatchObject({
      basis: 'OWN',
      subject: 'aws:us-west-2',
      year: 2025,
      note: expect.stringContaining('US-NW-BPAT'),
    });
    // The US average it fell back to before, 414 g/kWh in 2025, is what a region without a known grid still gets (Together: no location).
    const together = (await t.http().get('/v1/offers').query({ provider: 'together', limit: 1 }).expect(200)).body.items as Offer[];
    expect(together[0]?.energyFigures?.gridIntensity).toMatchObject({ basis: 'COUNTRY_FALLBACK', subject: 'US', value: 414 });
  });

  it('every offer of the bundled catalog has a carbon figure whose figures name their basis, source and year, or a reason; the same over GraphQL', async () => {
    const all: Offer[] = [];
    let cursor: string | undefined;
    do {
      const page = (
        await t
          .http()
          .get('/v1/offers')
          .query({ includeEstimates: true, limit: 500, ...(cursor ? { cursor } : {}) })
          .expect(200)
      ).body as {
        items: Offer[];
        nextCursor: string | null;
      };
      all.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(all.length).toBeGreaterThan(500);
    const reasons = new Set<string>();
    for (const o of all) {
      if (o.carbon === null) {
        expect([o.id, o.energy, o.gridSource, o.energyFigures]).toEqual([o.id, null, null, null]);
        reasons.add(`${o.region}: ${o.carbonUnknownReason}`);
        continue;
      }
      expect(o.carbonUnknownReason).toBeNull();
      const f = o.energyFigures;
      if (!f) throw new Error(`${o.id}: a carbon figure without its figures`);
      for (const figure of [f.tdpWatts, f.pue, f.gridIntensity]) {
        expect(figure.source).toMatch(/^https?:\/\//);
        expect(figure.year).toBeGreaterThanOrEqual(2022);
      }
      expect(o.gridSource).toBe(f.gridIntensity.gridSource);
      expect(o.gridSource).toBe(o.provider === 'gcp' ? 'PROVIDER' : 'ELECTRICITY_MAPS');
      // carbon = TDP / 1000 × PUE × grid, from the figures the answer names
      expect(o.carbon).toBeCloseTo((f.tdpWatts.value / 1000) * f.pue.value * f.gridIntensity.value, 2);
    }
    // Only Vast.ai's market: its hosts' countries are unknown (ZZ), so no grid applies, and the answer says so.
    expect([...reasons]).toEqual(['vastai:global: no grid intensity for vastai:global or its country ZZ']);
    const gql = await t.graphql<{ offers: { items: Offer[] } }>(
      `{ offers(filter: { gpus: ["a10-24gb", "gh200-96gb"] }, first: 50) { items { ${CARBON_FIELDS} } } }`,
    );
    const byGpu = (gpu: string) => gql.data.offers.items.filter((o) => o.gpu === gpu);
    expect(byGpu('a10-24gb').length).toBeGreaterThan(0);
    expect(byGpu('a10-24gb').every((o) => o.carbon !== null && o.carbonUnknownReason === null && o.energyFigures?.tdpWatts.value === 150)).toBe(true);
    expect(byGpu('gh200-96gb').every((o) => o.carbon !== null && o.carbonUnknownReason === null)).toBe(true);
  });

  it('a provider that publishes no PUE gets the default 1.58, flagged DEFAULT; GH200 at Lambda: 1 kW × 1.58 × 414 g (US average) = 654.12 g, over REST and GraphQL', async () => {
    const rest = (await t.http().get('/v1/offers').query({ gpu: 'gh200-96gb', provider: 'lambda', limit: 5 }).expect(200)).body.items as Offer[];
    const gh200 = rest[0];
    expect(gh200?.carbon).toBeCloseTo(654.12, 2);
    expect(gh200?.energyFigures?.pue).toMatchObject({ value: 1.58, basis: 'DEFAULT', subject: 'default', year: 2023, gridSource: null });
    expect(gh200?.energyFigures?.tdpWatts).toMatchObject({ value: 1000, basis: 'OWN', subject: 'gh200-96gb' });
    const gql = await t.graphql<{ offers: { items: Offer[] } }>(
      `{ offers(filter: { gpus: ["gh200-96gb"], providers: ["lambda"] }, first: 5) { items { ${CARBON_FIELDS} } } }`,
    );
    expect(gql.data.offers.items[0]?.energyFigures).toEqual(gh200?.energyFigures);
    // A provider that publishes one: AWS's fleet figure, and Scaleway's per availability zone.
    const aws = (await t.http().get('/v1/offers').query({ provider: 'aws', limit: 1 }).expect(200)).body.items as Offer[];
    expect(aws[0]?.energyFigures?.pue).toMatchObject({ value: 1.14, basis: 'PROVIDER_FALLBACK', subject: 'aws', year: 2025 });
    const scw = (await t.http().get('/v1/offers').query({ provider: 'scaleway', limit: 5 }).expect(200)).body.items as Offer[];
    expect(Object.fromEntries(scw.map((o) => [o.region, o.energyFigures?.pue.value]))).toEqual({ 'scaleway:fr-par-1': 1.45, 'scaleway:fr-par-2': 1.16 });
  });

  it('the A10 (150 W): at Lambda, placed in the US without a location, 0.15 kW × 1.58 (default) × 414 g (US average) = 98.118 g', async () => {
    const items = (await t.http().get('/v1/offers').query({ gpu: 'a10-24gb', provider: 'lambda', limit: 5 }).expect(200)).body.items as Offer[];
    // 0.15 × 1.58 = 0.237 kWh; 0.237 × 414 = 94.8 + 3.318 = 98.118 g
    expect(items[0]?.energy).toBeCloseTo(0.237, 6);
    expect(items[0]?.carbon).toBeCloseTo(98.118, 2);
    expect(items[0]?.energyFigures?.tdpWatts).toMatchObject({ value: 150, basis: 'OWN', subject: 'a10-24gb', year: 2025 });
  });

  it('maxGridIntensity keeps only regions at or under it; a bad value is a 400 naming the field', async () => {
    const items = (await t.http().get('/v1/offers').query({ gpu: 'h100-sxm-80gb', maxGridIntensity: 50, limit: 500 }).expect(200)).body.items as Offer[];
    expect(items.length).toBeGreaterThan(0);
    // SE-SE3 20, SE 21, IS 28, FR 31 g/kWh (energy.yaml); Germany (342) or the US (414) never pass.
    expect(items.every((o) => o.gridIntensity !== null && o.gridIntensity <= 50)).toBe(true);
    expect(new Set(items.map((o) => o.country))).not.toContain('DE');
    const bad = await t.http().get('/v1/offers').query({ maxGridIntensity: -5 }).expect(400);
    expect(JSON.stringify(bad.body)).toContain('maxGridIntensity');
    const gqlBad = await t.graphql<unknown>('{ offers(filter: { maxGridIntensity: -5 }) { items { id } } }');
    expect(JSON.stringify(gqlBad.errors)).toContain('maxGridIntensity');
  });

  it('sort=CARBON lists the least g CO2e per GPU-hour first, then by price, the same over REST, GraphQL and in CSV', async () => {
    const rest = (await t.http().get('/v1/offers').query({ gpu: 'h100-sxm-80gb', preset: 'GDPR_PERSONAL_DATA', sort: 'CARBON', limit: 20 }).expect(200)).body
      .items as Offer[];
    const carbons = rest.map((o) => o.carbon ?? Infinity);
    expect(carbons).toEqual([...carbons].sort((a, b) => a - b));
    const gql = await t.graphql<{ offers: { items: Offer[] } }>(
      `{ offers(filter: { gpus: ["h100-sxm-80gb"], preset: "GDPR_PERSONAL_DATA" }, sort: CARBON, first: 20) { items { ${FIELDS} } } }`,
    );
    expect(gql.data.offers.items.map((o) => o.id)).toEqual(rest.map((o) => o.id));
    const csv = await t
      .http()
      .get('/v1/offers')
      .set('Accept', 'text/csv')
      .query({ gpu: 'h100-sxm-80gb', preset: 'GDPR_PERSONAL_DATA', sort: 'CARBON', limit: 20 })
      .expect(200);
    const [header = '', first = ''] = csv.text.split('\r\n');
    expect(header.endsWith('EnergyKwhPerGpuHour,CarbonGCo2ePerGpuHour,GridIntensityGCo2ePerKwh,GridSource,CarbonUnknownReason')).toBe(true);
    expect(first.split(',').slice(-4)).toEqual([String(rest[0]?.carbon), String(rest[0]?.gridIntensity), 'ELECTRICITY_MAPS', '']);
  });

  it('for the GDPR preset the cheapest H100 is already in Stockholm (20 g/kWh): the cleanest is the cheapest, premium 0', async () => {
    const rest = (await t.http().get('/v1/offers/cheapest').query({ gpu: 'h100-sxm-80gb', preset: 'GDPR_PERSONAL_DATA', limit: 1 }).expect(200)).body as {
      items: Offer[];
      cleanest: Cleanest;
    };
    expect(rest.cleanest.isCheapest).toBe(true);
    expect(rest.cleanest.offer.id).toBe(rest.items[0]?.id);
    expect(rest.cleanest.offer.gridIntensity).toBe(20);
    expect(rest.cleanest.premiumPerGpuHour.amount).toBe('0.0000');
  });

  it('GDPR on demand: where the cheapest offer of a GPU is in a dirtier grid, the cleanest, in a low-intensity grid, is named with its premium, over REST and GraphQL', async () => {
    // The first GPU (in the catalog's order) whose cheapest GDPR on-demand offer is not its cleanest.
    const gpus = ((await t.http().get('/v1/gpus').expect(200)).body as { items: { slug: string }[] }).items.map((g) => g.slug);
    let found: { gpu: string; rest: { items: Offer[]; cleanest: Cleanest } } | undefined;
    for (const gpu of gpus) {
      const query = { gpu, preset: 'GDPR_PERSONAL_DATA', pricingModel: 'ON_DEMAND', limit: 1 };
      const res = await t.http().get('/v1/offers/cheapest').query(query);
      const body = res.body as { items?: Offer[]; cleanest?: Cleanest | null };
      if (res.status === 200 && body.items?.length && body.cleanest && !body.cleanest.isCheapest) {
        found = { gpu, rest: body as { items: Offer[]; cleanest: Cleanest } };
        break;
      }
    }
    if (!found) throw new Error('no GPU whose cheapest GDPR on-demand offer is dirtier than its cleanest');
    const { gpu, rest } = found;
    const cheapest = rest.items[0] as Offer;
    const c = rest.cleanest;
    expect(c.isCheapest).toBe(false);
    // A low-intensity grid: at most 50 g CO2e/kWh (Stockholm 20, Sweden 21, Iceland 28, France 31 in energy.yaml).
    expect(c.offer.gridIntensity).toBeLessThanOrEqual(50);
    expect(c.offer.carbon).toBeLessThan(cheapest.carbon ?? Infinity);
    // The premium is the difference of the two prices per GPU-hour, as the answer writes them.
    const premium = Number(c.offer.pricePerGpuHour.amount) - Number(cheapest.pricePerGpuHour.amount);
    expect(premium).toBeGreaterThan(0);
    expect(Number(c.premiumPerGpuHour.amount)).toBeCloseTo(premium, 3);
    expect(Number(c.premiumPercent)).toBeCloseTo((premium / Number(cheapest.pricePerGpuHour.amount)) * 100, 1);
    expect(c.carbonSavedPerGpuHour).toBeCloseTo((cheapest.carbon ?? 0) - (c.offer.carbon ?? 0), 2);
    const gql = await t.graphql<{ cheapestOffers: { cleanest: Cleanest } }>(
      `{ cheapestOffers(requirement: { gpus: ["${gpu}"] }, policy: { preset: "GDPR_PERSONAL_DATA", pricingModels: [ON_DEMAND] }, limit: 1) {
          cleanest { isCheapest premiumPerGpuHour { amount } premiumPercent carbonSavedPerGpuHour offer { ${FIELDS} } } } }`,
    );
    expect(gql.data.cheapestOffers.cleanest).toEqual({ ...c, premiumPerGpuHour: { amount: c.premiumPerGpuHour.amount }, offer: pick(c.offer) });
  });
});

describe('a GPU without a sourced board power (e2e, the small catalog, which has no energy figures)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer({ catalog: SMALL_CATALOG });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('has null energy and carbon, never a guess, and says why', async () => {
    const items = (await t.http().get('/v1/offers').query({ gpu: 'a10g-24gb', limit: 5 }).expect(200)).body.items as Offer[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((o) => o.energy === null && o.carbon === null && o.gridIntensity === null)).toBe(true);
    expect(items.map((o) => o.carbonUnknownReason)).toEqual(
      items.map(
        (o) =>
          `no sourced board power (TDP) for a10g-24gb; no PUE for ${o.region}, ${o.provider} or default; no grid intensity for ${o.region} or its country ${o.country}`,
      ),
    );
  });
});

function pick(o: Offer): Offer {
  return {
    id: o.id,
    region: o.region,
    country: o.country,
    provider: o.provider,
    energy: o.energy,
    carbon: o.carbon,
    gridIntensity: o.gridIntensity,
    pricePerGpuHour: { amount: o.pricePerGpuHour.amount },
  };
}
