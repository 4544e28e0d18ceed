// Energy and carbon of estimates (#33, docs/carbon.md) over REST and GraphQL, bundled catalog: the
// estimate's carbon is recomputed here from its hourly plan and the figures of
// data/catalog/energy.yaml, and optimizeFor CARBON is held against the COST plan's own answer.
import { readFileSync } from 'node:fs';
import { parseCatalogFiles } from '../src/domain/catalog/catalog-files.js';
import { createTestServer, type TestServer } from './setup/test-app.js';

const workload = (optimizeFor?: 'COST' | 'CARBON') => ({
  model: { preset: 'llama-3-8b', precision: 'FP16' },
  workload: {
    hourlyProfile: [20, 15, 10, 10, 10, 15, 30, 60, 100, 140, 160, 170, 170, 160, 150, 150, 140, 130, 120, 100, 80, 60, 40, 30],
    avgInputTokens: 500,
    avgOutputTokens: 200,
  },
  policy: { preset: 'GDPR_PERSONAL_DATA' },
  gpus: ['h100-sxm-80gb', 'l4-24gb'],
  currency: 'EUR',
  ...(optimizeFor ? { optimizeFor } : {}),
});

type Hour = { reservedInstances: number; onDemandInstances: number; spotInstances: number; serverlessReplicaHours: number; demandRequestsPerSecond: number };
type Estimate = {
  gpu: string;
  gpusPerReplica: number;
  hoursPerMonth: number;
  periodHours: number;
  monthlyCost: { amount: string };
  tiers: { pricingModel: string; provider: string; region: string; gpuHours: number; kgCo2ePerMonth: number | null }[];
  hourlyPlan: Hour[];
  chosenOffers: { pricingModel: string; region: string; country: string; provider: string; gpusPerInstance: number }[];
  unitEconomics: { averageUtilization: number };
  carbon: {
    optimizedFor: string;
    utilization: number;
    kwhPerMonth: number;
    kgCo2ePerMonth: number;
    kgCo2ePer1MOutputTokens: number;
    otherPlan: {
      optimizedFor: string;
      monthlyCost: { amount: string };
      kgCo2ePerMonth: number;
      costDifference: { amount: string };
      kgCo2eDifference: number;
    } | null;
  };
};

// The figures by subject, as data/catalog/energy.yaml writes them.
const figures = new Map(
  (parseCatalogFiles([{ path: 'energy.yaml', text: readFileSync('data/catalog/energy.yaml', 'utf8') }]).energy ?? []).map(({ item }) => [
    `${item.kind}|${item.subject}`,
    item.value.toNumber(),
  ]),
);
const figure = (key: string): number => {
  const v = figures.get(key);
  if (v === undefined) throw new Error(`no ${key} in energy.yaml`);
  return v;
};
const TDP: Record<string, number> = { 'h100-sxm-80gb': 700, 'l4-24gb': 72, 'a100-sxm-80gb': 400, 'l40s-48gb': 350 }; // energy.yaml GPU_POWER rows, read by hand

/** kg CO2e per month, hour by hour: GPUs running × kWh per GPU-hour × grid intensity, the period scaled to the month. */
function fromHourlyPlan(e: Estimate): number {
  const idle = figure('IDLE_POWER_SHARE|default');
  const share = idle + (1 - idle) * e.unitEconomics.averageUtilization;
  const slot = (pricingModel: string, h: Hour): number =>
    // A monthly server fills the reserved slot (docs/cost-model.md#monthly-servers).
    pricingModel.startsWith('RESERVED') || pricingModel === 'MONTHLY'
      ? h.reservedInstances
      : pricingModel === 'ON_DEMAND'
        ? h.onDemandInstances
        : pricingModel === 'SPOT'
          ? h.spotInstances
          : 0;
  let gramsPerPeriod = 0;
  for (const h of e.hourlyPlan) {
    for (const o of e.chosenOffers) {
      const gpus = o.pricingModel === 'SERVERLESS' ? h.serverlessReplicaHours * e.gpusPerReplica : slot(o.pricingModel, h) * o.gpusPerInstance;
      const pue = figures.get(`PUE|${o.region}`) ?? figures.get(`PUE|${o.provider}`) ?? figure('PUE|default');
      const grid = figures.get(`GRID_INTENSITY|${o.region}`) ?? figure(`GRID_INTENSITY|${o.country}`);
      gramsPerPeriod += gpus * (((TDP[e.gpu] ?? NaN) / 1000) * share * pue) * grid;
    }
  }
  return ((gramsPerPeriod / 1000) * e.hoursPerMonth) / e.periodHours;
}

/** Equal to 3 parts in 10^4: the answer's utilization, which the hourly sum applies, is rounded to 4 decimals (±0.00005 of about 0.5). */
const expectNear = (actual: number, expected: number): void => expect(Math.abs(actual - expected) / expected).toBeLessThan(3e-4);

describe('energy and carbon of estimates (e2e, bundled catalog)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  it("the estimate's carbon equals the sum over its hourly plan, per tier and in total, and per 1M output tokens", async () => {
    const e = (await t.http().post('/v1/estimates').send(workload()).expect(200)).body as Estimate;
    expect(e.carbon.optimizedFor).toBe('COST');
    expect(e.carbon.kgCo2ePerMonth).toBeGreaterThan(0);
    expectNear(e.carbon.kgCo2ePerMonth, fromHourlyPlan(e));
    const tierSum = e.tiers.reduce((s, tier) => s + (tier.kgCo2ePerMonth ?? NaN), 0);
    expect(tierSum).toBeCloseTo(e.carbon.kgCo2ePerMonth, 2);
    // Output tokens per month: Σ requests/s × 3,600 × 200 tokens × 730 / 24.
    const tokens = (e.hourlyPlan.reduce((s, h) => s + h.demandRequestsPerSecond * 3600, 0) * 200 * e.hoursPerMonth) / e.periodHours;
    expect(e.carbon.kgCo2ePer1MOutputTokens).toBeCloseTo((e.carbon.kgCo2ePerMonth / tokens) * 1e6, 4);
    expect(e.carbon.utilization).toBeCloseTo(e.unitEconomics.averageUtilization, 4);
  });

  it('optimizeFor CARBON (GraphQL) plans no more carbon than COST, and each answer names the other plan with its cost and carbon difference', async () => {
    const cost = (await t.http().post('/v1/estimates').send(workload('COST')).expect(200)).body as Estimate;
    const fields = `monthlyCost { amount } gpu gpusPerReplica hoursPerMonth periodHours unitEconomics { averageUtilization }
      tiers { pricingModel provider region gpuHours kgCo2ePerMonth }
      hourlyPlan { reservedInstances onDemandInstances spotInstances serverlessReplicaHours demandRequestsPerSecond }
      chosenOffers { pricingModel region country provider gpusPerInstance }
      carbon { optimizedFor utilization kwhPerMonth kgCo2ePerMonth kgCo2ePer1MOutputTokens
        otherPlan { optimizedFor monthlyCost { amount } kgCo2ePerMonth costDifference { amount } kgCo2eDifference } }`;
    const gql = await t.graphql<{ estimate: Estimate }>(`query($input: EstimateInput!) { estimate(input: $input) { ${fields} } }`, {
      input: workload('CARBON'),
    });
    const carbon = gql.data.estimate;
    expect(carbon.carbon.optimizedFor).toBe('CARBON');
    expect(carbon.carbon.kgCo2ePerMonth).toBeLessThanOrEqual(cost.carbon.kgCo2ePerMonth + 1e-6);
    expectNear(carbon.carbon.kgCo2ePerMonth, fromHourlyPlan(carbon));
    // For this workload the cheapest plan (spot and reserved capacity where it is cheapest) is not the cleanest.
    const other = cost.carbon.otherPlan;
    if (other === null) throw new Error('expected the COST answer to name the CARBON plan');
    expect(other.optimizedFor).toBe('CARBON');
    expect(other.monthlyCost.amount).toBe(carbon.monthlyCost.amount);
    expect(other.kgCo2ePerMonth).toBeCloseTo(carbon.carbon.kgCo2ePerMonth, 3);
    expect(Number(other.costDifference.amount)).toBeCloseTo(Number(carbon.monthlyCost.amount) - Number(cost.monthlyCost.amount), 2);
    expect(other.kgCo2eDifference).toBeCloseTo(carbon.carbon.kgCo2ePerMonth - cost.carbon.kgCo2ePerMonth, 3);
    expect(other.kgCo2eDifference).toBeLessThanOrEqual(0);
  });

  it('a narrower policy never gives a cleaner CARBON plan, nor a cheaper COST plan (the GDPR reproduction of #39)', async () => {
    // llama-3-8b, GDPR preset, RECOVERABLE, four GPU models, 5,000 GB egress, EUR: the same request
    // with OVHcloud and Scaleway excluded offers a subset of the offers, so it cannot do better.
    const request = (optimizeFor: 'COST' | 'CARBON', excludeProviders?: string[]) => ({
      ...workload(optimizeFor),
      gpus: ['h100-sxm-80gb', 'a100-sxm-80gb', 'l40s-48gb', 'l4-24gb'],
      policy: { preset: 'GDPR_PERSONAL_DATA', tolerance: 'RECOVERABLE', ...(excludeProviders ? { excludeProviders } : {}) },
      egressGbPerMonth: 5000,
    });
    const post = async (body: object) => (await t.http().post('/v1/estimates').send(body).expect(200)).body as Estimate;
    const [carbon, narrowCarbon, cost, narrowCost] = await Promise.all([
      post(request('CARBON')),
      post(request('CARBON', ['ovhcloud', 'scaleway'])),
      post(request('COST')),
      post(request('COST', ['ovhcloud', 'scaleway'])),
    ]);
    expect(carbon.carbon.kgCo2ePerMonth).toBeLessThanOrEqual(narrowCarbon.carbon.kgCo2ePerMonth * (1 + 1e-9));
    expect(Number(cost.monthlyCost.amount)).toBeLessThanOrEqual(Number(narrowCost.monthlyCost.amount));
    expect(carbon.carbon.kgCo2ePerMonth).toBeLessThanOrEqual(cost.carbon.kgCo2ePerMonth * (1 + 1e-9));
    expectNear(carbon.carbon.kgCo2ePerMonth, fromHourlyPlan(carbon));
  });

  it('a bad optimizeFor is a 400 naming the field', async () => {
    const res = await t
      .http()
      .post('/v1/estimates')
      .send({ ...workload(), optimizeFor: 'GREEN' })
      .expect(400);
    expect(JSON.stringify(res.body)).toContain('optimizeFor');
  });
});
