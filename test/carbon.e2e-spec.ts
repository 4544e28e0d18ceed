// Energy and carbon beside every price (#33, docs/carbon.md), over REST and GraphQL against the
// bundled catalog: offers' figures computed by hand from data/catalog/energy.yaml, the policy's
// maxGridIntensity, the carbon order, and the cleanest compliant offer for the GDPR preset.
import { createTestServer, type TestServer } from './setup/test-app.js';

type Offer = {
  id: string;
  region: string;
  country: string;
  provider: string;
  energy: number | null;
  carbon: number | null;
  gridIntensity: number | null;
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

describe('energy and carbon of offers (e2e, bundled catalog)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('an H100 SXM GPU-hour on AWS: Stockholm 0.7945 kWh (0.7 kW × PUE 1.135) and 18.27 g (× 23 g/kWh), Frankfurt 270.92 g (× 341), over REST and GraphQL', async () => {
    const rest = (await t.http().get('/v1/offers').query({ gpu: 'h100-sxm-80gb', provider: 'aws', pricingModel: 'ON_DEMAND', limit: 100 }).expect(200)).body
      .items as Offer[];
    const se = rest.find((o) => o.region === 'aws:eu-north-1');
    const de = rest.find((o) => o.region === 'aws:eu-central-1');
    expect(se?.energy).toBeCloseTo(0.7945, 6);
    expect(se?.carbon).toBeCloseTo(18.2735, 2);
    expect(se?.gridIntensity).toBe(23);
    if (de) expect(de.carbon).toBeCloseTo(270.9245, 2);
    const gql = await t.graphql<{ offers: { items: Offer[] } }>(
      `{ offers(filter: { gpus: ["h100-sxm-80gb"], providers: ["aws"], pricingModels: [ON_DEMAND] }, first: 100) { items { ${FIELDS} } } }`,
    );
    expect(gql.data.offers.items.find((o) => o.id === se?.id)).toEqual(se && pick(se));
  });

  it('a GPU without a sourced board power has null energy and carbon, never a guess, and says why', async () => {
    const items = (await t.http().get('/v1/offers').query({ gpu: 'a10-24gb', limit: 5 }).expect(200)).body.items as Offer[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((o) => o.energy === null && o.carbon === null)).toBe(true);
    expect(items.every((o) => o.carbonUnknownReason === 'no sourced board power (TDP) for a10-24gb')).toBe(true);
  });

  it('maxGridIntensity keeps only regions at or under it; a bad value is a 400 naming the field', async () => {
    const items = (await t.http().get('/v1/offers').query({ gpu: 'h100-sxm-80gb', maxGridIntensity: 50, limit: 500 }).expect(200)).body.items as Offer[];
    expect(items.length).toBeGreaterThan(0);
    // SE 23, FR 33, IS 28 g/kWh (energy.yaml); Germany (341) or the US (409) never pass.
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

  it('for the GDPR preset the cheapest H100 is already in Sweden (23 g/kWh): the cleanest is the cheapest, premium 0', async () => {
    const rest = (await t.http().get('/v1/offers/cheapest').query({ gpu: 'h100-sxm-80gb', preset: 'GDPR_PERSONAL_DATA', limit: 1 }).expect(200)).body as {
      items: Offer[];
      cleanest: Cleanest;
    };
    expect(rest.cleanest.isCheapest).toBe(true);
    expect(rest.cleanest.offer.id).toBe(rest.items[0]?.id);
    expect(rest.cleanest.offer.gridIntensity).toBe(23);
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
    // A low-intensity grid: at most 50 g CO2e/kWh (Sweden 23, Iceland 28, France 33 in energy.yaml).
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
