import { Decimal, formatAmount } from '../money/money.js';
import { MODEL_PRESETS } from '../sizing/model-presets.js';
import { MAX_PLANNED_GPUS } from './right-sizing.js';
import { estimateInferenceCost } from './estimate.js';
import { candidate, diurnalProfile, estimateInput, GPUS, offer, standardCandidate } from './estimate.factories.js';
import type { EstimateInput, EstimateOutcome, InferenceEstimate } from './estimate.types.js';
import { estimateReplicaThroughput } from './throughput.js';
import { at, defined } from '../checked.js';

function ok(outcome: EstimateOutcome): InferenceEstimate {
  if (outcome.kind !== 'OK') throw new Error(`expected an estimate, got ${JSON.stringify(outcome)}`);
  return outcome.estimate;
}
const amount = (m: { amount: Decimal }): string => formatAmount(m.amount);

describe(estimateInferenceCost.name, () => {
  it('prices one H100 24/7 on-demand at 3.90 USD/GPU-h as 2,847 USD per 730-h month (article A1)', () => {
    const e = ok(
      estimateInferenceCost(
        estimateInput({
          candidates: [candidate(GPUS.h100, { ON_DEMAND: '3.90' })],
          workload: { requestsPerSecond: 1, avgInputTokens: 500, avgOutputTokens: 200 },
        }),
      ),
    );
    // 1 replica × 730 h × 3.90 = 2,847.00
    expect(amount(e.monthlyCost)).toBe('2847.0000');
    expect(e.tiers).toHaveLength(1);
    expect(e.tiers[0]).toMatchObject({ pricingModel: 'ON_DEMAND', gpuHours: 730, capacityShare: 1 });
    expect(amount(defined(e.baselines.naive, 'naive').monthlyCost)).toBe('2847.0000');
    expect(e.savingsVsNaivePct).toBe(0);
    expect(e.hourlyPlan).toHaveLength(24);
    expect(e.unitEconomics.effectivePricePerGpuHour && amount(e.unitEconomics.effectivePricePerGpuHour)).toBe('3.9000');
  });

  it('answers NO_FIT for a 13B FP16 model on a 24 GB A10G and fits it at INT8', () => {
    const base = estimateInput({ model: { preset: 'llama-2-13b' }, candidates: [standardCandidate(GPUS.a10g, '1.21')] });
    const fp16 = estimateInferenceCost({ ...base, precisions: ['FP16'] });
    expect(fp16).toMatchObject({ kind: 'NO_FIT', largestGpuTried: { slug: 'a10g-24gb', memoryGb: 24 } });
    expect(fp16.kind === 'NO_FIT' && fp16.reason).toMatch(/needs 25\.\d GB/);
    const int8 = ok(estimateInferenceCost({ ...base, precisions: ['INT8'] }));
    expect(int8).toMatchObject({ gpu: { slug: 'a10g-24gb' }, precision: 'INT8', gpusPerReplica: 1 });
  });

  it('answers TOO_LARGE instead of planning more than MAX_PLANNED_GPUS GPUs, and plans a large but plannable load', () => {
    const huge = estimateInferenceCost(estimateInput({ workload: { requestsPerSecond: 1_000_000_000, avgInputTokens: 500, avgOutputTokens: 200 } }));
    expect(huge.kind).toBe('TOO_LARGE');
    expect(huge.kind === 'TOO_LARGE' && huge.gpusAtPeak).toBeGreaterThan(MAX_PLANNED_GPUS);
    expect(huge.kind === 'TOO_LARGE' && huge.reason).toMatch(/^the workload needs at least [\d,]+ GPUs at its peak; one estimate plans at most 100,000$/);
    // 1,000,000 requests/s of 500 + 200 tokens fits in fewer than 100,000 GPUs: it is planned.
    expect(estimateInferenceCost(estimateInput({ workload: { requestsPerSecond: 1_000_000, avgInputTokens: 500, avgOutputTokens: 200 } })).kind).toBe('OK');
  });

  it('answers NO_USABLE_OFFER, not NO_FIT, when no allowed GPU has any offer', () => {
    const outcome = estimateInferenceCost(estimateInput({ model: { preset: 'llama-3-8b' }, candidates: [{ gpu: GPUS.a10g, offers: [] }] }));
    expect(outcome.kind).toBe('NO_USABLE_OFFER');
  });

  it('right-sizes a 7B model off the A100 and says by how much (article A2)', () => {
    const e = ok(
      estimateInferenceCost(
        estimateInput({
          model: { preset: 'mistral-7b' },
          precisions: ['FP16', 'INT8'],
          workload: { requestsPerSecond: 0.5, avgInputTokens: 500, avgOutputTokens: 200 },
          candidates: [standardCandidate(GPUS.a100_80, '4.10'), standardCandidate(GPUS.t4, '0.53'), standardCandidate(GPUS.l4, '0.80')],
        }),
      ),
    );
    expect(e.gpu.slug).not.toBe('a100-sxm-80gb');
    const a100 = e.alternatives.find((a) => a.gpu === 'a100-sxm-80gb');
    expect(a100?.deltaVsChosenPct).toBeGreaterThan(100);
    expect(a100?.summary).toMatch(new RegExp(`^${e.precision} on ${e.gpu.slug} instead of (FP16|INT8) on a100-sxm-80gb: −\\d+%$`));
  });

  describe('serverless', () => {
    const withServerless = (workload: EstimateInput['workload']) =>
      estimateInput({
        workload,
        candidates: [candidate(GPUS.h100, { ON_DEMAND: '4.00', SERVERLESS: '8.00' })],
      });

    it('wins below the break-even utilization and the plan uses it', () => {
      const e = ok(estimateInferenceCost(withServerless({ requestsPerSecond: 0.05, avgInputTokens: 500, avgOutputTokens: 200 })));
      // dedicated: one on-demand replica at 4.00/h; serverless 8.00 per busy hour → u* = 0.5
      expect(e.serverless?.breakEvenUtilization).toBe(0.5);
      expect(e.serverless?.cheaper).toBe(true);
      expect(e.tiers.map((t) => t.pricingModel)).toEqual(['SERVERLESS']);
      expect(e.monthlyCost.amount.lt(defined(e.baselines.onDemandAutoscaled, 'autoscaled').monthlyCost.amount)).toBe(true);
    });

    it('loses above it', () => {
      const throughput = estimateReplicaThroughput({
        model: defined(MODEL_PRESETS['llama-3-8b'], 'model preset llama-3-8b'),
        precision: 'FP16',
        gpu: GPUS.h100,
        tensorParallel: 1,
        avgInputTokens: 500,
        avgOutputTokens: 200,
      });
      const mu = defined(throughput, 'the replica throughput').requestsPerSecond;
      // Exactly two replicas at 75%: utilization 0.75 > u* = 0.5
      const e = ok(estimateInferenceCost(withServerless({ requestsPerSecond: 2 * mu * 0.75, avgInputTokens: 500, avgOutputTokens: 200 })));
      expect(e.unitEconomics.averageUtilization).toBeCloseTo(0.75, 6);
      expect(e.serverless?.cheaper).toBe(false);
      expect(e.tiers.map((t) => t.pricingModel)).toEqual(['ON_DEMAND']);
    });
  });

  it('blends reserved, on-demand and spot for a diurnal 7B workload with 15% batch (RECOVERABLE)', () => {
    const throughput = estimateReplicaThroughput({
      model: defined(MODEL_PRESETS['mistral-7b'], 'model preset mistral-7b'),
      precision: 'FP16',
      gpu: GPUS.a10g,
      tensorParallel: 1,
      avgInputTokens: 500,
      avgOutputTokens: 200,
    });
    const mu = defined(throughput, 'the replica throughput').requestsPerSecond;
    const e = ok(
      estimateInferenceCost(
        estimateInput({
          model: { preset: 'mistral-7b' },
          workload: { hourlyProfile: diurnalProfile(12 * mu), avgInputTokens: 500, avgOutputTokens: 200, batchShare: 0.15 },
          tolerance: 'RECOVERABLE',
          candidates: [standardCandidate(GPUS.a10g, '1.21')],
        }),
      ),
    );
    expect(e.warnings).toEqual([]);
    expect(e.tiers.map((t) => t.pricingModel).sort()).toEqual(['ON_DEMAND', 'RESERVED_1Y', 'SPOT']);
    expect(e.savingsVsNaivePct).toBeGreaterThan(30);
    // article A2: a reserved/on-demand/spot mix saves 35–45% against on-demand that follows demand
    expect(e.savingsVsOnDemandAutoscaledPct).toBeGreaterThan(20);
    expect(e.savingsVsOnDemandAutoscaledPct).toBeGreaterThan(0);
    expect(e.monthlyCost.amount.lte(defined(e.baselines.onDemandAutoscaled, 'autoscaled').monthlyCost.amount)).toBe(true);
    const shares = e.tiers.reduce((s, t) => s + t.capacityShare, 0);
    expect(shares).toBeCloseTo(1, 9);
    // The rule, and what the plan did with it.
    expect(e.assumptions.join('\n')).toMatch(
      /RECOVERABLE burst above the reservation: at most 50% of its replicas on spot, the rest on on-demand fallback or serverless, never interrupted \(\d+ of 24 hours need more than the reservation; spot serves online traffic in \d+ of them, serverless in 0\)/,
    );
    expect(e.assumptions.join('\n')).toMatch(
      /The plan buys its GPU-hours as [\d.]+% RESERVED_1Y \(aws, aws:us-east-1\), [\d.]+% ON_DEMAND \(aws, aws:us-east-1\), [\d.]+% SPOT/,
    );
  });

  it('runs batch on-demand and says so when no spot offer is compliant', () => {
    const e = ok(
      estimateInferenceCost(
        estimateInput({
          workload: { hourlyProfile: diurnalProfile(40), avgInputTokens: 500, avgOutputTokens: 200, batchShare: 0.3 },
          tolerance: 'TOLERANT',
          candidates: [candidate(GPUS.h100, { ON_DEMAND: '3.90', RESERVED_1Y: '2.20' })],
        }),
      ),
    );
    expect(e.warnings).toContain('no compliant spot offer for h100-sxm-80gb: batch runs on-demand');
    expect(e.tiers.some((t) => t.pricingModel === 'SPOT')).toBe(false);
  });

  it('never puts INTOLERANT work on spot, however cheap', () => {
    const e = ok(
      estimateInferenceCost(
        estimateInput({
          workload: { hourlyProfile: diurnalProfile(60), avgInputTokens: 500, avgOutputTokens: 200, batchShare: 0.3 },
          candidates: [candidate(GPUS.h100, { ON_DEMAND: '3.90', SPOT: '0.10' })],
        }),
      ),
    );
    expect(e.tiers.map((t) => t.pricingModel)).toEqual(['ON_DEMAND']);
    expect(e.warnings).toContain('INTOLERANT workload: the spot offers for h100-sxm-80gb are not used');
  });

  describe('RECOVERABLE with no on-demand fallback', () => {
    const recoverable = (prices: Parameters<typeof candidate>[1], recoverableSpotShare?: number) =>
      estimateInferenceCost(
        estimateInput({
          tolerance: 'RECOVERABLE',
          ...(recoverableSpotShare === undefined ? {} : { recoverableSpotShare }),
          workload: { requestsPerSecond: 5, avgInputTokens: 500, avgOutputTokens: 200 },
          candidates: [candidate(GPUS.h100, prices)],
        }),
      );

    it('refuses to run the whole burst on spot, naming the missing fallback', () => {
      const outcome = recoverable({ SPOT: '1.00' });
      expect(outcome).toMatchObject({ kind: 'NO_USABLE_OFFER' });
      expect((outcome as { reason: string }).reason).toMatch(
        /RECOVERABLE keeps 50% of its burst off spot, and no on-demand or serverless offer holds a 1-GPU replica/,
      );
    });

    it('runs on spot alone when the caller allows all of the burst on spot', () => {
      const e = ok(recoverable({ SPOT: '1.00' }, 1));
      expect(e.tiers.map((t) => t.pricingModel)).toEqual(['SPOT']);
    });

    it('keeps the fallback on serverless when that is the only other tier', () => {
      const e = ok(recoverable({ SPOT: '1.00', SERVERLESS: '4.00' }));
      // Every hour bursts above a reservation of none: serverless carries it, spot never serves online traffic alone.
      expect(e.hourlyPlan.every((h) => h.spotInstances === 0 && h.serverlessReplicaHours > 0)).toBe(true);
    });
  });

  it('charges cold starts when scaling to zero and keeps idle hours free', () => {
    const profile = diurnalProfile(5).map((v, h) => (h < 6 ? 0 : v));
    const e = ok(
      estimateInferenceCost(
        estimateInput({
          workload: { hourlyProfile: profile, avgInputTokens: 500, avgOutputTokens: 200, scaleToZero: true, minReplicas: 1 },
          candidates: [candidate(GPUS.h100, { ON_DEMAND: '3.90' })],
          modelLoadSeconds: 360,
        }),
      ),
    );
    expect(e.hourlyPlan.slice(0, 6).every((r) => r.onDemandInstances === 0)).toBe(true);
    // one start per day of 0.1 h at 3.90 × 730 / 24 days = 11.8625
    expect(amount(e.hiddenCosts.coldStarts)).toBe('11.8625');
    // 18 hours × 1 replica + 0.1 h, × 3.90 × 730/24
    expect(amount(e.monthlyCost)).toBe(formatAmount(new Decimal('18.1').mul('3.90').mul(730).div(24)));
  });

  it('keeps a replica warm when scaling to zero would pay more in model loads than the empty hours cost', () => {
    // Every other hour empty; a load of 1.5 h after each costs more than the idle hour it saves:
    // one on-demand replica all day, 24 h × 3.90 × 730 / 24 = 2,847.00.
    const profile = Array.from({ length: 24 }, (_, h) => h % 2);
    const e = ok(
      estimateInferenceCost(
        estimateInput({
          workload: { hourlyProfile: profile, avgInputTokens: 500, avgOutputTokens: 200, scaleToZero: true },
          candidates: [candidate(GPUS.h100, { ON_DEMAND: '3.90' })],
          modelLoadSeconds: 5400,
        }),
      ),
    );
    expect(amount(e.monthlyCost)).toBe('2847.0000');
    expect(e.hourlyPlan.every((r) => r.onDemandInstances === 1)).toBe(true);
    expect(amount(e.hiddenCosts.coldStarts)).toBe('0.0000');
    expect(e.assumptions).toContain(
      'Scaling to zero is allowed, but keeping 1 replica(s) warm in hours without traffic costs less than 90 min of model loading after each of them.',
    );
  });

  it('runs a TOLERANT burst on on-demand when spot costs more, and says so', () => {
    const e = ok(
      estimateInferenceCost(
        estimateInput({
          workload: { hourlyProfile: diurnalProfile(40), avgInputTokens: 500, avgOutputTokens: 200 },
          tolerance: 'TOLERANT',
          candidates: [candidate(GPUS.h100, { ON_DEMAND: '3.90', SPOT: '4.50' })],
        }),
      ),
    );
    expect(e.tiers.map((t) => t.pricingModel)).toEqual(['ON_DEMAND']);
    expect(e.assumptions).toContain(
      "TOLERANT burst above the reservation runs on on-demand, cheaper here than the tolerance's spot share (24 of 24 hours need more than the reservation; spot serves online traffic in 0 of them, serverless in 0).",
    );
    expect(e.warnings).toContain('no blend beat on-demand autoscaling for h100-sxm-80gb: the plan is pure ON_DEMAND');
    expect(e.savingsVsOnDemandAutoscaledPct).toBe(0);
  });

  it('uses a measured throughput instead of the roofline', () => {
    const e = ok(
      estimateInferenceCost(
        estimateInput({
          workload: { requestsPerSecond: 10, avgInputTokens: 500, avgOutputTokens: 200 },
          measuredThroughput: [{ gpuSlug: 'h100-sxm-80gb', outputTokensPerSecond: 800 }],
          candidates: [candidate(GPUS.h100, { ON_DEMAND: '3.90' })],
        }),
      ),
    );
    // 800 / 200 = 4 rps per replica; 10 / (4 × 0.75) = 3.33 → 4 replicas
    expect(e.replicaThroughput).toMatchObject({ requestsPerSecond: 4, bound: 'MEASURED' });
    expect(at(e.hourlyPlan, 0).replicasNeeded).toBe(4);
  });

  describe('egress over two providers, one without a known egress price (figures by hand)', () => {
    // 1 request/s per replica at 50% utilization: 2 replicas in hours 0-11 (1 request/s), 4 in hours 12-23 (2 requests/s).
    // Reserved at 1.00/h on provider "near" (egress 0.05/GB), on-demand at 1.50/h on "far" (egress unknown).
    // A reserved replica pays when busy ≥ 1.00 / 1.50 = 66.7% of hours: replicas 1-2 (24 h) are reserved, 3-4 (12 h) on demand.
    // Per day: reserved 48 GPU-h × 1.00 = 48, on-demand 24 GPU-h × 1.50 = 36; a 730-h month is 730 / 24 = 30.41667 days.
    const run = (egressGbPerMonth: number) =>
      ok(
        estimateInferenceCost(
          estimateInput({
            workload: {
              hourlyProfile: [...Array<number>(12).fill(1), ...Array<number>(12).fill(2)],
              avgInputTokens: 500,
              avgOutputTokens: 200,
              targetUtilization: 0.5,
            },
            measuredThroughput: [{ requestsPerSecond: 1 }],
            egressGbPerMonth,
            candidates: [
              {
                gpu: GPUS.h100,
                offers: [
                  offer('RESERVED_1Y', '1.00', { ref: 'near/reserved', provider: 'near', region: 'near:r1', egressPricePerGb: new Decimal('0.05') }),
                  offer('ON_DEMAND', '1.50', { ref: 'far/on-demand', provider: 'far', region: 'far:r1', egressPricePerGb: null }),
                ],
              },
            ],
          }),
        ),
      );

    it('splits egress by share of GPU-hours, prices each share at its own provider, and names the one it cannot price', () => {
      const e = run(3000);
      // GPU: (48 + 36) × 30.41667 = 2,555.00. Egress: 2/3 of 3,000 GB = 2,000 GB × 0.05 = 100.00 on "near"; 1,000 GB on "far" unpriced.
      expect(
        e.tiers.map((t) => [t.pricingModel, t.provider, Number(t.capacityShare.toFixed(4)), Number(t.egressGb.toFixed(2)), t.egress.amount.toFixed(2)]),
      ).toEqual([
        ['RESERVED_1Y', 'near', 0.6667, 2000, '100.00'],
        ['ON_DEMAND', 'far', 0.3333, 1000, '0.00'],
      ]);
      expect(e.gpuCost.amount.toFixed(2)).toBe('2555.00');
      expect(e.hiddenCosts.egress.amount.toFixed(2)).toBe('100.00');
      expect(e.monthlyCost.amount.toFixed(2)).toBe('2655.00');
      expect(e.hiddenCosts.egressPriceKnown).toBe(false);
      expect(e.hiddenCosts.egressUnpricedProviders).toEqual(['far']);
      expect(e.warnings).toContain(
        'egress of 1000 GB/month on far is not priced: far has no known internet egress price in this catalog, so it counts as 0 (hiddenCosts.egressPriceKnown = false)',
      );
      // Baselines: on demand at "far" only. Autoscaled 72 GPU-h × 1.50 = 108 a day = 3,285.00; naive 4 × 24 × 1.50 = 144 a day = 4,380.00; egress unpriced.
      expect(defined(e.baselines.onDemandAutoscaled, 'autoscaled').monthlyCost.amount.toFixed(2)).toBe('3285.00');
      expect(defined(e.baselines.naive, 'naive').monthlyCost.amount.toFixed(2)).toBe('4380.00');
      expect(e.baselines.naive?.offerRef).toBe('far/on-demand');
    });

    it('leaves a tier out when its egress costs more than its capacity saves', () => {
      // At 0.05/GB the reserved tier's share costs 2/3 × G × 0.05 in egress and saves 3,285.00 - 2,555.00 = 730.00 in GPUs:
      // above G = 730 / (2/3 × 0.05) = 21,900 GB the on-demand plan alone is cheaper in total.
      const below = run(21_000);
      expect(below.tiers.map((t) => t.pricingModel)).toEqual(['RESERVED_1Y', 'ON_DEMAND']);
      const above = run(23_000);
      expect(above.tiers.map((t) => [t.pricingModel, t.provider])).toEqual([['ON_DEMAND', 'far']]);
      expect(above.monthlyCost.amount.toFixed(2)).toBe('3285.00');
      expect(above.assumptions.join('\n')).toMatch(/Left out for egress: RESERVED_1Y \(near, egress 0\.0500 USD\/GB\)/);
      expect(above.savingsVsOnDemandAutoscaledPct).toBe(0);
    });
  });

  it('states no break-even against an API priced at 0: no volume makes it dearer', () => {
    const e = ok(
      estimateInferenceCost(
        estimateInput({
          workload: { requestsPerSecond: 1, avgInputTokens: 500, avgOutputTokens: 200 },
          candidates: [candidate(GPUS.h100, { ON_DEMAND: '3.90' })],
          apiPricePer1MTokens: new Decimal('0'),
        }),
      ),
    );
    expect(e.apiComparison?.breakEvenTokensPerDay).toBeNull();
    expect(amount(defined(e.apiComparison, 'apiComparison').monthlyApiCost)).toBe('0.0000');
    expect(e.apiComparison?.selfHostingCheaper).toBe(false);
  });

  it('compares with an API price and reports egress and unit economics', () => {
    const e = ok(
      estimateInferenceCost(
        estimateInput({
          workload: { requestsPerSecond: 1, avgInputTokens: 500, avgOutputTokens: 200 },
          candidates: [candidate(GPUS.h100, { ON_DEMAND: '3.90' })],
          egressGbPerMonth: 100,
          egressPricePerGb: new Decimal('0.09'),
          apiPricePer1MTokens: new Decimal('0.50'),
        }),
      ),
    );
    // 1 rps × 86,400 s × 700 tokens = 60.48M tokens/day; × 0.50 / 1M × 730/24 days = 919.80
    expect(e.apiComparison?.tokensPerDay).toBe(60_480_000);
    expect(amount(defined(e.apiComparison, 'apiComparison').monthlyApiCost)).toBe('919.8000');
    // egress 100 GB × 0.09 = 9.00 on top of 2,847
    expect(amount(e.hiddenCosts.egress)).toBe('9.0000');
    expect(amount(e.monthlyCost)).toBe('2856.0000');
    // break-even: 2,856 / 30.4167 days / 0.50 × 1M = 187.79M tokens/day
    expect(e.apiComparison?.breakEvenTokensPerDay).toBe(187_791_781);
    expect(e.apiComparison?.selfHostingCheaper).toBe(false);
    // 200 output tokens × 86,400 × 30.4167 = 525.6M tokens/month → 2,856 / 525.6 = 5.4338 per 1M
    expect(amount(defined(e.unitEconomics.costPer1MOutputTokens, 'costPer1MOutputTokens'))).toBe('5.4338');
  });

  it('answers the same input with the same output', () => {
    const input = estimateInput({
      model: { preset: 'mixtral-8x7b' },
      precisions: ['FP16', 'FP8', 'INT4'],
      workload: { hourlyProfile: diurnalProfile(30), avgInputTokens: 800, avgOutputTokens: 300, batchShare: 0.2 },
      tolerance: 'RECOVERABLE',
      candidates: [standardCandidate(GPUS.h100, '3.90', 8), standardCandidate(GPUS.a100_80, '2.50', 8)],
    });
    const text = (o: EstimateOutcome) => JSON.stringify(o, (_k, v) => (v instanceof Decimal ? v.toString() : v));
    expect(text(estimateInferenceCost(input))).toBe(text(estimateInferenceCost(input)));
  });

  it('rejects malformed input as INVALID_INPUT with the field', () => {
    expect(estimateInferenceCost(estimateInput({ workload: { hourlyProfile: [1, 2], avgInputTokens: 1, avgOutputTokens: 1 } }))).toMatchObject({
      kind: 'INVALID_INPUT',
      field: 'workload.hourlyProfile',
    });
    expect(estimateInferenceCost(estimateInput({ model: { preset: 'nope' } }))).toMatchObject({ kind: 'INVALID_INPUT', field: 'model.preset' });
  });

  it('right-sizes over 11 GPU types × 6 precisions and names the best alternatives', () => {
    const input = estimateInput({
      model: { preset: 'mistral-7b' },
      precisions: ['FP32', 'FP16', 'BF16', 'FP8', 'INT8', 'INT4'],
      workload: { hourlyProfile: diurnalProfile(40), avgInputTokens: 500, avgOutputTokens: 200, batchShare: 0.15 },
      tolerance: 'RECOVERABLE',
      candidates: Object.values(GPUS).map((g, i) => standardCandidate(g, (1 + i * 0.4).toFixed(2), 8)),
    });
    // Speed is measured in BENCHMARKS.md (npm run bench), not here.
    const outcome = estimateInferenceCost(input);
    expect(outcome.kind).toBe('OK');
    if (outcome.kind !== 'OK') return;
    expect(outcome.estimate.alternatives.length).toBeGreaterThan(0);
    for (const alt of outcome.estimate.alternatives) {
      expect(alt.monthlyCost.amount.gte(outcome.estimate.monthlyCost.amount)).toBe(true);
    }
    expect(estimateInferenceCost(input)).toEqual(outcome);
  });
});

describe('spot interruption rate from the Spot Instance Advisor band', () => {
  // ln(1 / (1 − p)) to 16 digits (the series p + p²/2 + p³/3 + …): the band's upper bound read as
  // the chance of at least one interruption in a 730-hour month, λ = that / 730 per instance-hour.
  const LN_BELOW_5 = 0.0512932943875506;
  const LN_BELOW_20 = 0.2231435513142098;
  // 240 s model load + 5 min lost work = 4 + 5 = 9 min = 0.15 h paid again per interruption.
  const RESTART_HOURS = 0.15;
  const spotOnly = (offers: ReturnType<typeof offer>[], spotInterruptionsPerHour?: number): InferenceEstimate =>
    ok(
      estimateInferenceCost(
        estimateInput({
          tolerance: 'TOLERANT',
          modelLoadSeconds: 240,
          // One replica in every hour (Llama-3-8B FP16 serves ≈ 11 requests/s on an H100): 730 spot instance-hours.
          workload: { requestsPerSecond: 1, avgInputTokens: 500, avgOutputTokens: 200 },
          candidates: offers.map((o) => ({ gpu: GPUS.h100, offers: [o] })),
          ...(spotInterruptionsPerHour === undefined ? {} : { spot: { interruptionsPerHour: spotInterruptionsPerHour } }),
        }),
      ),
    );
  const spotOffer = (ref: string, interruptionRate?: '<5%' | '15-20%' | '>20%') =>
    offer('SPOT', '2', { ref, ...(interruptionRate ? { interruptionRate } : {}) });

  it('prices two spot offers of the same list price apart by their bands', () => {
    const low = spotOnly([spotOffer('low', '<5%')]);
    const high = spotOnly([spotOffer('high', '15-20%')]);
    const none = spotOnly([spotOffer('none')]);
    for (const e of [low, high, none]) expect(e.tiers).toMatchObject([{ pricingModel: 'SPOT', instanceHours: 730 }]);
    // Effective price = 2 × (1 + λ × 0.15 h); restarts per month = 730 h × 2 × λ × 0.15 h = 0.3 × ln(1 / (1 − p)).
    // <5%:    2 × (1 + 0.0512932943875506 / 730 × 0.15) = 2.0000210794;  restarts 0.3 × 0.0512932943875506 = 0.0153879883
    // 15-20%: 2 × (1 + 0.2231435513142098 / 730 × 0.15) = 2.0000917028;  restarts 0.3 × 0.2231435513142098 = 0.0669430654
    // none:   2 × (1 + 0.05 × 0.15) = 2.015 (the flat default);          restarts 730 × 2 × 0.05 × 0.15 = 10.95
    const effective = (e: InferenceEstimate) => at(e.chosenOffers, 0).effectivePricePerInstanceHour.amount.toNumber();
    expect(effective(low)).toBeCloseTo(2 * (1 + (LN_BELOW_5 / 730) * RESTART_HOURS), 12);
    expect(effective(high)).toBeCloseTo(2 * (1 + (LN_BELOW_20 / 730) * RESTART_HOURS), 12);
    expect(effective(none)).toBeCloseTo(2.015, 12);
    expect(low.hiddenCosts.spotRestarts.amount.toNumber()).toBeCloseTo(0.3 * LN_BELOW_5, 9);
    expect(high.hiddenCosts.spotRestarts.amount.toNumber()).toBeCloseTo(0.3 * LN_BELOW_20, 9);
    expect(none.hiddenCosts.spotRestarts.amount.toNumber()).toBeCloseTo(10.95, 9);
    // 730 h × 2 = 1,460 at list price, plus the restarts.
    expect(low.monthlyCost.amount.toNumber()).toBeCloseTo(1460 + 0.3 * LN_BELOW_5, 9);
    expect(high.monthlyCost.amount.toNumber()).toBeCloseTo(1460 + 0.3 * LN_BELOW_20, 9);

    expect(at(low.chosenOffers, 0)).toMatchObject({ ref: 'low', interruptionBasis: 'ADVISOR_BAND' });
    expect(at(low.chosenOffers, 0).interruptionsPerHour).toBeCloseTo(LN_BELOW_5 / 730, 15);
    expect(at(none.chosenOffers, 0)).toMatchObject({ ref: 'none', interruptionsPerHour: 0.05, interruptionBasis: 'DEFAULT' });
    expect(low.assumptions.join('\n')).toContain(
      'Interruption rate: from the AWS Spot Instance Advisor band <5% of the offer: −ln(1 − 0.05) / 730 h, reading the band',
    );
    // 0.0512932943875506 / 730 = 0.0000703 (3 digits); × 0.15 h = 0.0000105 over list (3 digits).
    expect(low.assumptions.join('\n')).toContain(
      'Spot effective price = list × (1 + 0.0000703 interruptions/h × (4 min model load + 5 min lost work)) = ×1.0000105: 2.0000 USD per instance-hour',
    );
    expect(none.assumptions.join('\n')).toContain('Interruption rate: the default 0.05/h (an assumption: the offer has no Spot Instance Advisor band).');
  });

  it('keeps the flat default for >20%, and the caller’s rate wins over any band', () => {
    const open = spotOnly([spotOffer('open', '>20%')]);
    expect(at(open.chosenOffers, 0)).toMatchObject({ interruptionsPerHour: 0.05, interruptionBasis: 'DEFAULT' });
    expect(open.assumptions.join('\n')).toContain("the default 0.05/h: the offer's Spot Instance Advisor band >20% has no upper bound");
    const asked = spotOnly([spotOffer('low', '<5%')], 0.1);
    expect(at(asked.chosenOffers, 0)).toMatchObject({ interruptionsPerHour: 0.1, interruptionBasis: 'REQUEST' });
    // 730 h × 2 × 0.1 × 0.15 h = 21.9
    expect(asked.hiddenCosts.spotRestarts.amount.toNumber()).toBeCloseTo(21.9, 9);
    expect(asked.assumptions.join('\n')).toContain("as requested (spotInterruptionsPerHour); the offer's Spot Instance Advisor band <5% is not used");
  });

  it('ranks candidates by the band-derived effective price: of two equal list prices, the lower band wins', () => {
    // Equal effective prices tie on input order (compareEvaluations): the first candidate.
    expect(at(spotOnly([spotOffer('first'), spotOffer('second')]).chosenOffers, 0).ref).toBe('first');
    // 2.0000917028 (15-20%) against 2.0000210794 (<5%): the second is cheaper.
    const e = spotOnly([spotOffer('first', '15-20%'), spotOffer('second', '<5%')]);
    expect(at(e.chosenOffers, 0).ref).toBe('second');
    // The same rate for both when the caller gives one: back to input order.
    expect(at(spotOnly([spotOffer('first', '15-20%'), spotOffer('second', '<5%')], 0.05).chosenOffers, 0).ref).toBe('first');
  });
});
