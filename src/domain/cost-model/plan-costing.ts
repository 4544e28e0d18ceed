// Money of a day plan, in Decimal: instance-hours (quantities) × offer prices (Decimal) ×
// hoursPerMonth / 24. The optimizer's float costs are only used to choose.
import type { Currency } from '../catalog/catalog.types.js';
import { PRICING_MODEL_TRAITS } from '../catalog/pricing-model-traits.js';
import { Decimal, type Money } from '../money/money.js';
import { HOURS_PER_DAY } from './demand.js';
import type { TierSummary } from './estimate.types.js';
import type { PlanTier } from './plan-tiers.js';
import type { PricedPlan } from './right-sizing.js';

export interface PlanCosting {
  tiers: TierSummary[];
  gpuCost: Decimal;
  /** Cost of dedicated (non-serverless) capacity. */
  dedicatedCost: Decimal;
  /** Per month. */
  gpuHours: number;
  /** Replica-hours paid on dedicated capacity, per day. */
  dedicatedReplicaHoursPerDay: number;
  coldStarts: Decimal;
  spotRestarts: Decimal;
}

export function monthly({ perDay, hoursPerMonth }: { perDay: Decimal; hoursPerMonth: number }): Decimal {
  return perDay.mul(hoursPerMonth).div(HOURS_PER_DAY);
}

/** Effective Decimal price of a slot: interruptible capacity (spot) carries its own interruption overhead (plan-tiers.ts). */
export function effectivePrice(tier: PlanTier): Decimal {
  const price = tier.offer.pricePerInstanceHour;
  return PRICING_MODEL_TRAITS[tier.offer.pricingModel].interruptible ? price.mul(tier.overhead) : price;
}

export function costPlan({
  priced,
  tensorParallel,
  hoursPerMonth,
  currency,
}: {
  priced: PricedPlan;
  tensorParallel: number;
  hoursPerMonth: number;
  currency: Currency;
}): PlanCosting {
  const { plan, tiers } = priced;
  const toMonth = (perDay: Decimal): Decimal => monthly({ perDay, hoursPerMonth });
  const rows: { summary: Omit<TierSummary, 'capacityShare'>; gpuHoursPerDay: number }[] = [];
  let dedicatedCost = new Decimal(0);
  let dedicatedReplicaHoursPerDay = 0;
  let coldStarts = new Decimal(0);
  let spotRestarts = new Decimal(0);

  const slots = [
    [tiers.reserved, plan.instanceHours.reserved, plan.coldStartInstanceHours.reserved],
    [tiers.onDemand, plan.instanceHours.onDemand, plan.coldStartInstanceHours.onDemand],
    [tiers.spot, plan.instanceHours.spot, plan.coldStartInstanceHours.spot],
  ] as const;
  for (const [tier, instanceHoursPerDay, coldHoursPerDay] of slots) {
    if (!tier || instanceHoursPerDay <= 0) continue;
    const price = effectivePrice(tier);
    const cost = toMonth(price.mul(instanceHoursPerDay));
    dedicatedCost = dedicatedCost.add(cost);
    dedicatedReplicaHoursPerDay += instanceHoursPerDay * tier.replicasPerInstance;
    coldStarts = coldStarts.add(toMonth(price.mul(coldHoursPerDay)));
    if (PRICING_MODEL_TRAITS[tier.offer.pricingModel].interruptible) {
      spotRestarts = spotRestarts.add(cost.sub(toMonth(tier.offer.pricePerInstanceHour.mul(instanceHoursPerDay))));
    }
    const gpuHoursPerDay = instanceHoursPerDay * tier.offer.gpusPerInstance;
    rows.push({
      gpuHoursPerDay,
      summary: {
        pricingModel: tier.offer.pricingModel,
        offerRef: tier.offer.ref,
        instanceHours: (instanceHoursPerDay * hoursPerMonth) / HOURS_PER_DAY,
        gpuHours: (gpuHoursPerDay * hoursPerMonth) / HOURS_PER_DAY,
        cost: { amount: cost, currency },
      },
    });
  }
  let gpuCost = dedicatedCost;
  if (tiers.serverless && plan.serverlessReplicaHours > 0) {
    const offer = tiers.serverless.offer;
    const perReplicaBusyHour = offer.pricePerInstanceHour.mul(tensorParallel).div(offer.gpusPerInstance);
    const cost = toMonth(perReplicaBusyHour.mul(plan.serverlessReplicaHours));
    gpuCost = gpuCost.add(cost);
    const gpuHoursPerDay = plan.serverlessReplicaHours * tensorParallel;
    rows.push({
      gpuHoursPerDay,
      summary: {
        pricingModel: offer.pricingModel,
        offerRef: offer.ref,
        instanceHours: (plan.serverlessReplicaHours * tensorParallel * hoursPerMonth) / offer.gpusPerInstance / HOURS_PER_DAY,
        gpuHours: (gpuHoursPerDay * hoursPerMonth) / HOURS_PER_DAY,
        cost: { amount: cost, currency },
      },
    });
  }
  const totalGpuHoursPerDay = rows.reduce((s, r) => s + r.gpuHoursPerDay, 0);
  return {
    tiers: rows.map((r) => ({
      ...r.summary,
      capacityShare: totalGpuHoursPerDay > 0 ? r.gpuHoursPerDay / totalGpuHoursPerDay : 0,
    })),
    gpuCost,
    dedicatedCost,
    gpuHours: (totalGpuHoursPerDay * hoursPerMonth) / HOURS_PER_DAY,
    dedicatedReplicaHoursPerDay,
    coldStarts,
    spotRestarts,
  };
}

export function toMoney(amount: Decimal, currency: Currency): Money {
  return { amount, currency };
}
