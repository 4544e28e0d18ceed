// The invariants of docs/cost-model.md#guarantees, on random workloads and
// prices. One GPU type, one precision and 1-GPU instances keep each property about the plan.
import fc from 'fast-check';
import type { PricingModel } from '../catalog/catalog.types.js';
import type { InterruptionTolerance } from '../compliance/policy.js';
import { Decimal } from '../money/money.js';
import { estimateInferenceCost } from './estimate.js';
import { estimateInput, GPUS, offer } from './estimate.factories.js';
import type { EstimateInput, GpuCandidate, InferenceEstimate } from './estimate.types.js';

interface Scenario {
  profile: number[];
  batchShare: number;
  tolerance: InterruptionTolerance;
  scaleToZero: boolean;
  onDemand: number;
  reservedFactor: number;
  spotFactor: number | null;
  serverlessFactor: number | null;
}

// Llama-3-8B FP16 on an H100 serves ≈ 11 requests/s per replica at 500/200 tokens, so up to
// 120 requests/s needs up to ≈ 15 replicas.
const scenario: fc.Arbitrary<Scenario> = fc.record({
  profile: fc.array(fc.integer({ min: 0, max: 1200 }).map((x) => x / 10), { minLength: 24, maxLength: 24 }),
  batchShare: fc.constantFrom(0, 0.1, 0.3),
  tolerance: fc.constantFrom<InterruptionTolerance>('INTOLERANT', 'RECOVERABLE', 'TOLERANT'),
  scaleToZero: fc.boolean(),
  onDemand: fc.integer({ min: 100, max: 1000 }).map((c) => c / 100),
  reservedFactor: fc.integer({ min: 30, max: 110 }).map((p) => p / 100),
  spotFactor: fc.option(fc.integer({ min: 10, max: 90 }).map((p) => p / 100), { nil: null }),
  serverlessFactor: fc.option(fc.integer({ min: 100, max: 400 }).map((p) => p / 100), { nil: null }),
});

function candidateOf(s: Scenario, override: Partial<Record<PricingModel, Decimal>> = {}): GpuCandidate {
  const od = new Decimal(s.onDemand);
  const prices: Partial<Record<PricingModel, Decimal>> = {
    ON_DEMAND: od,
    RESERVED_1Y: od.mul(s.reservedFactor).toDecimalPlaces(4),
    ...(s.spotFactor === null ? {} : { SPOT: od.mul(s.spotFactor).toDecimalPlaces(4) }),
    ...(s.serverlessFactor === null ? {} : { SERVERLESS: od.mul(s.serverlessFactor).toDecimalPlaces(4) }),
    ...override,
  };
  const offers: GpuCandidate['offers'] = {};
  for (const [model, price] of Object.entries(prices) as [PricingModel, Decimal][]) offers[model] = offer(model, price);
  return { gpu: GPUS.h100, offers };
}

function inputOf(s: Scenario, overrides: Partial<EstimateInput> = {}): EstimateInput {
  return estimateInput({
    workload: {
      hourlyProfile: s.profile,
      avgInputTokens: 500,
      avgOutputTokens: 200,
      batchShare: s.batchShare,
      scaleToZero: s.scaleToZero,
    },
    tolerance: s.tolerance,
    candidates: [candidateOf(s)],
    ...overrides,
  });
}

function run(input: EstimateInput): InferenceEstimate {
  const outcome = estimateInferenceCost(input);
  if (outcome.kind !== 'OK') throw new Error(JSON.stringify(outcome));
  return outcome.estimate;
}

const plain = (e: InferenceEstimate) =>
  JSON.stringify({ cost: e.monthlyCost, tiers: e.tiers, plan: e.hourlyPlan }, (_k, v) =>
    v instanceof Decimal ? v.toString() : v,
  );

describe('cost model invariants', () => {
  it('never charges less for more load', () => {
    fc.assert(
      fc.property(scenario, fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 24, maxLength: 24 }), (s, extra) => {
        const more = { ...s, profile: s.profile.map((v, h) => v + extra[h]! / 10) };
        expect(run(inputOf(more)).monthlyCost.amount.gte(run(inputOf(s)).monthlyCost.amount)).toBe(true);
      }),
    );
  });

  it('charges a longer period proportionally more', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 2000 }), (s, hours) => {
        const base = run(inputOf(s, { hoursPerMonth: hours })).monthlyCost.amount;
        const doubled = run(inputOf(s, { hoursPerMonth: 2 * hours })).monthlyCost.amount;
        expect(doubled.sub(base.mul(2)).abs().lte(base.mul('1e-15'))).toBe(true);
      }),
    );
  });

  it('keeps blended ≤ on-demand autoscaled ≤ naive', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const e = run(inputOf(s));
        expect(e.monthlyCost.amount.lte(e.baselines.onDemandAutoscaled.monthlyCost.amount)).toBe(true);
        expect(e.baselines.onDemandAutoscaled.monthlyCost.amount.lte(e.baselines.naive.monthlyCost.amount)).toBe(true);
        expect(e.savingsVsNaivePct).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('changes nothing when the price of an unused tier rises', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 101, max: 500 }), (s, raisePct) => {
        const e = run(inputOf(s));
        const used = new Set(e.tiers.map((t) => t.pricingModel));
        const offers = inputOf(s).candidates[0]!.offers;
        for (const model of Object.keys(offers) as PricingModel[]) {
          if (used.has(model)) continue;
          const raised = offers[model]!.pricePerInstanceHour.mul(raisePct).div(100);
          const again = run(inputOf(s, { candidates: [candidateOf(s, { [model]: raised })] }));
          expect(plain(again)).toBe(plain(e));
        }
      }),
    );
  });

  it('never lowers the reserved share when the reserved price falls', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 90 }), (s, cutPct) => {
        const share = (e: InferenceEstimate) =>
          e.tiers.filter((t) => t.pricingModel === 'RESERVED_1Y').reduce((sum, t) => sum + t.capacityShare, 0);
        const before = share(run(inputOf(s)));
        const cheaper = { ...s, reservedFactor: (s.reservedFactor * (100 - cutPct)) / 100 };
        expect(share(run(inputOf(cheaper)))).toBeGreaterThanOrEqual(before - 1e-12);
      }),
    );
  });

  it('never puts INTOLERANT traffic on spot', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const e = run(inputOf({ ...s, tolerance: 'INTOLERANT' }));
        expect(e.tiers.some((t) => t.pricingModel === 'SPOT')).toBe(false);
      }),
    );
  });
});
