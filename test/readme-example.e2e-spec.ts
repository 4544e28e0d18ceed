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
    // EUR amounts follow the bundled FX rate (ECB 2026-10-09, 0.892379 EUR per USD; was 0.854774 on
    // 2026-08-21): each is the USD amount × 0.892379, e.g. 7337.96 × 0.892379 / 0.854774 = 7660.79.
    expect(e.monthlyCost).toEqual({ amount: '7660.79', currency: 'EUR' });
    expect(
      e.tiers.map((x: { pricingModel: string; gpuHours: number; cost: { amount: string } }) => [x.pricingModel, Math.round(x.gpuHours), x.cost.amount]),
    ).toEqual([
      ['RESERVED_3Y', 11680, '4181.49'],
      ['ON_DEMAND', 2616, '2490.71'],
      ['SPOT', 2494, '988.58'],
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
    // Naive by hand: 42 replicas × 730 h × 1.067 USD (g5.xlarge eu-north-1 list) × 0.892379 EUR/USD (ECB, 2026-10-09), in cents.
    expect(e.baselines.naive.monthlyCost.amount).toBe((42 * 730 * 1.067 * 0.892379).toFixed(2));
    expect(e.baselines.onDemandAutoscaled.monthlyCost.amount).toBe('14249.20');
    expect(e.exchangeRate).toMatchObject({ base: 'USD', currency: 'EUR', rate: '0.892379', date: '2026-10-09' });
    expect([e.savingsVsNaivePct, e.savingsVsOnDemandAutoscaledPct]).toEqual([73.76, 46.24]);
    // Reserved units: the threshold is the reserved price over RECOVERABLE's alternative (half spot, half on-demand); 16 units pass it.
    expect(Math.max(...e.hourlyPlan.map((h: { reservedInstances: number }) => h.reservedInstances))).toBe(16);
    expect([e.unitEconomics.costPer1MOutputTokens.amount, e.unitEconomics.costPer1kRequests.amount]).toEqual(['0.1690', '0.0338']);
    expect(e.warnings.filter((w: string) => w.includes('older than 90 days'))).toHaveLength(3);

    // The README prints the same numbers.
    for (const text of [
      '`2026-12-02`',
      '7,660.79 EUR',
      'RESERVED_3Y 11,680 GPU-h  4,181.49 EUR',
      'ON_DEMAND    2,616 GPU-h  2,490.71 EUR',
      'SPOT         2,494 GPU-h    988.58 EUR',
      'naive (42 replicas on-demand 24/7) 29,193.48 EUR; on-demand autoscaled 14,249.20 EUR',
      '1 USD = 0.892379 EUR',
      'savingsVsNaivePct      73.76    savingsVsOnDemandAutoscaledPct 46.24',
      'needs ⌈144.5 / (5.45 × 0.75)⌉ = 36 replicas',
      'Sixteen A10Gs',
      '0.1690 EUR per 1M output tokens, 0.0338 EUR per 1,000 requests',
    ]) {
      expect(readme).toContain(text);
    }
  });
});
