// Right-sizing (docs/cost-model.md#right-sizing-and-alternatives): every allowed GPU × precision × tensor-parallel degree is
// planned in plain numbers; the cheapest wins. Money is recomputed in Decimal for the result.
import { PRICING_MODEL_TRAITS } from '../catalog/pricing-model-traits.js';
import type { InterruptionTolerance } from '../compliance/policy.js';
import { fitReplica, type ReplicaMemory } from '../sizing/fit.js';
import type { ModelSpec } from '../sizing/model-presets.js';
import { weightBytes } from '../sizing/model.js';
import { PRECISIONS, type Precision } from '../sizing/precision.js';
import { blendedCostLowerBound, optimizeBlendedPlan } from './blended-plan.js';
import { planDay, type DayPlan, type PlanInput } from './plan-day.js';
import { HOURS_PER_DAY, hourlyDemand, type HourlyDemand } from './demand.js';
import type { GpuCandidate, MeasuredThroughputInput } from './estimate.types.js';
import { planTiers, type PlanTier, type PlanTiers } from './plan-tiers.js';
import { estimateReplicaThroughput, measuredReplicaThroughput, type ReplicaThroughput } from './throughput.js';

/** Container and engine start (CUDA graph capture) before weights load. */
export const MODEL_START_SECONDS = 60;
/** Weights streamed from object storage / local NVMe. */
export const MODEL_LOAD_GB_PER_SECOND = 1;

export interface RightSizingSettings {
  model: ModelSpec;
  precisions: readonly Precision[];
  candidates: readonly GpuCandidate[];
  hourlyRequestsPerSecond: readonly number[];
  avgInputTokens: number;
  avgOutputTokens: number;
  batchShare: number;
  interTokenLatencyMs: number;
  targetUtilization: number;
  minReplicas: number;
  scaleToZero: boolean;
  tolerance: InterruptionTolerance;
  recoverableSpotShare: number;
  /** The caller's spot interruption rate for every spot offer; undefined: each offer's band, else the default (plan-tiers.ts). */
  interruptionsPerHour: number | undefined;
  lostWorkMinutes: number;
  modelLoadSeconds: number | undefined;
  hoursPerMonth: number;
  egressGbPerMonth: number;
  measuredThroughput: readonly MeasuredThroughputInput[];
}

/** A plan and the tier each of its slots was priced with. */
export interface PricedPlan {
  plan: DayPlan;
  tiers: PlanTiers;
}

export interface Evaluation {
  candidateIndex: number;
  candidate: GpuCandidate;
  precision: Precision;
  tensorParallel: number;
  memory: ReplicaMemory;
  throughput: ReplicaThroughput;
  demand: HourlyDemand;
  tiers: PlanTiers;
  modelLoadSeconds: number;
  blended: PricedPlan;
  /**
   * Best plan without serverless (the dedicated side of the serverless comparison); null without
   * a serverless offer. This and the two baselines are planned on first read: only the chosen
   * plan and the alternatives are ever priced, so the others never pay for them.
   */
  readonly dedicatedOnly: PricedPlan | null;
  readonly autoscaled: PricedPlan;
  readonly naive: PricedPlan;
  /** What the baselines are priced at: on-demand, else reserved, else spot. */
  baselineTier: PlanTier;
  /** The blended plan plus egress, per month (comparison only). */
  monthlyCostEstimate: number;
}

/**
 * The most GPUs one estimate plans at the peak. Far beyond any single inference deployment (the
 * largest public clusters are of this order), it keeps one request from asking for a plan of
 * trillions of GPU-hours; such a workload is answered with TOO_LARGE (HTTP 422).
 */
export const MAX_PLANNED_GPUS = 100_000;

export interface RightSizingResult {
  evaluations: Evaluation[];
  /** The fewest GPUs at the peak among candidates skipped for needing more than MAX_PLANNED_GPUS. */
  tooLargeGpus: number | null;
  /** Largest GPU (memory × GPUs per instance) that was tried, for a NO_FIT answer. */
  largestTried: { candidate: GpuCandidate; gpusPerInstance: number; reason: string } | null;
  anyFit: boolean;
  notes: string[];
}

/**
 * Every allowed GPU × precision × tensor-parallel option, planned. With `keep` (1 + the number
 * of alternatives the answer lists), options that provably cannot be among the `keep` best
 * GPU × precision pairs are not planned at all (see plannedInRankOrder); the ones returned are
 * exactly those the answer needs, planned exactly as without `keep`.
 */
export function evaluateCandidates(s: RightSizingSettings, { keep = Infinity }: { keep?: number } = {}): RightSizingResult {
  const pending: Pending[] = [];
  const notes: string[] = [];
  let largestTried: RightSizingResult['largestTried'] = null;
  let largestCapacity = -1;
  let anyFit = false;
  let tooLargeGpus: number | null = null;

  s.candidates.forEach((candidate, candidateIndex) => {
    const offers = Object.values(candidate.offers).filter((o) => o !== undefined);
    if (offers.length === 0) return;
    const gpusPerInstance = Math.max(...offers.map((o) => o.gpusPerInstance));
    for (const precision of s.precisions) {
      const fit = fitReplica({
        model: s.model,
        precision,
        gpuMemoryGb: candidate.gpu.memoryGb,
        gpusPerInstance,
        contextTokens: s.avgInputTokens + s.avgOutputTokens,
      });
      if (!fit.fits) {
        const capacity = candidate.gpu.memoryGb * Math.min(8, gpusPerInstance);
        if (capacity > largestCapacity) {
          largestCapacity = capacity;
          largestTried = { candidate, gpusPerInstance, reason: fit.reason };
        }
        continue;
      }
      anyFit = true;
      const measured = s.measuredThroughput.find(
        (m) => (m.gpuSlug === undefined || m.gpuSlug === candidate.gpu.slug) && (m.precision === undefined || m.precision === precision),
      );
      // A measurement describes one deployment: take it as the smallest replica that fits.
      const options = measured ? fit.options.slice(0, 1) : fit.options;
      for (const memory of options) {
        const prepared = prepareOne({ s, candidate, candidateIndex, precision, memory, measured });
        if (typeof prepared === 'string') notes.push(prepared);
        else if ('tooLargeGpus' in prepared) tooLargeGpus = Math.min(tooLargeGpus ?? Infinity, prepared.tooLargeGpus);
        else pending.push(prepared);
      }
    }
  });
  const evaluations = plannedInRankOrder(s, pending, keep);
  return { evaluations, tooLargeGpus, largestTried, anyFit, notes: [...new Set(notes)] };
}

/** An option with everything but its plans: what ranking needs to know before planning. */
interface Pending {
  candidateIndex: number;
  candidate: GpuCandidate;
  precision: Precision;
  memory: ReplicaMemory;
  throughput: ReplicaThroughput;
  demand: HourlyDemand;
  tiers: PlanTiers;
  modelLoadSeconds: number;
  baselineTier: PlanTier;
  planInput: PlanInput;
  /** The blended plan's cost can be no lower than this (monthlyCostEstimate's formula on blendedCostLowerBound). */
  lowerBound: number;
}

/**
 * Plans the options best bound first and skips an option when `keep` GPU × precision pairs
 * already have a planned option that ranks strictly before it (compareEvaluations) whatever its
 * cost: meeting the latency target when it does not, or costing less than its lower bound. Such
 * an option is never the best of a pair among the `keep` best, so the answer (the winner and the
 * best option of each of the next pairs) is the same as with every option planned. The order in
 * which options are planned changes nothing else: each plan depends on its own option only.
 */
function plannedInRankOrder(s: RightSizingSettings, pending: Pending[], keep: number): Evaluation[] {
  const byBound = pending
    .map((p, order) => ({ p, order }))
    .sort(
      (a, b) => Number(b.p.throughput.meetsLatencyTarget) - Number(a.p.throughput.meetsLatencyTarget) || a.p.lowerBound - b.p.lowerBound || a.order - b.order,
    );
  const planned: { evaluation: Evaluation; order: number }[] = [];
  /** The best planned option of each GPU × precision pair. */
  const bestOfPair = new Map<string, Evaluation>();
  for (const { p, order } of byBound) {
    if (bestOfPair.size >= keep) {
      let ahead = 0;
      for (const e of bestOfPair.values()) {
        const latency = Number(e.throughput.meetsLatencyTarget) - Number(p.throughput.meetsLatencyTarget);
        if (latency > 0 || (latency === 0 && e.monthlyCostEstimate < p.lowerBound)) ahead += 1;
      }
      if (ahead >= keep) continue;
    }
    const evaluation = planOne(s, p);
    planned.push({ evaluation, order });
    const key = `${p.candidateIndex}/${p.precision}`;
    const best = bestOfPair.get(key);
    if (!best || compareEvaluations(evaluation, best) < 0) bestOfPair.set(key, evaluation);
  }
  return planned.sort((a, b) => a.order - b.order).map((x) => x.evaluation);
}

function prepareOne({
  s,
  candidate,
  candidateIndex,
  precision,
  memory,
  measured,
}: {
  s: RightSizingSettings;
  candidate: GpuCandidate;
  candidateIndex: number;
  precision: Precision;
  memory: ReplicaMemory;
  measured: MeasuredThroughputInput | undefined;
}): Pending | string | { tooLargeGpus: number } {
  const t = memory.tensorParallel;
  const throughput = measured
    ? measuredReplicaThroughput({ ...measured, avgOutputTokens: s.avgOutputTokens, memoryBatchLimit: memory.maxBatch })
    : estimateReplicaThroughput({
        model: s.model,
        precision,
        gpu: candidate.gpu,
        tensorParallel: t,
        avgInputTokens: s.avgInputTokens,
        avgOutputTokens: s.avgOutputTokens,
        interTokenLatencyMs: s.interTokenLatencyMs,
      });
  if (!throughput || !(throughput.requestsPerSecond > 0)) return `no throughput for ${candidate.gpu.slug}`;

  const modelLoadSeconds = s.modelLoadSeconds ?? MODEL_START_SECONDS + weightBytes({ model: s.model, precision }) / 1e9 / MODEL_LOAD_GB_PER_SECOND;
  const tiers = planTiers({
    offers: candidate.offers,
    tensorParallel: t,
    tolerance: s.tolerance,
    interruptionsPerHour: s.interruptionsPerHour,
    modelLoadHours: modelLoadSeconds / 3600,
    lostWorkHours: s.lostWorkMinutes / 60,
  });
  const baselineTier = tiers.onDemand ?? tiers.reserved ?? tiers.spot;
  if (!baselineTier) {
    return `${candidate.gpu.slug}: no on-demand, reserved or allowed spot offer holds a ${t}-GPU replica`;
  }
  const demand = hourlyDemand({
    hourlyRequestsPerSecond: s.hourlyRequestsPerSecond,
    batchShare: s.batchShare,
    replicaRequestsPerSecond: throughput.requestsPerSecond,
    targetUtilization: s.targetUtilization,
    minReplicas: s.minReplicas,
    scaleToZero: s.scaleToZero,
  });
  // Checked before any planning: the plan's work must not grow with the request rate.
  if (demand.naivePeakReplicas * t > MAX_PLANNED_GPUS) return { tooLargeGpus: demand.naivePeakReplicas * t };
  const planInput: PlanInput = {
    demand,
    tiers,
    tolerance: s.tolerance,
    recoverableSpotShare: s.recoverableSpotShare,
    replicaRequestsPerSecond: throughput.requestsPerSecond,
    targetUtilization: s.targetUtilization,
    modelLoadHours: modelLoadSeconds / 3600,
    scaleToZero: s.scaleToZero,
    minReplicas: s.minReplicas,
  };
  return {
    candidateIndex,
    candidate,
    precision,
    memory,
    throughput,
    demand,
    tiers,
    modelLoadSeconds,
    baselineTier,
    planInput,
    lowerBound: monthlyCostEstimate(s, candidate, blendedCostLowerBound(planInput)),
  };
}

/** The blended plan plus egress, per month; non-decreasing in costPerDay (lower bounds stay lower bounds). */
function monthlyCostEstimate(s: RightSizingSettings, candidate: GpuCandidate, costPerDay: number): number {
  const egressPricePerGb = candidate.egressPricePerGb?.toNumber() ?? 0;
  return (costPerDay * s.hoursPerMonth) / HOURS_PER_DAY + s.egressGbPerMonth * egressPricePerGb;
}

function planOne(s: RightSizingSettings, p: Pending): Evaluation {
  const { planInput, tiers, baselineTier } = p;
  // The optimizer's space holds both baselines: no clamp to them here (estimate.ts asserts it).
  const blended: PricedPlan = { plan: optimizeBlendedPlan(planInput), tiers };
  let naive: PricedPlan | undefined;
  let autoscaled: PricedPlan | undefined;
  let dedicatedOnly: PricedPlan | null | undefined;
  const naiveOnce = (): PricedPlan => (naive ??= naivePlan({ planInput, baselineTier }));
  return {
    candidateIndex: p.candidateIndex,
    candidate: p.candidate,
    precision: p.precision,
    tensorParallel: p.memory.tensorParallel,
    memory: p.memory,
    throughput: p.throughput,
    demand: p.demand,
    tiers,
    modelLoadSeconds: p.modelLoadSeconds,
    blended,
    get dedicatedOnly(): PricedPlan | null {
      if (dedicatedOnly === undefined) {
        const dedicatedTiers = { ...tiers, serverless: null };
        dedicatedOnly = tiers.serverless ? { plan: optimizeBlendedPlan({ ...planInput, tiers: dedicatedTiers }), tiers: dedicatedTiers } : null;
      }
      return dedicatedOnly;
    },
    get naive(): PricedPlan {
      return naiveOnce();
    },
    get autoscaled(): PricedPlan {
      return (autoscaled ??= autoscaledPlan({ planInput, baselineTier, naive: naiveOnce() }));
    },
    baselineTier,
    monthlyCostEstimate: monthlyCostEstimate(s, p.candidate, blended.plan.costPerDay),
  };
}

const baselineTiers = (tier: PlanTier): PlanTiers => ({ reserved: null, onDemand: tier, spot: null, serverless: null });

/** Peak replicas of the whole profile (batch not deferred), 24 hours a day. */
function naivePlan({ planInput, baselineTier }: { planInput: PlanInput; baselineTier: PlanTier }): PricedPlan {
  const peak = planInput.demand.naivePeakReplicas;
  const demand: HourlyDemand = {
    ...planInput.demand,
    onlineReplicas: planInput.demand.onlineReplicas.map(() => peak),
    batchReplicaHoursPerDay: 0,
  };
  const tiers = baselineTiers(baselineTier);
  return {
    plan: planDay({ ...planInput, demand, tiers, tolerance: 'INTOLERANT', scaleToZero: false }, 0),
    tiers,
  };
}

/**
 * The baseline tier alone, following the hourly demand, batch included: the best plan with no
 * other tier (scaling to zero only where it pays for its model loads).
 */
function autoscaledPlan({ planInput, baselineTier, naive }: { planInput: PlanInput; baselineTier: PlanTier; naive: PricedPlan }): PricedPlan {
  // A reservation cannot follow demand: with no on-demand offer, autoscaling is the naive plan.
  if (PRICING_MODEL_TRAITS[baselineTier.offer.pricingModel].isReserved) return naive;
  const tiers = baselineTiers(baselineTier);
  return { plan: optimizeBlendedPlan({ ...planInput, tiers, tolerance: 'INTOLERANT' }), tiers };
}

/** Meets the latency target first, then cheapest, then input order (deterministic). */
export function compareEvaluations(a: Evaluation, b: Evaluation): number {
  const latency = Number(b.throughput.meetsLatencyTarget) - Number(a.throughput.meetsLatencyTarget);
  if (latency !== 0) return latency;
  if (a.monthlyCostEstimate !== b.monthlyCostEstimate) return a.monthlyCostEstimate - b.monthlyCostEstimate;
  return a.candidateIndex - b.candidateIndex || PRECISIONS.indexOf(a.precision) - PRECISIONS.indexOf(b.precision) || a.tensorParallel - b.tensorParallel;
}
