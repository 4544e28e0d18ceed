// Right-sizing with `keep` (estimate.ts passes 1 + the alternatives it lists) skips options that
// cannot be among the `keep` best GPU × precision pairs: the best option of each of those pairs
// must be exactly the one planning every option finds.
import fc from 'fast-check';
import type { PricingModel } from '../catalog/catalog.types.js';
import type { InterruptionTolerance } from '../compliance/policy.js';
import { Decimal } from '../money/money.js';
import { resolveModel } from '../sizing/model.js';
import type { Precision } from '../sizing/precision.js';
import { defined } from '../checked.js';
import { DEFAULT_INTER_TOKEN_LATENCY_MS } from './calibration.js';
import { diurnalProfile, GPUS, offer } from './estimate.factories.js';
import type { GpuCandidate } from './estimate.types.js';
import { compareEvaluations, evaluateCandidates, type Evaluation, type RightSizingSettings } from './right-sizing.js';

const MODEL = (() => {
  const resolved = resolveModel({ model: { preset: 'llama-3-8b' } });
  if (!resolved.ok) throw new Error(resolved.reason);
  return resolved.model;
})();

function settings(candidates: GpuCandidate[], overrides: Partial<RightSizingSettings> = {}): RightSizingSettings {
  return {
    model: MODEL,
    precisions: ['FP16'],
    candidates,
    hourlyRequestsPerSecond: diurnalProfile(40),
    avgInputTokens: 500,
    avgOutputTokens: 200,
    batchShare: 0,
    interTokenLatencyMs: DEFAULT_INTER_TOKEN_LATENCY_MS,
    targetUtilization: 0.75,
    minReplicas: 1,
    scaleToZero: false,
    tolerance: 'INTOLERANT',
    recoverableSpotShare: 0.5,
    interruptionsPerHour: 0.05,
    lostWorkMinutes: 5,
    modelLoadSeconds: undefined,
    hoursPerMonth: 730,
    egressGbPerMonth: 0,
    egressPricePerGb: undefined,
    measuredThroughput: [],
    objective: 'COST',
    carbon: { idleShare: 1 },
    ...overrides,
  };
}

const pairOf = (e: Evaluation): string => `${e.candidateIndex}/${e.precision}`;

/** The best option of each of the `keep` best GPU × precision pairs, best first: what the answer is made of. */
function answer(evaluations: Evaluation[], keep: number) {
  const best = new Map<string, Evaluation>();
  for (const e of [...evaluations].sort(compareEvaluations)) {
    if (best.size === keep) break;
    if (!best.has(pairOf(e))) best.set(pairOf(e), e);
  }
  return [...best.values()].map((e) => ({ pair: pairOf(e), tensorParallel: e.tensorParallel, cost: e.monthlyCostEstimate }));
}

const gpuArb = fc.record({
  gpu: fc.constantFrom(GPUS.t4, GPUS.l4, GPUS.a10g, GPUS.l40s, GPUS.a100_80, GPUS.h100, GPUS.h200),
  gpusPerInstance: fc.constantFrom(1, 2, 4, 8),
  // Prices per GPU-hour in cents; any tier but on-demand may be missing.
  onDemand: fc.integer({ min: 50, max: 1200 }),
  reserved: fc.option(fc.integer({ min: 30, max: 110 }), { nil: null }),
  spot: fc.option(fc.integer({ min: 15, max: 90 }), { nil: null }),
  serverless: fc.option(fc.integer({ min: 80, max: 400 }), { nil: null }),
  egressCentsPerGb: fc.option(fc.integer({ min: 0, max: 12 }), { nil: null }),
});

type GpuRow = typeof gpuArb extends fc.Arbitrary<infer T> ? T : never;

function candidateOf(g: GpuRow): GpuCandidate {
  const od = new Decimal(g.onDemand).div(100);
  const perGpu: Partial<Record<PricingModel, Decimal>> = {
    ON_DEMAND: od,
    ...(g.reserved === null ? {} : { RESERVED_1Y: od.mul(g.reserved).div(100) }),
    ...(g.spot === null ? {} : { SPOT: od.mul(g.spot).div(100) }),
    ...(g.serverless === null ? {} : { SERVERLESS: od.mul(g.serverless).div(100) }),
  };
  const egressPricePerGb = g.egressCentsPerGb === null ? null : new Decimal(g.egressCentsPerGb).div(100);
  const offers = (Object.entries(perGpu) as [PricingModel, Decimal][]).map(([model, price]) =>
    offer(model, price.mul(g.gpusPerInstance), { ref: `${g.gpu.slug}/${model}`, gpusPerInstance: g.gpusPerInstance, egressPricePerGb }),
  );
  return { gpu: g.gpu, offers };
}

describe(`${evaluateCandidates.name} with keep`, () => {
  it('finds the best option of each of the keep best GPU × precision pairs exactly as planning every option does', () => {
    fc.assert(
      fc.property(
        fc.array(gpuArb, { minLength: 1, maxLength: 6 }),
        fc.subarray<Precision>(['FP16', 'FP8', 'INT8', 'INT4'], { minLength: 1 }),
        fc.constantFrom(0.5, 5, 40, 300),
        fc.constantFrom(0, 0.15, 0.5),
        fc.constantFrom<InterruptionTolerance>('INTOLERANT', 'RECOVERABLE', 'TOLERANT'),
        fc.boolean(),
        fc.constantFrom(0, 500),
        fc.integer({ min: 1, max: 6 }),
        (gpus, precisions, peak, batchShare, tolerance, scaleToZero, egressGbPerMonth, keep) => {
          const s = settings(gpus.map(candidateOf), {
            precisions,
            hourlyRequestsPerSecond: diurnalProfile(peak),
            batchShare,
            tolerance,
            scaleToZero,
            egressGbPerMonth,
          });
          const all = evaluateCandidates(s);
          const pruned = evaluateCandidates(s, { keep });
          expect(answer(pruned.evaluations, keep)).toEqual(answer(all.evaluations, keep));
          // What is planned is planned the same way; what was checked before planning is all there.
          for (const e of pruned.evaluations) {
            const same = defined(
              all.evaluations.find((a) => pairOf(a) === pairOf(e) && a.tensorParallel === e.tensorParallel),
              'the same option, planned without keep',
            );
            expect(e.monthlyCostEstimate).toBe(same.monthlyCostEstimate);
          }
          expect(pruned.notes).toEqual(all.notes);
          expect(pruned.tooLargeGpus).toBe(all.tooLargeGpus);
          expect(pruned.anyFit).toBe(all.anyFit);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('does not plan a GPU whose cheapest conceivable plan costs more than the keep best already planned', () => {
    // Three GPUs of the same kind at 2, 3 and 40 per GPU-hour, on-demand only: with keep = 2 the
    // first two pairs are planned first (lowest bounds); the third's bound is 20 times the first's
    // cost bound, above the second's cost, so it is skipped. Without keep all three are planned.
    const s = settings([
      candidateOf({ gpu: GPUS.h100, gpusPerInstance: 1, onDemand: 200, reserved: null, spot: null, serverless: null, egressCentsPerGb: null }),
      candidateOf({ gpu: GPUS.h100, gpusPerInstance: 1, onDemand: 300, reserved: null, spot: null, serverless: null, egressCentsPerGb: null }),
      candidateOf({ gpu: GPUS.h100, gpusPerInstance: 1, onDemand: 4000, reserved: null, spot: null, serverless: null, egressCentsPerGb: null }),
    ]);
    const planned = (keep?: number) => [...new Set(evaluateCandidates(s, keep === undefined ? {} : { keep }).evaluations.map((e) => e.candidateIndex))];
    expect(planned()).toEqual([0, 1, 2]);
    expect(planned(2)).toEqual([0, 1]);
    expect(planned(3)).toEqual([0, 1, 2]);
  });
});
