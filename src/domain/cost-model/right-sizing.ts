// Right-sizing (docs/cost-model.md#right-sizing-and-alternatives): every allowed GPU × precision × tensor-parallel degree is
// planned in plain numbers; the cheapest wins. Money is recomputed in Decimal for the result.
import type { InterruptionTolerance } from '../compliance/policy.js';
import { fitReplica, type ReplicaMemory } from '../sizing/fit.js';
import type { ModelSpec } from '../sizing/model-presets.js';
import { weightBytes } from '../sizing/model.js';
import { PRECISIONS, type Precision } from '../sizing/precision.js';
import { blendedCostLowerBound, optimizeBlendedPlan } from './blended-plan.js';
import { planPeriod, type PeriodPlan, type PlanInput, type PlanTotals } from './plan-period.js';
import { hourlyDemand, type HourlyDemand } from './demand.js';
import type { GpuCandidate, MeasuredThroughputInput } from './estimate.types.js';
import { planTierChoices, type PlanTier, type PlanTiers } from './plan-tiers.js';
import { carbonWeightedTiers, planCarbonPerPeriod, repriced, type CarbonModel, type Objective } from './objective.js';
import { egressPriceOf, tierGpuHours, type EgressInput } from './plan-costing.js';
import type { Decimal } from '../money/money.js';
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
  /** The caller's egress price per GB, for providers whose own is unknown. */
  egressPricePerGb: Decimal | undefined;
  measuredThroughput: readonly MeasuredThroughputInput[];
  /** What the plans minimise (objective.ts): COST, or CARBON at the plan's utilization. */
  objective: Objective;
  carbon: CarbonModel;
}

/** A plan and the tier each of its slots was priced with. */
export interface PricedPlan {
  plan: PeriodPlan;
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
  /** The baselines, on-demand only; null when no on-demand offer holds a replica. */
  readonly autoscaled: PricedPlan | null;
  readonly naive: PricedPlan | null;
  /** What the baselines are priced at: the on-demand tier; null when there is none. */
  baselineTier: PlanTier | null;
  /** The blended plan plus egress, per month (comparison only). */
  monthlyCostEstimate: number;
  /** The blended plan's g CO2e per month by the answer's formula (objective.ts); huge with an offer of unknown carbon. */
  carbonPerMonth: number;
  /**
   * Tiers the plan leaves out although they would lower the GPU cost: their provider's egress
   * price made the plan dearer in total (empty when none was).
   */
  leftOutForEgress: PlanTier['offer'][];
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
    const offers = candidate.offers;
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
        else pending.push(...prepared);
      }
    }
  });
  const evaluations = plannedInRankOrder(s, pending, keep, notes);
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
  baselineTier: PlanTier | null;
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
function plannedInRankOrder(s: RightSizingSettings, pending: Pending[], keep: number, notes: string[]): Evaluation[] {
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
    if (!evaluation.blended.plan.feasible) {
      // No mix of the allowed tiers serves every hour: an answer from it would not hold.
      notes.push(infeasibleNote(s, p));
      continue;
    }
    planned.push({ evaluation, order });
    const key = `${p.candidateIndex}/${p.precision}`;
    const best = bestOfPair.get(key);
    if (!best || compareEvaluations(evaluation, best) < 0) bestOfPair.set(key, evaluation);
  }
  return planned.sort((a, b) => a.order - b.order).map((x) => x.evaluation);
}

/** Why no plan of an option serves every hour (the tiers that could are missing). */
function infeasibleNote(s: RightSizingSettings, p: Pending): string {
  const t = p.memory.tensorParallel;
  const { onDemand, reserved, serverless } = p.tiers;
  if (s.tolerance === 'RECOVERABLE' && !onDemand && !serverless) {
    return (
      `${p.candidate.gpu.slug}: RECOVERABLE keeps ${pctOf(1 - s.recoverableSpotShare)} of its burst off spot, and no on-demand or serverless offer ` +
      `holds a ${t}-GPU replica${reserved ? ' (a reservation of the whole peak was dearer or impossible)' : ''}; TOLERANT would run on spot alone`
    );
  }
  return `${p.candidate.gpu.slug}: no mix of its allowed offers serves every hour of the profile`;
}

const pctOf = (x: number): string => `${Math.round(x * 100)}%`;

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
}): Pending[] | string | { tooLargeGpus: number } {
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
  const egressPrice = (o: PlanTier['offer']): number | null => (s.egressGbPerMonth > 0 ? (egressPriceOf(o, egressOf(s))?.toNumber() ?? null) : 0);
  const choices = planTierChoices({
    offers: candidate.offers,
    objective: s.objective,
    egressPriceOf: egressPrice,
    tensorParallel: t,
    tolerance: s.tolerance,
    interruptionsPerHour: s.interruptionsPerHour,
    modelLoadHours: modelLoadSeconds / 3600,
    lostWorkHours: s.lostWorkMinutes / 60,
  });
  if (choices.length === 0) {
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
  return choices.map((tiers) => pendingOf({ s, candidate, candidateIndex, precision, memory, throughput, demand, tiers, modelLoadSeconds }));
}

/** One tier combination of an option, ready to plan. */
function pendingOf(p: Omit<Pending, 'planInput' | 'lowerBound' | 'baselineTier'> & { s: RightSizingSettings }): Pending {
  const { s, demand, tiers, throughput } = p;
  const planInput: PlanInput = {
    demand,
    tiers,
    tolerance: s.tolerance,
    recoverableSpotShare: s.recoverableSpotShare,
    replicaRequestsPerSecond: throughput.requestsPerSecond,
    targetUtilization: s.targetUtilization,
    modelLoadHours: p.modelLoadSeconds / 3600,
    scaleToZero: s.scaleToZero,
    minReplicas: s.minReplicas,
  };
  return {
    candidateIndex: p.candidateIndex,
    candidate: p.candidate,
    precision: p.precision,
    memory: p.memory,
    throughput,
    demand,
    tiers,
    modelLoadSeconds: p.modelLoadSeconds,
    // The baselines are what buying on demand would cost: priced from an on-demand offer or not at all.
    baselineTier: tiers.onDemand,
    planInput,
    lowerBound: toMonth(s, demand, blendedCostLowerBound(planInput)) + s.egressGbPerMonth * cheapestEgress(tiers, egressOf(s)),
  };
}

const egressOf = (s: RightSizingSettings): EgressInput => ({ gbPerMonth: s.egressGbPerMonth, fallbackPricePerGb: s.egressPricePerGb });

/** A cost per period as a month, in plain numbers (comparison only). */
function toMonth(s: RightSizingSettings, demand: HourlyDemand, costPerPeriod: number): number {
  return (costPerPeriod * s.hoursPerMonth) / demand.onlineReplicas.length;
}

/** The lowest egress price per GB of any tier the plan could buy (unknown counts 0): a lower bound of its egress price. */
function cheapestEgress(tiers: PlanTiers, egress: EgressInput): number {
  const offers = [tiers.reserved?.offer, tiers.onDemand?.offer, tiers.spot?.offer, tiers.serverless?.offer].filter((o) => o !== undefined);
  return Math.min(...offers.map((o) => egressPriceOf(o, egress)?.toNumber() ?? 0));
}

/** The blended plan plus its egress (each tier's share at its provider's price), per month, in plain numbers (comparison only). */
/** A plan's totals (all the optimizer has of a candidate) are enough. */
function monthlyCostEstimate(s: RightSizingSettings, demand: HourlyDemand, priced: { plan: PlanTotals; tiers: PlanTiers }, tensorParallel: number): number {
  const parts = tierGpuHours(priced, tensorParallel);
  const total = parts.reduce((sum, p) => sum + p.gpuHours, 0);
  let egress = 0;
  for (const p of parts) egress += total > 0 ? (s.egressGbPerMonth * p.gpuHours * (egressPriceOf(p.offer, egressOf(s))?.toNumber() ?? 0)) / total : 0;
  return toMonth(s, demand, priced.plan.costPerPeriod) + egress;
}

function planOne(s: RightSizingSettings, p: Pending): Evaluation {
  const { planInput, tiers, baselineTier } = p;
  const t = p.memory.tensorParallel;
  let naive: PricedPlan | undefined;
  let autoscaled: PricedPlan | undefined;
  const autoscaledOnce = (): PricedPlan | null => (baselineTier ? (autoscaled ??= autoscaledPlan({ planInput, baselineTier })) : null);
  // COST: the optimizer's cheapest plan in total (cheapestInTotal), whose space holds both baselines.
  // The plans without the dearer-egress tiers (and the on-demand baseline itself) compete with it on
  // the total, and the cheapest is the plan (estimate.ts asserts that it is never dearer than a
  // baseline).
  // COST's plan by GPU cost alone: the start of the search in total, and what leftOutForEgress compares with.
  const gpuCheapest = s.objective === 'COST' ? optimizeBlendedPlan(planInput) : null;
  let blended: PricedPlan = { plan: gpuCheapest ? cheapestInTotal(s, p, tiers, gpuCheapest) : cleanestPlan(s, p), tiers };
  let monthlyCost = monthlyCostEstimate(s, p.demand, blended, t);
  // Egress changes cost, not carbon: only the cost objective weighs plans without the dearer-egress tiers.
  for (const option of s.objective === 'COST' ? egressOptions(s, p, autoscaledOnce) : []) {
    if (!option.plan.feasible) continue;
    const cost = monthlyCostEstimate(s, p.demand, option, t);
    if (cost < monthlyCost * (1 - 1e-12)) {
      blended = option;
      monthlyCost = cost;
    }
  }
  let leftOutForEgress: PlanTier['offer'][] | undefined;
  let dedicatedOnly: PricedPlan | null | undefined;
  const naiveOnce = (): PricedPlan | null => (baselineTier ? (naive ??= naivePlan({ planInput, baselineTier })) : null);
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
    get naive(): PricedPlan | null {
      return naiveOnce();
    },
    get autoscaled(): PricedPlan | null {
      return autoscaledOnce();
    },
    baselineTier,
    monthlyCostEstimate: monthlyCost,
    carbonPerMonth: toMonth(s, p.demand, carbonPerPeriod(s, p, blended)),
    get leftOutForEgress(): PlanTier['offer'][] {
      return (leftOutForEgress ??= gpuCheapest ? leftOutByEgress(s, p, blended, gpuCheapest) : []);
    },
  };
}

/**
 * The plan of these tiers that is cheapest in total. Egress follows each tier's share of GPU-hours,
 * so where the tiers' egress prices differ the GPU-cheapest candidate need not be the cheapest in
 * total (a serverless offer with dear egress can take every hour from a dedicated one with free
 * egress): the optimizer's candidates are then scored by GPU cost plus egress. The GPU cost, plus
 * all egress at the cheapest tier's price, bounds the total from below.
 */
function cheapestInTotal(s: RightSizingSettings, p: Pending, tiers: PlanTiers, gpuCheapest = optimizeBlendedPlan({ ...p.planInput, tiers })): PeriodPlan {
  const planInput = { ...p.planInput, tiers };
  const prices = tierOffers(tiers).map((o) => egressPriceOf(o, egressOf(s))?.toNumber() ?? 0);
  if (!(s.egressGbPerMonth > 0) || new Set(prices).size < 2) return gpuCheapest;
  const cheapestEgressPerMonth = s.egressGbPerMonth * Math.min(...prices);
  return optimizeBlendedPlan(planInput, {
    start: gpuCheapest,
    // The GPU-cheapest spill tier can carry the dearest egress.
    eachSpillTier: true,
    score: (plan) => monthlyCostEstimate(s, p.demand, { plan, tiers }, p.memory.tensorParallel),
    lowerBound: (costPerPeriod) => (toMonth(s, p.demand, costPerPeriod) + cheapestEgressPerMonth) * (1 - 1e-9),
  });
}

/** The offers the combination's GPU-cheapest plan buys from and the plan chosen in total does not. */
function leftOutByEgress(s: RightSizingSettings, p: Pending, chosen: PricedPlan, gpuCheapest: PeriodPlan): PlanTier['offer'][] {
  if (!(s.egressGbPerMonth > 0)) return [];
  const buys = (priced: PricedPlan): Set<string> => new Set(tierGpuHours(priced, p.memory.tensorParallel).map((part) => part.offer.ref));
  const [used, cheapest] = [buys(chosen), buys({ plan: gpuCheapest, tiers: p.tiers })];
  return tierOffers(p.tiers).filter((o) => cheapest.has(o.ref) && !used.has(o.ref));
}

/** g CO2e per period of one of the option's plans (objective.ts). */
function carbonPerPeriod(s: RightSizingSettings, p: Pending, priced: { plan: PlanTotals; tiers: PlanTiers }): number {
  return planCarbonPerPeriod({
    plan: priced.plan,
    tiers: priced.tiers,
    tensorParallel: p.memory.tensorParallel,
    busyReplicaHoursPerPeriod: p.demand.busyReplicaHoursPerPeriod,
    model: s.carbon,
  });
}

/**
 * The option's plan with the least carbon at its utilization: the optimizer's candidates built on
 * the carbon-weighted tiers and scored by the answer's formula, then priced in money again. The
 * carbon at full load, times the idle share, bounds it from below (a millionth of the price rides
 * on the weights as a tie-break, hence the small margin).
 */
function cleanestPlan(s: RightSizingSettings, p: Pending): PeriodPlan {
  const weighted = carbonWeightedTiers(p.tiers, p.memory.tensorParallel);
  const plan = optimizeBlendedPlan(
    { ...p.planInput, tiers: weighted },
    {
      score: (candidate) => carbonPerPeriod(s, p, { plan: candidate, tiers: weighted }),
      lowerBound: (weightedSum) => s.carbon.idleShare * weightedSum * (1 - 1e-3),
    },
  );
  return repriced(plan, p.tiers);
}

const tierOffers = (tiers: PlanTiers): PlanTier['offer'][] =>
  [tiers.reserved?.offer, tiers.onDemand?.offer, tiers.spot?.offer, tiers.serverless?.offer].filter((o) => o !== undefined);

/**
 * With egress to price and tiers whose providers charge different egress prices: for each price but
 * the dearest, the plan of only the tiers at most that dear, and the on-demand baseline plan.
 */
function egressOptions(s: RightSizingSettings, p: Pending, autoscaled: () => PricedPlan | null): PricedPlan[] {
  if (!(s.egressGbPerMonth > 0)) return [];
  const price = (o: PlanTier['offer']): number => egressPriceOf(o, egressOf(s))?.toNumber() ?? 0;
  const prices = [...new Set(tierOffers(p.tiers).map(price))].sort((a, b) => a - b);
  if (prices.length < 2) return [];
  const keep = <T extends { offer: PlanTier['offer'] }>(tier: T | null, max: number): T | null => (tier && price(tier.offer) <= max ? tier : null);
  const options: PricedPlan[] = [];
  for (const max of prices.slice(0, -1)) {
    const tiers: PlanTiers = {
      reserved: keep(p.tiers.reserved, max),
      onDemand: keep(p.tiers.onDemand, max),
      spot: keep(p.tiers.spot, max),
      serverless: keep(p.tiers.serverless, max),
    };
    if (!tiers.reserved && !tiers.onDemand && !tiers.spot) continue;
    options.push({ plan: cheapestInTotal(s, p, tiers), tiers });
  }
  const baseline = autoscaled();
  if (baseline) options.push(baseline);
  return options;
}

const baselineTiers = (tier: PlanTier): PlanTiers => ({ reserved: null, onDemand: tier, spot: null, serverless: null });

/** Peak replicas of the whole profile (batch not deferred), 24 hours a day. */
function naivePlan({ planInput, baselineTier }: { planInput: PlanInput; baselineTier: PlanTier }): PricedPlan {
  const peak = planInput.demand.naivePeakReplicas;
  const demand: HourlyDemand = {
    ...planInput.demand,
    onlineReplicas: planInput.demand.onlineReplicas.map(() => peak),
    batchReplicaHoursPerPeriod: 0,
  };
  const tiers = baselineTiers(baselineTier);
  return {
    plan: planPeriod({ ...planInput, demand, tiers, tolerance: 'INTOLERANT', scaleToZero: false }, 0),
    tiers,
  };
}

/**
 * The on-demand tier alone, following the hourly demand, batch included: the best plan with no
 * other tier (scaling to zero only where it pays for its model loads).
 */
function autoscaledPlan({ planInput, baselineTier }: { planInput: PlanInput; baselineTier: PlanTier }): PricedPlan {
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
