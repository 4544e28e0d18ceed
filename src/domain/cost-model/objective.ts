// What an estimate optimizes (docs/cost-model.md#the-objective): COST, the plan's money, or
// CARBON, its g CO2e by the formula the answer reports (docs/carbon.md). One carbon formula, used
// by the period optimizer, the choice between a GPU option's plans and the ranking of the options:
//   g CO2e per period = Σ tier GPU-hours × the offer's g per GPU-hour × (idle + (1 − idle) × u)
// with u the plan's busy replica-hours over its paid ones (serverless is paid only when busy).
import { powerShare } from '../energy/power-model.js';
import type { PeriodPlan, PlanTotals } from './plan-period.js';
import type { PlanTier, PlanTiers, TierOfferInput } from './plan-tiers.js';

export type Objective = 'COST' | 'CARBON';

/** What the carbon objective needs besides the plan: the idle power share (1: full load). */
export interface CarbonModel {
  idleShare: number;
}

/**
 * g CO2e per GPU-hour the optimizer weighs an offer of unknown carbon at: far above any grid (the
 * dirtiest are under 1,000 g/kWh and a GPU draws about 1 kW), so a plan uses such an offer only
 * where nothing else serves, and any plan with one ranks after every plan without.
 */
export const UNKNOWN_CARBON_G_PER_GPU_HOUR = 1e9;

const gPerGpuHour = (offer: TierOfferInput): number => offer.gCo2ePerGpuHour ?? UNKNOWN_CARBON_G_PER_GPU_HOUR;

/** Paid replica-hours per period: dedicated instance-hours × replicas per instance, plus serverless busy hours. */
export function paidReplicaHours(plan: PlanTotals, tiers: PlanTiers): number {
  const { instanceHours } = plan;
  return (
    instanceHours.reserved * (tiers.reserved?.replicasPerInstance ?? 0) +
    instanceHours.onDemand * (tiers.onDemand?.replicasPerInstance ?? 0) +
    instanceHours.spot * (tiers.spot?.replicasPerInstance ?? 0) +
    plan.serverlessReplicaHours
  );
}

/** The plan's average utilization: busy replica-hours over paid ones, at most 1; 0 when nothing is paid. */
export function planUtilization(plan: PlanTotals, tiers: PlanTiers, busyReplicaHoursPerPeriod: number): number {
  const paid = paidReplicaHours(plan, tiers);
  return paid > 0 ? Math.min(1, busyReplicaHoursPerPeriod / paid) : 0;
}

/** g CO2e per period of a plan (the formula above); UNKNOWN_CARBON_G_PER_GPU_HOUR for an offer without a figure. */
export function planCarbonPerPeriod({
  plan,
  tiers,
  tensorParallel,
  busyReplicaHoursPerPeriod,
  model,
}: {
  plan: PlanTotals;
  tiers: PlanTiers;
  tensorParallel: number;
  busyReplicaHoursPerPeriod: number;
  model: CarbonModel;
}): number {
  const share = powerShare(planUtilization(plan, tiers, busyReplicaHoursPerPeriod), model.idleShare);
  const { instanceHours } = plan;
  const dedicated = (tier: PlanTier | null, hours: number): number => (tier && hours > 0 ? hours * tier.offer.gpusPerInstance * gPerGpuHour(tier.offer) : 0);
  const serverless =
    tiers.serverless && plan.serverlessReplicaHours > 0 ? plan.serverlessReplicaHours * tensorParallel * gPerGpuHour(tiers.serverless.offer) : 0;
  return (
    (dedicated(tiers.reserved, instanceHours.reserved) +
      dedicated(tiers.onDemand, instanceHours.onDemand) +
      dedicated(tiers.spot, instanceHours.spot) +
      serverless) *
    share
  );
}

/**
 * The tiers re-weighted for the carbon objective: each dedicated instance-hour weighs its g CO2e at
 * full load (GPUs × g per GPU-hour; like the answer's carbon, without the spot restart overhead),
 * each serverless busy replica-hour tensorParallel × g. A millionth of the price is added, so that
 * among equally clean plans the optimizer keeps the cheaper one.
 */
export function carbonWeightedTiers(tiers: PlanTiers, tensorParallel: number): PlanTiers {
  const weigh = (t: PlanTier | null): PlanTier | null =>
    t && { ...t, pricePerInstanceHour: t.offer.gpusPerInstance * gPerGpuHour(t.offer) + t.pricePerInstanceHour * 1e-6 };
  const s = tiers.serverless;
  return {
    reserved: weigh(tiers.reserved),
    onDemand: weigh(tiers.onDemand),
    spot: weigh(tiers.spot),
    serverless: s && { offer: s.offer, pricePerReplicaBusyHour: tensorParallel * gPerGpuHour(s.offer) + s.pricePerReplicaBusyHour * 1e-6 },
  };
}

/**
 * A plan the optimizer built on weighted tiers, priced in money again: its quantities × the real
 * tiers' prices, exactly what planPeriod sums for the same quantities.
 */
export function repriced(plan: PeriodPlan, tiers: PlanTiers): PeriodPlan {
  const price = (t: PlanTier | null): number => t?.pricePerInstanceHour ?? 0;
  const { instanceHours, coldStartInstanceHours } = plan;
  const cost =
    instanceHours.reserved * price(tiers.reserved) +
    instanceHours.onDemand * price(tiers.onDemand) +
    instanceHours.spot * price(tiers.spot) +
    plan.serverlessReplicaHours * (tiers.serverless?.pricePerReplicaBusyHour ?? 0);
  return {
    ...plan,
    costPerPeriod: plan.feasible ? cost : Infinity,
    coldStartCostPerPeriod: coldStartInstanceHours.onDemand * price(tiers.onDemand) + coldStartInstanceHours.spot * price(tiers.spot),
  };
}
