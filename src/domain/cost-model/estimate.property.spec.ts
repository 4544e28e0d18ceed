// The invariants of the cost model (docs/cost-model.md#guarantees) on random workloads and prices, and the whole estimate against a
// brute-force reference (testing/brute-force-plan.ts). One GPU type, one precision and 1-GPU
// instances keep each property about the plan.
import fc from 'fast-check';
import { INTERRUPTION_RATES, type InterruptionRate, type PricingModel } from '../catalog/catalog.types.js';
import type { InterruptionTolerance } from '../compliance/policy.js';
import { Decimal } from '../money/money.js';
import { estimateInferenceCost } from './estimate.js';
import { estimateInput, GPUS, offer } from './estimate.factories.js';
import type { EstimateInput, GpuCandidate, InferenceEstimate } from './estimate.types.js';
import { bruteForcePlan, type ReferencePlan, type ReferenceTier, type ReferenceWorld } from './testing/brute-force-plan.js';
import { at, defined } from '../checked.js';

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
  profile: fc.array(
    fc.integer({ min: 0, max: 1200 }).map((x) => x / 10),
    { minLength: 24, maxLength: 24 },
  ),
  batchShare: fc.constantFrom(0, 0.1, 0.3),
  tolerance: fc.constantFrom<InterruptionTolerance>('INTOLERANT', 'RECOVERABLE', 'TOLERANT'),
  scaleToZero: fc.boolean(),
  onDemand: fc.integer({ min: 100, max: 1000 }).map((c) => c / 100),
  reservedFactor: fc.integer({ min: 30, max: 110 }).map((p) => p / 100),
  spotFactor: fc.option(
    fc.integer({ min: 10, max: 90 }).map((p) => p / 100),
    { nil: null },
  ),
  serverlessFactor: fc.option(
    fc.integer({ min: 100, max: 400 }).map((p) => p / 100),
    { nil: null },
  ),
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
  const offers = (Object.entries(prices) as [PricingModel, Decimal][]).map(([model, price]) => offer(model, price));
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
  JSON.stringify({ cost: e.monthlyCost, tiers: e.tiers, plan: e.hourlyPlan }, (_k, v) => (v instanceof Decimal ? v.toString() : v));

/**
 * Small fleets for the brute-force reference: μ = 1 request/s measured, u ∈ {0.5, 1} and
 * requests/s in quarters keep replica counts exact; 1-GPU instances; any tier may be missing.
 */
interface SmallScenario {
  totals: number[];
  batchShare: number;
  targetUtilization: number;
  scaleToZero: boolean;
  tolerance: InterruptionTolerance;
  prices: Partial<Record<PricingModel, Decimal>>;
  /** The spot offer's Spot Instance Advisor band. */
  band: InterruptionRate | null;
  input: EstimateInput;
}

const MODEL_LOAD_SECONDS = 360;
/**
 * Interruptions per instance-hour of a spot offer: its Spot Instance Advisor band's upper bound p
 * as the chance of one interruption in a 730-hour month, −ln(1 − p) / 730 (ln(1 / (1 − p)) to 16
 * digits by its series p + p²/2 + …); the flat 0.05 without a band or for the open-ended >20%.
 */
const REFERENCE_RATE: Record<InterruptionRate | 'none', number> = {
  '<5%': 0.0512932943875506 / 730,
  '5-10%': 0.1053605156578263 / 730,
  '10-15%': 0.1625189294977749 / 730,
  '15-20%': 0.2231435513142098 / 730,
  '>20%': 0.05,
  none: 0.05,
};
const spotOverhead = (band: InterruptionRate | null): number => 1 + REFERENCE_RATE[band ?? 'none'] * (MODEL_LOAD_SECONDS / 3600 + 5 / 60);

const smallScenario: fc.Arbitrary<SmallScenario> = fc
  .record({
    totals: fc.array(
      fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 12 })).map((q) => q / 4),
      { minLength: 24, maxLength: 24 },
    ),
    batchShare: fc.constantFrom(0, 0.25, 0.5),
    targetUtilization: fc.constantFrom(0.5, 1),
    scaleToZero: fc.boolean(),
    tolerance: fc.constantFrom<InterruptionTolerance>('INTOLERANT', 'RECOVERABLE', 'TOLERANT'),
    onDemand: fc.option(fc.integer({ min: 100, max: 800 }), { nil: null }),
    reserved: fc.option(fc.integer({ min: 30, max: 700 }), { nil: null }),
    spot: fc.option(fc.integer({ min: 20, max: 900 }), { nil: null }),
    band: fc.option(fc.constantFrom(...INTERRUPTION_RATES), { nil: null }),
    serverless: fc.option(fc.integer({ min: 50, max: 1200 }), { nil: null }),
  })
  .filter((w) => w.onDemand !== null || w.reserved !== null || (w.spot !== null && w.tolerance !== 'INTOLERANT'))
  .map((w) => {
    const cents = (c: number | null) => (c === null ? undefined : new Decimal(c).div(100));
    const prices = Object.fromEntries(
      Object.entries({ ON_DEMAND: cents(w.onDemand), RESERVED_1Y: cents(w.reserved), SPOT: cents(w.spot), SERVERLESS: cents(w.serverless) }).filter(
        ([, v]) => v !== undefined,
      ),
    ) as Partial<Record<PricingModel, Decimal>>;
    const offers = (Object.entries(prices) as [PricingModel, Decimal][]).map(([model, price]) =>
      offer(model, price, model === 'SPOT' && w.band !== null ? { interruptionRate: w.band } : {}),
    );
    const input = estimateInput({
      workload: {
        hourlyProfile: w.totals,
        avgInputTokens: 500,
        avgOutputTokens: 200,
        batchShare: w.batchShare,
        targetUtilization: w.targetUtilization,
        scaleToZero: w.scaleToZero,
      },
      measuredThroughput: [{ requestsPerSecond: 1 }],
      modelLoadSeconds: MODEL_LOAD_SECONDS,
      tolerance: w.tolerance,
      candidates: [{ gpu: GPUS.h100, offers }],
    });
    return {
      totals: w.totals,
      batchShare: w.batchShare,
      targetUtilization: w.targetUtilization,
      scaleToZero: w.scaleToZero,
      tolerance: w.tolerance,
      prices,
      band: w.band,
      input,
    };
  });

/** Monthly costs of the reference's best plan and of the two baselines, in Decimal. */
/** Null when no plan serves every hour (RECOVERABLE on spot alone): the estimate must refuse. */
function referenceCosts(s: SmallScenario): { blended: Decimal; autoscaled: Decimal | null; naive: Decimal | null } | null {
  const u = s.targetUtilization;
  const online = s.totals.map((t) => t * (1 - s.batchShare));
  const spotAllowed = s.tolerance !== 'INTOLERANT';
  const price = {
    ON_DEMAND: s.prices.ON_DEMAND,
    RESERVED_1Y: s.prices.RESERVED_1Y,
    SPOT: spotAllowed ? s.prices.SPOT?.mul(spotOverhead(s.band)) : undefined,
    SERVERLESS: s.prices.SERVERLESS,
  };
  const tier = (p: Decimal | undefined): ReferenceTier | null => (p ? { price: p.toNumber(), replicasPerInstance: 1 } : null);
  const world: ReferenceWorld = {
    onlineRequestsPerSecond: online,
    onlineReplicas: online.map((rps) => (s.scaleToZero && rps === 0 ? 0 : Math.max(1, Math.ceil(rps / u)))),
    batchReplicaHours: s.totals.reduce((sum, t) => sum + t * s.batchShare, 0),
    replicaRequestsPerSecond: 1,
    targetUtilization: u,
    minReplicas: 1,
    scaleToZero: s.scaleToZero,
    tolerance: s.tolerance,
    recoverableSpotShare: 0.5,
    modelLoadHours: MODEL_LOAD_SECONDS / 3600,
    reserved: tier(price.RESERVED_1Y),
    onDemand: tier(price.ON_DEMAND),
    spot: tier(price.SPOT),
    serverless: price.SERVERLESS?.toNumber() ?? null,
  };
  const month = (perDay: Decimal) => perDay.mul(730).div(24);
  const monthly = (plan: ReferencePlan, p: typeof price): Decimal =>
    month(
      new Decimal(0)
        .add(p.RESERVED_1Y?.mul(plan.reservedInstanceHours) ?? 0)
        .add(p.ON_DEMAND?.mul(plan.onDemandInstanceHours) ?? 0)
        .add(p.SPOT?.mul(plan.spotInstanceHours) ?? 0)
        .add(p.SERVERLESS?.mul(plan.serverlessReplicaHours) ?? 0),
    );
  // Baselines: what buying on demand costs, 24 h at the peak of the whole profile (naive), and
  // on-demand alone following demand; none without an on-demand price.
  const best = bruteForcePlan(world);
  if (best === null) return null;
  const blended = monthly(best, price);
  const baseline = price.ON_DEMAND;
  if (baseline === undefined) return { blended, autoscaled: null, naive: null };
  const naivePeak = Math.max(1, Math.ceil(Math.max(...s.totals) / u));
  const naive = month(baseline.mul(24 * naivePeak));
  const alone = { ON_DEMAND: baseline, RESERVED_1Y: undefined, SPOT: undefined, SERVERLESS: undefined };
  const autoscaled = monthly(
    defined(
      bruteForcePlan({ ...world, tolerance: 'INTOLERANT', reserved: null, spot: null, serverless: null, onDemand: tier(baseline) }),
      'the on-demand plan',
    ),
    alone,
  );
  return { blended, autoscaled, naive };
}

describe('cost model invariants', () => {
  it('never charges less for more load', () => {
    fc.assert(
      fc.property(scenario, fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 24, maxLength: 24 }), (s, extra) => {
        const more = { ...s, profile: s.profile.map((v, h) => v + at(extra, h) / 10) };
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

  it('prices the plan at the brute-force optimum and each baseline by its definition, to the cent', () => {
    fc.assert(
      fc.property(smallScenario, (s) => {
        const ref = referenceCosts(s);
        if (ref === null) {
          expect(estimateInferenceCost(s.input)).toMatchObject({ kind: 'NO_USABLE_OFFER' });
          return;
        }
        const e = run(s.input);
        const cent = new Decimal('0.005');
        expect(e.gpuCost.amount.sub(ref.blended).abs().lte(cent)).toBe(true);
        const { naive, onDemandAutoscaled } = e.baselines;
        if (ref.naive === null || ref.autoscaled === null) {
          // No on-demand price: no baseline under an on-demand label, and the reason instead.
          expect([naive, onDemandAutoscaled, e.savingsVsNaivePct]).toEqual([null, null, null]);
          expect(e.baselines.unavailableReason).toMatch(/^no compliant on-demand offer of h100-sxm-80gb holds a 1-GPU replica/);
          return;
        }
        const autoscaled = defined(onDemandAutoscaled, 'the autoscaled baseline');
        const naivePlan = defined(naive, 'the naive baseline');
        expect([autoscaled.pricingModel, naivePlan.pricingModel]).toEqual(['ON_DEMAND', 'ON_DEMAND']);
        expect(autoscaled.monthlyCost.amount.sub(ref.autoscaled).abs().lte(cent)).toBe(true);
        expect(naivePlan.monthlyCost.amount.sub(ref.naive).abs().lte(cent)).toBe(true);
        expect(e.monthlyCost.amount.lte(autoscaled.monthlyCost.amount)).toBe(true);
        expect(autoscaled.monthlyCost.amount.lte(naivePlan.monthlyCost.amount)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('changes nothing when the price of an unused tier rises', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 101, max: 500 }), (s, raisePct) => {
        const e = run(inputOf(s));
        const used = new Set(e.tiers.map((t) => t.pricingModel));
        const offers = at(inputOf(s).candidates, 0).offers;
        for (const model of offers.map((o) => o.pricingModel)) {
          if (used.has(model)) continue;
          const raised = defined(
            offers.find((o) => o.pricingModel === model),
            `the ${model} offer`,
          )
            .pricePerInstanceHour.mul(raisePct)
            .div(100);
          const again = run(inputOf(s, { candidates: [candidateOf(s, { [model]: raised })] }));
          expect(plain(again)).toBe(plain(e));
        }
      }),
    );
  });

  it('never lowers the reserved share when the reserved price falls', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 90 }), (s, cutPct) => {
        const share = (e: InferenceEstimate) => e.tiers.filter((t) => t.pricingModel === 'RESERVED_1Y').reduce((sum, t) => sum + t.capacityShare, 0);
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
