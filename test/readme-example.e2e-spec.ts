// The README's worked example, answered by the service on the bundled catalog. The numbers below
// are the ones the README prints; when the catalog or the model changes them, this test fails and
// the README must be updated with it. Where a number can be derived by hand from list prices, the
// test derives it instead of copying it.
import { readFile } from 'node:fs/promises';
import { createTestServer, type TestServer } from './setup/test-app.js';

const REQUEST = {
  model: { preset: 'llama-3-8b', precision: 'FP16' },
  workload: {
    hourlyProfile: [20, 15, 10, 10, 10, 15, 30, 60, 100, 140, 160, 170, 170, 160, 150, 150, 140, 130, 120, 100, 80, 60, 40, 30],
    avgInputTokens: 500,
    avgOutputTokens: 200,
    batchShare: 0.15,
  },
  policy: { preset: 'GDPR_PERSONAL_DATA', tolerance: 'RECOVERABLE' },
  gpus: ['a10g-24gb', 'l4-24gb', 't4-16gb'],
  precisions: ['FP16', 'FP8', 'INT8', 'INT4'],
  currency: 'EUR',
};

describe('README worked example (e2e, bundled catalog)', () => {
  let t: TestServer;
  let readme: string;
  beforeAll(async () => {
    t = await createTestServer();
    readme = await readFile('docs/worked-example.md', 'utf8');
  });
  afterAll(async () => {
    await t.stop();
  });

  it('answers what the README says', async () => {
    const e = (await t.http().post('/v1/estimates').send(REQUEST).expect(200)).body;
    expect(e.catalogVersion.label).toBe('2026-12-02');
    expect([e.gpu, e.precision, e.gpusPerReplica]).toEqual(['a10g-24gb', 'INT8', 1]);
    expect(e.monthlyCost).toEqual({ amount: '7337.96', currency: 'EUR' });
    expect(
      e.tiers.map((x: { pricingModel: string; gpuHours: number; cost: { amount: string } }) => [x.pricingModel, Math.round(x.gpuHours), x.cost.amount]),
    ).toEqual([
      ['RESERVED_3Y', 11680, '4005.28'],
      ['ON_DEMAND', 2616, '2385.75'],
      ['SPOT', 2494, '946.92'],
    ]);
    expect(e.chosenOffers.map((o: { region: string; instanceType: string; priceKind: string }) => [o.region, o.instanceType, o.priceKind])).toEqual([
      ['aws:eu-north-1', 'g5.xlarge (All Upfront)', 'LIST'],
      ['aws:eu-north-1', 'g5.xlarge', 'LIST'],
      ['aws:eu-north-1', 'g5.xlarge', 'LIST'],
    ]);
    // Peak: online 170 × 0.85 = 144.5 requests/s; ⌈144.5 / (5.4531 × 0.75)⌉ = 36. Naive buys for all 170: ⌈41.57⌉ = 42.
    expect(e.replicaThroughput.requestsPerSecond).toBeCloseTo(5.4531, 4);
    expect(Math.max(...e.hourlyPlan.map((h: { replicasNeeded: number }) => h.replicasNeeded))).toBe(36);
    expect(e.baselines.naive.description).toMatch(/^42 replicas \(peak\)/);
    // Naive by hand: 42 replicas × 730 h × 1.067 USD (g5.xlarge eu-north-1 list) × 0.854774 EUR/USD (ECB, 2026-08-21), in cents.
    expect(e.baselines.naive.monthlyCost.amount).toBe((42 * 730 * 1.067 * 0.854774).toFixed(2));
    expect(e.baselines.onDemandAutoscaled.monthlyCost.amount).toBe('13648.74');
    expect(e.exchangeRate).toMatchObject({ base: 'USD', currency: 'EUR', rate: '0.854774', date: '2026-08-21' });
    expect([e.savingsVsNaivePct, e.savingsVsOnDemandAutoscaledPct]).toEqual([73.76, 46.24]);
    // Reserved units: the threshold is the price ratio of reserved to on-demand; 16 units pass it.
    expect(Math.max(...e.hourlyPlan.map((h: { reservedInstances: number }) => h.reservedInstances))).toBe(16);
    expect([e.unitEconomics.costPer1MOutputTokens.amount, e.unitEconomics.costPer1kRequests.amount]).toEqual(['0.1619', '0.0324']);
    expect(e.warnings.filter((w: string) => w.includes('older than 90 days'))).toHaveLength(3);

    // The README prints the same numbers.
    for (const text of [
      '`2026-12-02`',
      '7,337.96 EUR',
      'RESERVED_3Y 11,680 GPU-h  4,005.28 EUR',
      'ON_DEMAND    2,616 GPU-h  2,385.75 EUR',
      'SPOT         2,494 GPU-h    946.92 EUR',
      'naive (42 replicas on-demand 24/7) 27,963.26 EUR; on-demand autoscaled 13,648.74 EUR',
      '1 USD = 0.854774 EUR',
      'savingsVsNaivePct      73.76    savingsVsOnDemandAutoscaledPct 46.24',
      'needs ⌈144.5 / (5.45 × 0.75)⌉ = 36 replicas',
      'Sixteen A10Gs',
      '0.1619 EUR per 1M output tokens, 0.0324 EUR per 1,000 requests',
    ]) {
      expect(readme).toContain(text);
    }
  });
});
