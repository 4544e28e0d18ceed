// Hand-computed days. μ = 1 request/s and u = 1, so a replica is exactly one request/s and every
// count below can be checked on paper.
import type { InterruptionTolerance } from '../compliance/policy.js';
import { hourlyDemand } from './demand.js';
import { offer } from './estimate.factories.js';
import { batchOrder, periodCost, planPeriod, recoverableFallbackReplicas, type BurstMode, type PlanInput } from './plan-period.js';
import type { PlanTier } from './plan-tiers.js';
import { at } from '../checked.js';

const hours = (n: number, rps: number): number[] => Array(n).fill(rps);

/** A tier of instances holding `replicas` replicas each, at `price` per instance-hour. */
const tier = (model: 'ON_DEMAND' | 'SPOT' | 'RESERVED_1Y', price: number, replicas = 1): PlanTier => ({
  offer: offer(model, price.toFixed(2), { gpusPerInstance: replicas }),
  replicasPerInstance: replicas,
  pricePerInstanceHour: price,
  // The planner prices with pricePerInstanceHour only: no spot overhead on top.
  overhead: 1,
  interruptionsPerHour: null,
  interruptionBasis: null,
});

function day({
  profile,
  batchShare = 0,
  tolerance,
  spotShare = 0.5,
  onDemand = null,
  spot = null,
  scaleToZero = false,
  modelLoadHours = 0.1,
  burst,
}: {
  profile: number[];
  batchShare?: number;
  tolerance: InterruptionTolerance;
  spotShare?: number;
  onDemand?: PlanTier | null;
  spot?: PlanTier | null;
  scaleToZero?: boolean;
  modelLoadHours?: number;
  burst?: BurstMode;
}): PlanInput {
  return {
    demand: hourlyDemand({ hourlyRequestsPerSecond: profile, batchShare, replicaRequestsPerSecond: 1, targetUtilization: 1, scaleToZero, minReplicas: 1 }),
    tiers: { reserved: null, onDemand, spot, serverless: null },
    tolerance,
    recoverableSpotShare: spotShare,
    replicaRequestsPerSecond: 1,
    targetUtilization: 1,
    modelLoadHours,
    scaleToZero,
    minReplicas: 1,
    burst,
  };
}

/** planPeriod and its fast twin periodCost must both give the hand-computed cost. */
function expectCost(input: PlanInput, costPerPeriod: number): ReturnType<typeof planPeriod> {
  const plan = planPeriod(input, 0);
  expect(plan.costPerPeriod).toBeCloseTo(costPerPeriod, 9);
  expect(periodCost(input, 0, batchOrder(input.demand))).toBeCloseTo(costPerPeriod, 9);
  return plan;
}

describe(recoverableFallbackReplicas.name, () => {
  it('puts the rest of the burst on on-demand, rounded up, so spot never exceeds its share', () => {
    const fallback = (burst: number, spotShare: number) => recoverableFallbackReplicas({ burst, spotShare });
    expect(fallback(1, 0.5)).toBe(1); // 0.5 → 1 on-demand, 0 spot
    expect(fallback(3, 0.5)).toBe(2); // 1.5 → 2 on-demand, 1 spot
    expect(fallback(3, 0.3)).toBe(3); // 2.1 → 3 on-demand, 0 spot (0.9 spot replicas is not one)
    expect(fallback(4, 0.25)).toBe(3); // exactly 3
    expect(fallback(10, 0.7)).toBe(3); // 10 × 0.3 is 3.0000000000000004 in floats: still 3
    expect(fallback(10, 0.3)).toBe(7);
    expect([fallback(5, 0), fallback(5, 1)]).toEqual([5, 0]);
  });
});

describe('RECOVERABLE burst split in planPeriod and periodCost', () => {
  it('runs half the burst on spot rounded down, the rest on on-demand', () => {
    // 12 hours of 1 replica: 1 on-demand (4). 12 hours of 3: 2 on-demand + 1 spot (8 + 1.2).
    // 12 × 4 + 12 × 9.2 = 158.4 per day.
    const input = day({ profile: [...hours(12, 1), ...hours(12, 3)], tolerance: 'RECOVERABLE', onDemand: tier('ON_DEMAND', 4), spot: tier('SPOT', 1.2) });
    const plan = expectCost(input, 158.4);
    expect([at(plan.hours, 0).onDemandInstances, at(plan.hours, 0).spotInstances]).toEqual([1, 0]);
    expect([at(plan.hours, 12).onDemandInstances, at(plan.hours, 12).spotInstances]).toEqual([2, 1]);
    expect(plan.instanceHours).toEqual({ reserved: 0, onDemand: 36, spot: 12 });
  });

  it('takes the caller share: 25% spot of 4, 6 and 7 replicas is 1, 1 and 1', () => {
    // spot share 0.25: ⌊1⌋ = 1, ⌊1.5⌋ = 1, ⌊1.75⌋ = 1 spot; on-demand 3, 5, 6.
    // 8 h × (3 × 4 + 1.2) + 8 h × (5 × 4 + 1.2) + 8 h × (6 × 4 + 1.2) = 105.6 + 169.6 + 201.6 = 476.8
    const profile = [...hours(8, 4), ...hours(8, 6), ...hours(8, 7)];
    const input = day({ profile, tolerance: 'RECOVERABLE', spotShare: 0.25, onDemand: tier('ON_DEMAND', 4), spot: tier('SPOT', 1.2) });
    const plan = expectCost(input, 476.8);
    expect([8, 16].map((h) => [at(plan.hours, h - 1).onDemandInstances, at(plan.hours, h - 1).spotInstances])).toEqual([
      [3, 1],
      [5, 1],
    ]);
    expect([at(plan.hours, 23).onDemandInstances, at(plan.hours, 23).spotInstances]).toEqual([6, 1]);
  });

  it('packs each side of the split into whole instances of its own tier', () => {
    // 3 replicas: 2 on-demand in one 2-replica instance (8), 1 spot in one 2-replica instance (2.4).
    const input = day({ profile: hours(24, 3), tolerance: 'RECOVERABLE', onDemand: tier('ON_DEMAND', 8, 2), spot: tier('SPOT', 2.4, 2) });
    const plan = expectCost(input, 24 * 10.4);
    expect([at(plan.hours, 0).onDemandInstances, at(plan.hours, 0).spotInstances]).toEqual([1, 1]);
  });

  it('runs all of it on on-demand in the ON_DEMAND burst mode', () => {
    const input = day({ profile: hours(24, 3), tolerance: 'RECOVERABLE', onDemand: tier('ON_DEMAND', 4), spot: tier('SPOT', 1.2), burst: 'ON_DEMAND' });
    const plan = expectCost(input, 24 * 12);
    expect(plan.instanceHours.spot).toBe(0);
  });
});

describe('batch overflow with scale-to-zero', () => {
  it('goes to the tier that makes the day cheapest once the model loads it causes are counted', () => {
    // Online 2 requests/s in hours 6–17 (one 2-replica on-demand instance at 7, no idle slot);
    // batch 0.2 of 2.5 requests/s × 12 h = 6 replica-hours, spilled into the empty hours 0–5 first.
    // Spot (1 replica per instance at 3.6): 6 instance-hours = 21.6 in hours 0–5, one load at hour 0
    //   (3.6 × 1 h); hour 6 follows a running hour. Day: 12 × 7 + 21.6 + 3.6 = 109.2.
    // On-demand: ⌈6 / 2⌉ = 3 instance-hours = 21 (cheaper by itself) in hours 0–2, loads at hour 0
    //   and again at hour 6 after the empty hours 3–5: 12 × 7 + 21 + 7 + 7 = 119.
    const profile = [...hours(6, 0), ...hours(12, 2.5), ...hours(6, 0)];
    const input = day({
      profile,
      batchShare: 0.2,
      tolerance: 'TOLERANT',
      onDemand: tier('ON_DEMAND', 7, 2),
      spot: tier('SPOT', 3.6),
      scaleToZero: true,
      modelLoadHours: 1,
      burst: 'ON_DEMAND',
    });
    const plan = expectCost(input, 109.2);
    expect(plan.batchSpillTier).toBe('SPOT');
    expect(plan.hours.slice(0, 6).map((h) => h.spotInstances)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(plan.coldStartInstanceHours).toEqual({ reserved: 0, onDemand: 0, spot: 1 });
  });
});
