// The blended plan (docs/cost-model.md#the-blended-plan): how many instances to reserve and which hours go
// serverless, chosen by pricing every candidate day (plan-day.ts) and keeping the cheapest.
import type { InterruptionTolerance } from '../compliance/policy.js';
import { HOURS_PER_DAY } from './demand.js';
import { batchOrder, dayCost, NO_SERVERLESS, planDay, type DayPlan, type PlanInput } from './plan-day.js';
import type { PlanTier, PlanTiers } from './plan-tiers.js';

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
  // that at least c hours reach: the c-th largest hourly demand. O(24 log 24), whatever the peak.
  const n = onlineReplicas.length;
  if (n === 0) return 0;
  const threshold = reservedPricePerReplicaHour / alternativePricePerReplicaHour;
  const c = Math.max(1, Math.ceil(n * (threshold - EPSILON) - EPSILON));
  if (c > n) return 0;
  const descending = [...onlineReplicas].sort((a, b) => b - a);
  return Math.max(0, Math.floor(descending[c - 1]!));
}

/** p_alt per replica-hour: what would serve a unit that is not reserved, by tolerance. */
export function alternativePricePerReplicaHour({
  tiers,
  tolerance,
  recoverableSpotShare,
}: {
  tiers: PlanTiers;
  tolerance: InterruptionTolerance;
  recoverableSpotShare: number;
}): number {
  const per = (t: PlanTier | null): number => (t ? t.pricePerInstanceHour / t.replicasPerInstance : Infinity);
  const od = per(tiers.onDemand);
  const sp = tolerance === 'INTOLERANT' ? Infinity : per(tiers.spot);
  if (tolerance === 'TOLERANT') return Number.isFinite(sp) ? sp : od;
  if (tolerance === 'RECOVERABLE' && Number.isFinite(sp) && Number.isFinite(od)) {
    return recoverableSpotShare * sp + (1 - recoverableSpotShare) * od;
  }
  return Number.isFinite(od) ? od : sp;
}

/**
 * The cheapest plan. The search space does not depend on prices, so raising the price of a tier
 * the winner does not use cannot change the winner, and a cheaper reservation can only win with
 * at least as many reserved units (docs/cost-model.md#guarantees):
 * - every reservation size R from none to enough for the peak plus a 24/7 share of batch work
 *   (batch filling idle reserved hours makes the threshold rule inexact, so each R is priced);
 * - with a serverless offer, for each R every "serverless takes the hours whose burst replicas
 *   would be busy at most x" policy, x ranging over that R's hourly utilizations.
 * Ties go to the later candidate (more reserved, more serverless). Very large fleets scan only a
 * window around the threshold rule's answer.
 */
export function optimizeBlendedPlan(input: PlanInput): DayPlan {
  const { demand, tiers } = input;
  const order = batchOrder(demand);
  const reserved = tiers.reserved;
  const r = reserved?.replicasPerInstance ?? 1;
  const peak = Math.max(0, ...demand.onlineReplicas);
  const maxR = reserved ? Math.ceil((peak + demand.batchReplicaHoursPerDay / HOURS_PER_DAY) / r - EPSILON) : 0;
  let lo = 0;
  let hi = maxR;
  if (reserved && maxR > FULL_SCAN_LIMIT) {
    const byRule = reservedReplicasByRule({
      onlineReplicas: demand.onlineReplicas,
      reservedPricePerReplicaHour: reserved.pricePerInstanceHour / r,
      alternativePricePerReplicaHour: alternativePricePerReplicaHour(input),
    });
    const center = Math.round(byRule / r);
    lo = Math.max(0, center - RULE_WINDOW);
    hi = Math.min(maxR, center + RULE_WINDOW);
  }
  let best = { R: lo, threshold: NO_SERVERLESS, cost: Infinity };
  for (let R = lo; R <= hi; R++) {
    for (const threshold of serverlessThresholds(input, R * r)) {
      const cost = dayCost(input, R, order, threshold);
      if (cost <= best.cost * (1 + 1e-12)) best = { R, threshold, cost };
    }
  }
  return planDay(input, best.R, order, best.threshold);
}

/** NO_SERVERLESS plus each hour's busy share of its burst replicas above the reservation. */
function serverlessThresholds(input: PlanInput, reservedReplicas: number): number[] {
  if (!input.tiers.serverless) return [NO_SERVERLESS];
  const { demand, replicaRequestsPerSecond: mu, targetUtilization: u } = input;
  const shares = new Set<number>();
  for (let h = 0; h < HOURS_PER_DAY; h++) {
    const burst = demand.onlineReplicas[h]! - reservedReplicas;
    if (burst <= 0) continue;
    shares.add(Math.max(0, demand.onlineRequestsPerSecond[h]! - reservedReplicas * mu * u) / mu / burst);
  }
  return [NO_SERVERLESS, ...[...shares].sort((a, b) => a - b)];
}
