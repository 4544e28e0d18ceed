import fc from 'fast-check';
import { Decimal } from '../money/money.js';
import { blendedCostLowerBound, optimizeBlendedPlan, reservedReplicasByRule } from './blended-plan.js';
import { periodCost, planPeriod, type BurstMode, type PlanInput, type PlanTotals, type SpillTier } from './plan-period.js';
import { hourlyDemand } from './demand.js';
import { offer } from './estimate.factories.js';
import { planTierChoices, spotOverheadFactor, type PlanTier } from './plan-tiers.js';
import type { InterruptionTolerance } from '../compliance/policy.js';
import { bruteForcePlan, type ReferenceTier, type ReferenceWorld } from './testing/brute-force-plan.js';
import { at } from '../checked.js';

const flat = (n: number): number[] => Array(24).fill(n);

function input({
  profile,
  batchShare = 0,
  tolerance = 'INTOLERANT',
  prices = { od: '4', res: '2.4', spot: '1.2' },
  mu = 1,
  scaleToZero = false,
  gpusPerInstance = 1,
  targetUtilization = 1,
  modelLoadHours = 0.1,
}: {
  profile: number[];
  batchShare?: number;
  tolerance?: InterruptionTolerance;
  prices?: { od?: string; res?: string; spot?: string; serverless?: string };
  mu?: number;
  scaleToZero?: boolean;
  gpusPerInstance?: number;
  targetUtilization?: number;
  modelLoadHours?: number;
}): PlanInput {
  const g = { gpusPerInstance };
  // One offer per slot: exactly one combination.
  const [tiers, ...more] = planTierChoices({
    objective: 'COST',
    egressPriceOf: () => null,
    offers: [
      ...(prices.od ? [offer('ON_DEMAND', prices.od, g)] : []),
      ...(prices.res ? [offer('RESERVED_1Y', prices.res, g)] : []),
      ...(prices.spot ? [offer('SPOT', prices.spot, g)] : []),
      ...(prices.serverless ? [offer('SERVERLESS', prices.serverless, g)] : []),
    ],
    tensorParallel: 1,
    tolerance,
    interruptionsPerHour: 0,
    modelLoadHours: 0,
    lostWorkHours: 0,
  });
  if (!tiers || more.length > 0) throw new Error('one combination of tiers expected');
  return {
    demand: hourlyDemand({
      hourlyRequestsPerSecond: profile,
      batchShare,
      replicaRequestsPerSecond: mu,
      targetUtilization,
      scaleToZero,
      minReplicas: 1,
    }),
    tiers,
    tolerance,
    recoverableSpotShare: 0.5,
    replicaRequestsPerSecond: mu,
    targetUtilization,
    modelLoadHours,
    scaleToZero,
    minReplicas: 1,
  };
}

describe(spotOverheadFactor.name, () => {
  it('is 1 + interruptions/h × (load + lost work) hours', () => {
    // 1 + 0.05 × (0.05 h + 0.1 h) = 1.0075
    expect(spotOverheadFactor({ interruptionsPerHour: 0.05, modelLoadHours: 0.05, lostWorkHours: 0.1 })).toBeCloseTo(1.0075, 12);
  });
});

describe(reservedReplicasByRule.name, () => {
  // 12 hours at 2 replicas, 12 hours at 1: replica 1 busy 100% of hours, replica 2 busy 50%.
  const profile = [...Array(12).fill(2), ...Array(12).fill(1)];

  it('reserves the k-th unit iff its busy share ≥ p_res / p_alt', () => {
    const rule = (res: number) => reservedReplicasByRule({ onlineReplicas: profile, reservedPricePerReplicaHour: res, alternativePricePerReplicaHour: 4 });
    expect(rule(2.4)).toBe(1); // 0.6: replica 2 busy 50% < 60%
    expect(rule(2.0)).toBe(2); // 0.5: 50% ≥ 50%
    expect(rule(4.4)).toBe(0); // dearer than the alternative
  });

  it('agrees with the unit-by-unit definition on any profile, and takes no time for a huge peak', () => {
    // The definition, one unit at a time (what the rule used to run, once per replica up to the peak).
    const byUnits = (profile: number[], t: number): number => {
      let k = 0;
      while (k < Math.max(0, ...profile) && profile.filter((n) => n >= k + 1).length / profile.length + 1e-9 >= t) k++;
      return k;
    };
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 24, maxLength: 24 }), fc.integer({ min: 1, max: 130 }), (profile, pct) => {
        const t = pct / 100;
        expect(reservedReplicasByRule({ onlineReplicas: profile, reservedPricePerReplicaHour: t, alternativePricePerReplicaHour: 1 })).toBe(
          byUnits(profile, t),
        );
      }),
    );
    // 200 million replicas at the peak: the answer is the 12th largest hour, 150 million.
    const huge = [...Array(12).fill(200_000_000), ...Array(12).fill(150_000_000)];
    expect(reservedReplicasByRule({ onlineReplicas: huge, reservedPricePerReplicaHour: 0.9, alternativePricePerReplicaHour: 1 })).toBe(150_000_000);
  });
});

describe(optimizeBlendedPlan.name, () => {
  it('agrees with the threshold rule without batch work (exact optimum)', () => {
    const profile = [...Array(12).fill(2), ...Array(12).fill(1)];
    const plan = optimizeBlendedPlan(input({ profile }));
    expect(plan.reservedInstances).toBe(1);
    // 1 reserved × 24 h × 2.4 + 12 h × 1 on-demand × 4 = 57.6 + 48 = 105.6 per day
    expect(plan.costPerPeriod).toBeCloseTo(105.6, 9);
    expect(plan.instanceHours).toEqual({ reserved: 24, onDemand: 12, spot: 0 });
  });

  it('fills idle reserved hours with batch work before buying spot', () => {
    // online 0.5 rps all day on μ = 1, u = 1: 1 replica half idle = 12 free replica-hours;
    // batch share 0.5 of 1 rps = 12 replica-hours → all absorbed, nothing spills
    // (spot at 3 is dearer than the 2.4 reservation, so the reservation is worth it)
    const plan = optimizeBlendedPlan(input({ profile: flat(1), batchShare: 0.5, tolerance: 'TOLERANT', prices: { od: '4', res: '2.4', spot: '3' } }));
    expect(plan.reservedInstances).toBe(1);
    expect(plan.batchSpillTier).toBe('RESERVED_IDLE');
    expect(plan.instanceHours.spot).toBe(0);
    expect(plan.hours.reduce((s, h) => s + h.batchReplicaHours, 0)).toBeCloseTo(12, 9);
  });

  it('puts batch overflow on spot in the lowest-demand hours when tolerated, on-demand when not', () => {
    const profile = [...Array(8).fill(0.2), ...Array(16).fill(3)];
    const tolerant = optimizeBlendedPlan(input({ profile, batchShare: 0.6, tolerance: 'TOLERANT', prices: { od: '4', spot: '1.2' } }));
    expect(tolerant.batchSpillTier).toBe('SPOT');
    expect(at(tolerant.hours, 0).spotInstances).toBeGreaterThan(0);
    const intolerant = optimizeBlendedPlan(input({ profile, batchShare: 0.6, prices: { od: '4', spot: '1.2' } }));
    expect(intolerant.batchSpillTier).toBe('ON_DEMAND');
    expect(intolerant.instanceHours.spot).toBe(0);
  });

  it('packs replicas into multi-GPU instances and pays whole instances', () => {
    // 3 replicas on 8-GPU instances at t = 1 → 1 instance per hour
    const plan = optimizeBlendedPlan(input({ profile: flat(3), prices: { od: '32' }, gpusPerInstance: 8 }));
    expect(plan.instanceHours.onDemand).toBe(24);
    expect(plan.costPerPeriod).toBe(24 * 32);
  });

  it('charges model loading when scaling up from zero', () => {
    const profile = [...Array(12).fill(0), ...Array(12).fill(1)];
    const plan = optimizeBlendedPlan(input({ profile, scaleToZero: true, prices: { od: '4' } }));
    // 12 on-demand hours + one cold start of 0.1 h, all at 4
    expect(plan.coldStartInstanceHours.onDemand).toBeCloseTo(0.1, 12);
    expect(plan.costPerPeriod).toBeCloseTo(12.1 * 4, 9);
  });

  it('reserves and runs the burst on on-demand when spot costs more, though the workload tolerates spot', () => {
    // Replica 1 busy all day: reserved (24 × 2.4 = 57.6). Replica 2 busy 12 h: on-demand 12 × 4 = 48
    // beats spot 12 × 5 = 60 and a second reservation 57.6. 105.6 per day.
    const plan = optimizeBlendedPlan(
      input({ profile: [...Array(12).fill(2), ...Array(12).fill(1)], tolerance: 'TOLERANT', prices: { od: '4', res: '2.4', spot: '5' } }),
    );
    expect([plan.reservedInstances, plan.burst]).toEqual([1, 'ON_DEMAND']);
    expect(plan.costPerPeriod).toBeCloseTo(105.6, 9);
  });

  it('keeps a replica warm instead of scaling to zero when the model loads cost more than the empty hours', () => {
    // Every other hour empty: scaling to zero pays 12 h × 4 + 12 loads × 1.5 h × 4 = 120; warm 24 × 4 = 96.
    const profile = Array.from({ length: 24 }, (_, h) => h % 2);
    const plan = optimizeBlendedPlan(input({ profile, scaleToZero: true, prices: { od: '4' }, modelLoadHours: 1.5 }));
    expect(plan.scaleToZero).toBe(false);
    expect(plan.costPerPeriod).toBeCloseTo(96, 9);
    expect(plan.hours.every((h) => h.onDemandInstances === 1)).toBe(true);
  });

  it('reserves as much as the naive fleet when batch work needs it and nothing else is offered', () => {
    // 2 requests/s, 75% batch, u = 0.5: 1 online replica; 36 replica-hours of batch a day. Each
    // reserved replica leaves 0.5 free per hour (the online one 0): 3 reserved give 24, 4 give 36.
    // 4 × 24 × 2.4 = 230.4 per day (the naive fleet: ⌈2 / 0.5⌉ = 4).
    const plan = optimizeBlendedPlan(input({ profile: flat(2), batchShare: 0.75, targetUtilization: 0.5, prices: { res: '2.4' } }));
    expect(plan.reservedInstances).toBe(4);
    expect(plan.costPerPeriod).toBeCloseTo(230.4, 9);
  });

  it('sends low-traffic hours to serverless when busy time is cheaper than an instance', () => {
    // 0.1 rps on μ = 1 → 0.1 busy replica-hours per hour × 10 = 1 < 4 on-demand
    const plan = optimizeBlendedPlan(input({ profile: flat(0.1), prices: { od: '4', serverless: '10' } }));
    expect(plan.serverlessReplicaHours).toBeCloseTo(2.4, 9);
    expect(plan.costPerPeriod).toBeCloseTo(24, 9);
  });
});

/** A small world (few replicas, exact binary fractions) as the brute-force reference and the optimizer see it. */
const smallWorld = fc
  .record({
    // Requests/s in quarters, many empty hours; μ = 1 and u ∈ {0.5, 1} keep replica counts exact.
    totals: fc.array(
      fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 12 })).map((q) => q / 4),
      { minLength: 24, maxLength: 24 },
    ),
    batchShare: fc.constantFrom(0, 0.25, 0.5),
    targetUtilization: fc.constantFrom(0.5, 1),
    minReplicas: fc.constantFrom(0, 1, 2),
    scaleToZero: fc.boolean(),
    tolerance: fc.constantFrom<InterruptionTolerance>('INTOLERANT', 'RECOVERABLE', 'TOLERANT'),
    recoverableSpotShare: fc.constantFrom(0, 0.25, 0.5, 0.75, 1),
    modelLoadHours: fc.constantFrom(0.1, 0.5, 1.5),
    // Prices per instance-hour (cents) and instance sizes; any tier may be missing.
    onDemand: fc.option(fc.record({ cents: fc.integer({ min: 100, max: 800 }), replicas: fc.constantFrom(1, 2, 4) }), { nil: null }),
    reserved: fc.option(fc.record({ cents: fc.integer({ min: 30, max: 700 }), replicas: fc.constantFrom(1, 2, 4) }), { nil: null }),
    spot: fc.option(fc.record({ cents: fc.integer({ min: 20, max: 900 }), replicas: fc.constantFrom(1, 2, 4) }), { nil: null }),
    serverless: fc.option(fc.integer({ min: 50, max: 1200 }), { nil: null }),
  })
  .map((w): { world: ReferenceWorld; input: PlanInput } => {
    const mu = 1;
    const u = w.targetUtilization;
    const online = w.totals.map((t) => t * (1 - w.batchShare));
    const onlineReplicas = online.map((rps) => (w.scaleToZero && rps === 0 ? 0 : Math.max(w.minReplicas, Math.ceil(rps / (mu * u)))));
    const batchReplicaHours = w.totals.reduce((sum, t) => sum + (t * w.batchShare) / mu, 0);
    const tier = (t: { cents: number; replicas: number } | null): ReferenceTier | null => t && { price: t.cents / 100, replicasPerInstance: t.replicas };
    const world: ReferenceWorld = {
      onlineRequestsPerSecond: online,
      onlineReplicas,
      batchReplicaHours,
      replicaRequestsPerSecond: mu,
      targetUtilization: u,
      minReplicas: w.minReplicas,
      scaleToZero: w.scaleToZero,
      tolerance: w.tolerance,
      recoverableSpotShare: w.recoverableSpotShare,
      modelLoadHours: w.modelLoadHours,
      reserved: tier(w.reserved),
      onDemand: tier(w.onDemand),
      spot: tier(w.spot),
      serverless: w.serverless === null ? null : w.serverless / 100,
    };
    const planTier = (model: 'ON_DEMAND' | 'RESERVED_1Y' | 'SPOT', t: ReferenceTier | null): PlanTier | null =>
      t && {
        offer: offer(model, t.price.toFixed(2), { gpusPerInstance: t.replicasPerInstance }),
        replicasPerInstance: t.replicasPerInstance,
        pricePerInstanceHour: t.price,
        // The planner prices with pricePerInstanceHour only: no spot overhead on top.
        overhead: 1,
        interruptionsPerHour: null,
        interruptionBasis: null,
      };
    const input: PlanInput = {
      demand: {
        onlineRequestsPerSecond: online,
        onlineReplicas,
        batchReplicaHoursPerPeriod: batchReplicaHours,
        batchRequestsPerPeriod: batchReplicaHours * mu * 3600,
        totalRequestsPerPeriod: w.totals.reduce((sum, t) => sum + t * 3600, 0),
        busyReplicaHoursPerPeriod: w.totals.reduce((sum, t) => sum + t / mu, 0),
        naivePeakReplicas: Math.max(w.minReplicas, 1, Math.ceil(Math.max(...w.totals) / (mu * u))),
      },
      tiers: {
        reserved: planTier('RESERVED_1Y', world.reserved),
        onDemand: planTier('ON_DEMAND', world.onDemand),
        spot: w.tolerance === 'INTOLERANT' ? null : planTier('SPOT', world.spot),
        serverless: world.serverless === null ? null : { offer: offer('SERVERLESS', world.serverless.toFixed(2)), pricePerReplicaBusyHour: world.serverless },
      },
      tolerance: w.tolerance,
      recoverableSpotShare: w.recoverableSpotShare,
      replicaRequestsPerSecond: mu,
      targetUtilization: u,
      modelLoadHours: w.modelLoadHours,
      scaleToZero: w.scaleToZero,
      minReplicas: w.minReplicas,
    };
    return { world, input };
  });

describe(`${optimizeBlendedPlan.name} against a brute-force reference`, () => {
  it('finds the cheapest plan of its space on small fleets, whatever the tiers, tolerance and batch', () => {
    fc.assert(
      fc.property(smallWorld, ({ world, input }) => {
        const reference = bruteForcePlan(world);
        const plan = optimizeBlendedPlan(input);
        if (reference === null) {
          expect(plan.costPerPeriod).toBe(Infinity);
          return;
        }
        expect(Math.abs(plan.costPerPeriod - reference.cost)).toBeLessThanOrEqual(1e-9 * Math.max(1, reference.cost));
      }),
      { numRuns: 300 },
    );
  });
});

describe(blendedCostLowerBound.name, () => {
  it('is the cost itself when nothing can be saved: 2 replicas all day on on-demand at 4', () => {
    // 24 h × 2 replicas × 4 = 192 per day, busy every paid hour (u = 1).
    const p = input({ profile: flat(2), prices: { od: '4' } });
    expect(optimizeBlendedPlan(p).costPerPeriod).toBeCloseTo(192, 9);
    expect(blendedCostLowerBound(p)).toBeLessThanOrEqual(192);
    expect(blendedCostLowerBound(p)).toBeGreaterThan(192 * (1 - 1e-5));
  });

  it('counts busy time only where serverless can take the hour: 0.1 busy replica-hours per hour at 10', () => {
    // Serverless: 24 × 0.1 × 10 = 24 per day; a dedicated replica would cost 24 × 4 = 96.
    const p = input({ profile: flat(0.1), prices: { od: '4', serverless: '10' } });
    expect(blendedCostLowerBound(p)).toBeCloseTo(24, 3);
    expect(blendedCostLowerBound(p)).toBeLessThanOrEqual(optimizeBlendedPlan(p).costPerPeriod);
  });

  it('never exceeds the cheapest plan of the space (brute-force reference) or the optimizer’s answer', () => {
    fc.assert(
      fc.property(smallWorld, ({ world, input }) => {
        const bound = blendedCostLowerBound(input);
        const reference = bruteForcePlan(world);
        expect(bound).toBeLessThanOrEqual(reference?.cost ?? Infinity);
        expect(bound).toBeLessThanOrEqual(optimizeBlendedPlan(input).costPerPeriod);
      }),
      { numRuns: 300 },
    );
  });

  it('never exceeds the optimizer’s answer on larger fleets, instance sizes and serverless prices', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 24, maxLength: 24 }),
        fc.constantFrom(0, 0.2, 0.5),
        fc.constantFrom<InterruptionTolerance>('INTOLERANT', 'RECOVERABLE', 'TOLERANT'),
        fc.boolean(),
        fc.constantFrom(1, 2, 8),
        fc.constantFrom(0.5, 0.75, 1),
        fc.option(fc.constantFrom('0.5', '3', '9'), { nil: undefined }),
        fc.record({ od: fc.constantFrom('4', '6'), res: fc.constantFrom('1.5', '2.4', undefined), spot: fc.constantFrom('1.2', '5', undefined) }),
        (tenths, batchShare, tolerance, scaleToZero, gpus, targetUtilization, serverless, prices) => {
          const p = input({
            profile: tenths.map((x) => x / 10),
            batchShare,
            tolerance,
            scaleToZero,
            gpusPerInstance: gpus,
            targetUtilization,
            prices: { ...prices, ...(serverless ? { serverless } : {}) },
          });
          expect(blendedCostLowerBound(p)).toBeLessThanOrEqual(optimizeBlendedPlan(p).costPerPeriod);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe(periodCost.name, () => {
  it('prices every reservation size, spill tier and threshold exactly like planPeriod, and counts the same hours', () => {
    const tolerance = fc.constantFrom<InterruptionTolerance>('INTOLERANT', 'RECOVERABLE', 'TOLERANT');
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 24, maxLength: 24 }),
        fc.constantFrom(0, 0.2, 0.5),
        tolerance,
        fc.boolean(),
        fc.constantFrom(1, 2, 8),
        fc.integer({ min: 0, max: 8 }),
        fc.boolean(),
        fc.constantFrom<BurstMode>('BY_TOLERANCE', 'ON_DEMAND'),
        fc.constantFrom(0.1, 2),
        fc.constantFrom<SpillTier | undefined>(undefined, 'SPOT', 'ON_DEMAND', 'SERVERLESS'),
        (tenths, batchShare, tol, scaleToZero, gpus, reserved, serverless, burst, modelLoadHours, spillTier) => {
          const p = {
            ...input({
              profile: tenths.map((x) => x / 10),
              batchShare,
              tolerance: tol,
              scaleToZero,
              gpusPerInstance: gpus,
              modelLoadHours,
              prices: { od: '4', res: '2.4', spot: '1.2', ...(serverless ? { serverless: '9' } : {}) },
            }),
            burst,
            spillTier,
          };
          const order = [...p.demand.onlineReplicas.keys()].sort((a, b) => at(p.demand.onlineReplicas, a) - at(p.demand.onlineReplicas, b) || a - b);
          for (const threshold of [-1, 0.3, 2]) {
            const totals: PlanTotals = {
              instanceHours: { reserved: -1, onDemand: -1, spot: -1 },
              serverlessReplicaHours: -1,
              costPerPeriod: -1,
              batchSpillTier: 'SPOT',
            };
            const cost = periodCost(p, reserved, order, threshold, totals);
            const plan = planPeriod(p, reserved, order, threshold);
            expect(cost).toBeCloseTo(plan.costPerPeriod, 9);
            if (cost === Infinity) continue;
            expect(totals.costPerPeriod).toBeCloseTo(cost, 9);
            expect(totals.serverlessReplicaHours).toBeCloseTo(plan.serverlessReplicaHours, 9);
            expect(totals.batchSpillTier).toBe(plan.batchSpillTier);
            for (const tier of ['reserved', 'onDemand', 'spot'] as const) expect(totals.instanceHours[tier]).toBeCloseTo(plan.instanceHours[tier], 9);
          }
        },
      ),
    );
  });
});

describe(planTierChoices.name, () => {
  const settings = { objective: 'COST', egressPriceOf: () => null, interruptionsPerHour: 0, modelLoadHours: 0, lostWorkHours: 0 } as const;

  it('never offers spot to INTOLERANT traffic and prefers the cheaper reservation term', () => {
    const choices = planTierChoices({
      ...settings,
      offers: [offer('SPOT', '1'), offer('RESERVED_1Y', '2.5'), offer('RESERVED_3Y', '1.8')],
      tensorParallel: 1,
      tolerance: 'INTOLERANT',
    });
    // The 3-year term is cheaper at the same size: the 1-year one is dominated, spot is not allowed.
    expect(choices.map((t) => [t.reserved?.offer.pricingModel, t.spot])).toEqual([['RESERVED_3Y', null]]);
  });

  it('drops instances too small for the replica', () => {
    const choices = planTierChoices({
      ...settings,
      offers: [offer('ON_DEMAND', new Decimal(4), { gpusPerInstance: 1 })],
      tensorParallel: 2,
      tolerance: 'INTOLERANT',
    });
    expect(choices).toEqual([]);
  });
});
