// The blended plan (docs/cost-model.md#the-blended-plan): how many instances to reserve, how to buy the burst and which hours go
// serverless, chosen by pricing every candidate period, a day or a week (plan-period.ts), and keeping the cheapest.
import type { InterruptionTolerance } from '../compliance/policy.js';
import {
  batchOrder,
  periodCost,
  NO_SERVERLESS,
  planPeriod,
  spillOptions,
  type BurstMode,
  type PeriodPlan,
  type PlanInput,
  type PlanTotals,
} from './plan-period.js';
import type { PlanTier, PlanTiers } from './plan-tiers.js';
import { at, defined } from '../checked.js';

const EPSILON = 1e-9;
/** Above this many candidate reservation sizes, scan only a window around the threshold rule. */
const FULL_SCAN_LIMIT = 512;
const RULE_WINDOW = 16;

/**
 * The threshold rule (docs/cost-model.md#the-reservation-threshold-rule) on replica units: reserve the k-th replica iff the
 * share of hours with demand ≥ k is at least p_res / p_alt. Exact for a known profile when
 * units are single replicas and there is no batch work; used to bound the search below.
 */
export function reservedReplicasByRule({
  onlineReplicas,
  reservedPricePerReplicaHour,
  alternativePricePerReplicaHour,
}: {
  onlineReplicas: readonly number[];
  reservedPricePerReplicaHour: number;
  alternativePricePerReplicaHour: number;
}): number {
  // The share of hours with demand >= k only falls as k grows, so the answer is the largest k
  // that at least c hours reach: the c-th largest hourly demand. O(P log P) for a period of P hours, whatever the peak.
  const n = onlineReplicas.length;
  if (n === 0) return 0;
  const threshold = reservedPricePerReplicaHour / alternativePricePerReplicaHour;
  const c = Math.max(1, Math.ceil(n * (threshold - EPSILON) - EPSILON));
  if (c > n) return 0;
  const descending = [...onlineReplicas].sort((a, b) => b - a);
  // c is NaN when both prices are 0; the answer is NaN then, and the caller's window around it is empty.
  return Math.max(0, Math.floor(descending[c - 1] ?? NaN));
}

/** p_alt per replica-hour: what would serve a unit that is not reserved, by tolerance and burst mode. */
export function alternativePricePerReplicaHour({
  tiers,
  tolerance,
  recoverableSpotShare,
  burst,
}: {
  tiers: PlanTiers;
  tolerance: InterruptionTolerance;
  recoverableSpotShare: number;
  burst?: BurstMode;
}): number {
  const per = (t: PlanTier | null): number => (t ? t.pricePerInstanceHour / t.replicasPerInstance : Infinity);
  const od = per(tiers.onDemand);
  const sp = tolerance === 'INTOLERANT' || burst === 'ON_DEMAND' ? Infinity : per(tiers.spot);
  if (tolerance === 'TOLERANT') return Number.isFinite(sp) ? sp : od;
  if (tolerance === 'RECOVERABLE' && Number.isFinite(sp) && Number.isFinite(od)) {
    return recoverableSpotShare * sp + (1 - recoverableSpotShare) * od;
  }
  return Number.isFinite(od) ? od : sp;
}

/**
 * The cheapest plan. Its search space does not depend on prices, so raising the price of a tier
 * the winner does not use cannot change the winner, and a cheaper reservation can only win with
 * at least as many reserved units (docs/cost-model.md#guarantees). A plan is:
 * - a reservation size R, from none to enough for the online peak plus a 24/7 share of batch
 *   work, and at least the naive fleet (batch filling idle reserved hours makes the threshold
 *   rule inexact, so each R is priced);
 * - a burst mode: by tolerance, or all on-demand where the tolerance would use spot;
 * - with scale-to-zero, whether to use it or keep minReplicas (at least one) warm in empty hours;
 * - with a serverless offer, for each R every "serverless takes the hours whose burst replicas
 *   would be busy at most x" policy, x ranging over that R's hourly utilizations.
 * The space holds both baselines (on-demand following demand, and the naive fleet or a plan no
 * dearer than it), so the result is never dearer than either. Ties go to the later candidate
 * (more reserved, more serverless; burst by tolerance and scale-to-zero as asked). Very large
 * fleets scan only a window around the threshold rule's answer, plus none and the naive fleet.
 */
export function optimizeBlendedPlan(input: PlanInput, objective?: PlanScore): PeriodPlan {
  if (objective) return optimizeForScore(input, objective);
  let best: { input: PlanInput; order: number[]; R: number; threshold: number; cost: number } | null = null;
  for (const strategy of strategies(input)) {
    const order = batchOrder(strategy.demand);
    const reserved = strategy.tiers.reserved;
    for (const R of reservationSizes(strategy)) {
      // Pruning that cannot change the answer: a day with R reserved instances costs at least
      // their price (periodCost starts from this very product and only adds non-negative terms),
      // and R only grows. Once that alone exceeds what the best plan so far may tie with, this
      // and every larger R of the strategy would lose the comparison below, so they are skipped.
      if (best !== null && reserved && R * strategy.demand.onlineReplicas.length * reserved.pricePerInstanceHour > best.cost * (1 + 1e-12)) break;
      for (const threshold of serverlessThresholds(strategy, R * (reserved?.replicasPerInstance ?? 1))) {
        const cost = periodCost(strategy, R, order, threshold);
        if (best === null || cost <= best.cost * (1 + 1e-12)) best = { input: strategy, order, R, threshold, cost };
      }
    }
  }
  // Every strategy has at least the reservation size 0 and one threshold.
  const chosen = defined(best, 'the cheapest candidate plan');
  return planPeriod(chosen.input, chosen.R, chosen.order, chosen.threshold);
}

/**
 * An objective other than the tiers' weighted sum (objective.ts: carbon at the plan's utilization).
 * Its value can be no less than lowerBound(weighted sum) for any plan, which lets the search skip
 * candidates whose weighted sum alone rules them out.
 */
export interface PlanScore {
  /** Reads only the plan's totals: the search scores candidates without building their hours. */
  score: (plan: PlanTotals) => number;
  lowerBound: (weightedSum: number) => number;
  /** A candidate of the search known to score well (the weights' own best): the search starts from it and prunes sooner. */
  start?: PeriodPlan;
  /** Also try each spilling candidate with its spill held to every other tier (the score weighs tiers unlike the weights). */
  eachSpillTier?: boolean;
}

/**
 * The same candidates as optimizeBlendedPlan, each priced by periodCost on the input's tiers (whose
 * prices are the objective's weights) and scored on its totals; the least score wins, then the
 * least weighted sum, then the later candidate as there. Only the winner's hours are built.
 */
function optimizeForScore(input: PlanInput, objective: PlanScore): PeriodPlan {
  type Candidate = { strategy: PlanInput; R: number; order: number[]; threshold: number };
  // Written inside `consider`: typed by assertion, or the compiler narrows it to null for good.
  let best = null as { candidate: Candidate | null; plan: PeriodPlan | null; score: number; sum: number } | null;
  const start = objective.start;
  if (start?.feasible) best = { candidate: null, plan: start, score: objective.score(start), sum: start.costPerPeriod };
  const SAME = 1e-12;
  const totals: PlanTotals = { instanceHours: { reserved: 0, onDemand: 0, spot: 0 }, serverlessReplicaHours: 0, costPerPeriod: 0, batchSpillTier: null };
  const ruledOut = (sum: number): boolean => sum === Infinity || (best !== null && objective.lowerBound(sum) > best.score * (1 + SAME));
  /** Prices the candidate with its totals and keeps it if it scores better; returns where its batch spilled (null: ruled out). */
  const consider = (candidate: Candidate): PlanTotals['batchSpillTier'] => {
    const sum = periodCost(candidate.strategy, candidate.R, candidate.order, candidate.threshold, totals);
    if (ruledOut(sum)) return null;
    const score = objective.score(totals);
    const better = best === null || score < best.score * (1 - SAME) || (score <= best.score * (1 + SAME) && sum <= best.sum * (1 + SAME));
    if (better) best = { candidate, plan: null, score, sum };
    return totals.batchSpillTier;
  };
  for (const strategy of strategies(input)) {
    const order = batchOrder(strategy.demand);
    const reserved = strategy.tiers.reserved;
    // A candidate whose batch work spills is also tried with the spill held to every other tier that
    // may take it: the tier cheapest by the weights need not score best (egress, utilization). Held
    // elsewhere, the spill costs no less by the weights, so a ruled-out candidate stays ruled out.
    const spillTiers = objective.eachSpillTier ? spillOptions({ remaining: 1, tiers: strategy.tiers, tolerance: strategy.tolerance }).map((o) => o.tier) : [];
    const held = new Map(spillTiers.map((spillTier) => [spillTier, { ...strategy, spillTier }]));
    for (const R of reservationSizes(strategy)) {
      if (
        best !== null &&
        reserved &&
        objective.lowerBound(R * strategy.demand.onlineReplicas.length * reserved.pricePerInstanceHour) > best.score * (1 + SAME)
      )
        break;
      for (const threshold of serverlessThresholds(strategy, R * (reserved?.replicasPerInstance ?? 1))) {
        const spilled = consider({ strategy, R, order, threshold });
        if (spilled === null || spilled === 'RESERVED_IDLE') continue;
        for (const [spillTier, variant] of held) if (spillTier !== spilled) consider({ strategy: variant, R, order, threshold });
      }
    }
  }
  if (best === null) return optimizeBlendedPlan(input); // no feasible candidate: the plain search's answer says so
  if (best.plan) return best.plan;
  const { strategy, R, order, threshold } = defined(best.candidate, 'the best candidate');
  return planPeriod(strategy, R, order, threshold);
}

/**
 * A lower bound on the day cost of every plan optimizeBlendedPlan searches, hence on its answer's
 * costPerPeriod (blended-plan.spec.ts holds it against the optimizer and the brute-force reference).
 * Right-sizing uses it to skip planning GPU × precision options that cannot rank among the plans
 * it reports. Two bounds, the larger one:
 * - online, hour by hour: a dedicated hour pays for its N_h replicas at the cheapest dedicated
 *   price per replica-hour; a serverless hour pays busy_h = λ_h / μ replica-hours at the
 *   serverless price, or keeps them on reserved replicas busy at most u each, whichever is less;
 * - all work (online and batch, in busy replica-hours) at the cheapest price of any tier, since a
 *   paid replica-hour holds at most one busy replica-hour and serverless bills busy time.
 * Warm replicas, cold starts and whole instances only add cost. The small factor at the end keeps
 * the bound below the optimizer's float sums whatever their rounding.
 */
export function blendedCostLowerBound(input: PlanInput): number {
  const { demand, tiers, replicaRequestsPerSecond: mu, targetUtilization: u } = input;
  const perReplicaHour = (t: PlanTier | null): number => (t ? t.pricePerInstanceHour / t.replicasPerInstance : Infinity);
  const dedicated = Math.min(perReplicaHour(tiers.reserved), perReplicaHour(tiers.onDemand), perReplicaHour(tiers.spot));
  const serverless = tiers.serverless ? tiers.serverless.pricePerReplicaBusyHour : Infinity;
  const serverlessHour = Math.min(serverless, perReplicaHour(tiers.reserved) / u);
  let online = 0;
  let busy = 0;
  for (let h = 0; h < demand.onlineReplicas.length; h++) {
    const replicas = at(demand.onlineReplicas, h);
    const busyHours = at(demand.onlineRequestsPerSecond, h) / mu;
    busy += busyHours;
    const asDedicated = replicas > 0 ? replicas * dedicated : 0;
    const asServerless = !tiers.serverless ? Infinity : busyHours > 0 ? busyHours * serverlessHour : 0;
    online += Math.min(asDedicated, asServerless);
  }
  const work = busy + demand.batchReplicaHoursPerPeriod;
  const all = work > 0 ? work * Math.min(dedicated, serverless) : 0;
  return Math.max(online, all) * (1 - 1e-6);
}

/** The plan inputs of each burst mode and scale-to-zero choice; the caller's own last. */
function strategies(input: PlanInput): PlanInput[] {
  const { demand } = input;
  const bases: PlanInput[] = [];
  if (input.scaleToZero && demand.onlineReplicas.some((n) => n === 0)) {
    const warm = Math.max(1, input.minReplicas);
    bases.push({ ...input, scaleToZero: false, demand: { ...demand, onlineReplicas: demand.onlineReplicas.map((n) => (n === 0 ? warm : n)) } });
  }
  bases.push(input);
  const { spot, onDemand } = input.tiers;
  const bursts: BurstMode[] = input.tolerance !== 'INTOLERANT' && spot && onDemand ? ['ON_DEMAND', 'BY_TOLERANCE'] : ['BY_TOLERANCE'];
  return bases.flatMap((base) => bursts.map((burst) => ({ ...base, burst })));
}

/** Every R from none to the larger of peak-plus-batch and the naive fleet; a window for very large fleets. */
function reservationSizes(input: PlanInput): number[] {
  const { demand, tiers } = input;
  const reserved = tiers.reserved;
  if (!reserved) return [0];
  const r = reserved.replicasPerInstance;
  const peak = Math.max(0, ...demand.onlineReplicas);
  const naiveFleet = Math.ceil(demand.naivePeakReplicas / r - EPSILON);
  const maxR = Math.max(naiveFleet, Math.ceil((peak + demand.batchReplicaHoursPerPeriod / demand.onlineReplicas.length) / r - EPSILON));
  const range = (lo: number, hi: number): number[] => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  if (maxR <= FULL_SCAN_LIMIT) return range(0, maxR);
  const byRule = reservedReplicasByRule({
    onlineReplicas: demand.onlineReplicas,
    reservedPricePerReplicaHour: reserved.pricePerInstanceHour / r,
    alternativePricePerReplicaHour: alternativePricePerReplicaHour(input),
  });
  const center = Math.round(byRule / r);
  const window = range(Math.max(0, center - RULE_WINDOW), Math.min(maxR, center + RULE_WINDOW));
  return [...new Set([0, ...window, naiveFleet])].sort((a, b) => a - b);
}

/** NO_SERVERLESS plus each hour's busy share of its burst replicas above the reservation. */
function serverlessThresholds(input: PlanInput, reservedReplicas: number): number[] {
  if (!input.tiers.serverless) return [NO_SERVERLESS];
  const { demand, replicaRequestsPerSecond: mu, targetUtilization: u } = input;
  const shares = new Set<number>();
  for (let h = 0; h < demand.onlineReplicas.length; h++) {
    const burst = at(demand.onlineReplicas, h) - reservedReplicas;
    if (burst <= 0) continue;
    shares.add(Math.max(0, at(demand.onlineRequestsPerSecond, h) - reservedReplicas * mu * u) / mu / burst);
  }
  return [NO_SERVERLESS, ...[...shares].sort((a, b) => a - b)];
}
