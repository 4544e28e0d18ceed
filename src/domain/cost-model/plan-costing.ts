// Money of a period plan, in Decimal: instance-hours (quantities) × offer prices (Decimal) ×
// hoursPerMonth / period hours (24 or 168). The optimizer's float costs are only used to choose.
import type { Currency } from '../catalog/catalog.types.js';
import { PRICING_MODEL_TRAITS } from '../catalog/pricing-model-traits.js';
import { Decimal, type Money } from '../money/money.js';
import type { TierSummary } from './estimate.types.js';
import type { PeriodPlan, PlanTotals } from './plan-period.js';
import type { PlanTier, PlanTiers, TierOfferInput } from './plan-tiers.js';
import type { PricedPlan } from './right-sizing.js';

export interface PlanCosting {
  tiers: TierSummary[];
  gpuCost: Decimal;
  /** Cost of dedicated (non-serverless) capacity. */
  dedicatedCost: Decimal;
  /** Per month. */
  gpuHours: number;
  /** Replica-hours paid on dedicated capacity, per period. */
  dedicatedReplicaHoursPerPeriod: number;
  coldStarts: Decimal;
  spotRestarts: Decimal;
  /** Internet egress of the month, each tier's share at its own provider's price. */
  egress: Decimal;
  /** Providers of tiers that carry egress but have no egress price of their own (priced at the fallback, or 0 without one). */
  egressUnpricedProviders: string[];
}

/** Egress a plan sends out, and the price to use where a provider's own is unknown. */
export interface EgressInput {
  gbPerMonth: number;
  /** The caller's price per GB, for providers whose own is unknown; undefined: none. */
  fallbackPricePerGb?: Decimal;
}

/** An amount per period of `periodHours` (24 or 168) scaled to a month of `hoursPerMonth`. */
export function monthly({ perPeriod, periodHours, hoursPerMonth }: { perPeriod: Decimal; periodHours: number; hoursPerMonth: number }): Decimal {
  return perPeriod.mul(hoursPerMonth).div(periodHours);
}

/** Effective Decimal price of a slot: interruptible capacity (spot) carries its own interruption overhead (plan-tiers.ts). */
export function effectivePrice(tier: PlanTier): Decimal {
  const price = tier.offer.pricePerInstanceHour;
  return PRICING_MODEL_TRAITS[tier.offer.pricingModel].interruptible ? price.mul(tier.overhead) : price;
}

/** The egress price of a tier's offer: its provider's, else the caller's fallback, else unknown. */
export function egressPriceOf(offer: TierOfferInput, egress: EgressInput): Decimal | null {
  return offer.egressPricePerGb ?? egress.fallbackPricePerGb ?? null;
}

/** The GPU-hours each tier of a plan buys per period: what its share of egress follows (docs/cost-model.md#hidden-costs). */
export function tierGpuHours(
  // A candidate's totals serve as well as a built plan: without cold starts, coldHours is 0.
  priced: { plan: PlanTotals & Partial<Pick<PeriodPlan, 'coldStartInstanceHours'>>; tiers: PlanTiers },
  tensorParallel: number,
): { offer: TierOfferInput; tier: PlanTier | null; instanceHours: number; coldHours: number; gpuHours: number }[] {
  const { plan, tiers } = priced;
  const out: ReturnType<typeof tierGpuHours> = [];
  const slots = [
    [tiers.reserved, plan.instanceHours.reserved, plan.coldStartInstanceHours?.reserved ?? 0],
    [tiers.onDemand, plan.instanceHours.onDemand, plan.coldStartInstanceHours?.onDemand ?? 0],
    [tiers.spot, plan.instanceHours.spot, plan.coldStartInstanceHours?.spot ?? 0],
  ] as const;
  for (const [tier, instanceHours, coldHours] of slots) {
    if (tier && instanceHours > 0) out.push({ offer: tier.offer, tier, instanceHours, coldHours, gpuHours: instanceHours * tier.offer.gpusPerInstance });
  }
  if (tiers.serverless && plan.serverlessReplicaHours > 0) {
    const offer = tiers.serverless.offer;
    const gpuHours = plan.serverlessReplicaHours * tensorParallel;
    out.push({ offer, tier: null, instanceHours: gpuHours / offer.gpusPerInstance, coldHours: 0, gpuHours });
  }
  return out;
}

/**
 * A plan's money per month in Decimal, tier by tier: capacity at each offer's (effective) price,
 * cold starts and spot restarts inside it, and egress, split over the tiers by their share of the
 * plan's GPU-hours and priced at each tier's own provider.
 */
export function costPlan({
  priced,
  tensorParallel,
  hoursPerMonth,
  currency,
  egress = { gbPerMonth: 0 },
}: {
  priced: PricedPlan;
  tensorParallel: number;
  hoursPerMonth: number;
  currency: Currency;
  egress?: EgressInput;
}): PlanCosting {
  const periodHours = priced.plan.hours.length;
  const toMonth = (perPeriod: Decimal): Decimal => monthly({ perPeriod, periodHours, hoursPerMonth });
  const zero = new Decimal(0);
  const parts = tierGpuHours(priced, tensorParallel);
  const totalGpuHoursPerPeriod = parts.reduce((s, r) => s + r.gpuHours, 0);
  let dedicatedCost = zero;
  let gpuCost = zero;
  let dedicatedReplicaHoursPerPeriod = 0;
  let coldStarts = zero;
  let spotRestarts = zero;
  let egressTotal = zero;
  const unpriced = new Set<string>();
  const tiers = parts.map((part): TierSummary => {
    const { offer, tier } = part;
    let cost: Decimal;
    let tierCold = zero;
    let tierRestarts = zero;
    if (tier) {
      const price = effectivePrice(tier);
      cost = toMonth(price.mul(part.instanceHours));
      dedicatedCost = dedicatedCost.add(cost);
      dedicatedReplicaHoursPerPeriod += part.instanceHours * tier.replicasPerInstance;
      tierCold = toMonth(price.mul(part.coldHours));
      if (PRICING_MODEL_TRAITS[offer.pricingModel].interruptible) tierRestarts = cost.sub(toMonth(offer.pricePerInstanceHour.mul(part.instanceHours)));
    } else {
      // Serverless: busy GPU-hours at the offer's price per GPU-hour.
      cost = toMonth(offer.pricePerInstanceHour.div(offer.gpusPerInstance).mul(part.gpuHours));
    }
    gpuCost = gpuCost.add(cost);
    coldStarts = coldStarts.add(tierCold);
    spotRestarts = spotRestarts.add(tierRestarts);
    const capacityShare = totalGpuHoursPerPeriod > 0 ? part.gpuHours / totalGpuHoursPerPeriod : 0;
    const egressGb = egress.gbPerMonth * capacityShare;
    const egressPrice = egressPriceOf(offer, egress);
    const tierEgress = egressPrice === null ? zero : egressPrice.mul(egressGb);
    if (offer.egressPricePerGb === null && egressGb > 0) unpriced.add(offer.provider);
    egressTotal = egressTotal.add(tierEgress);
    return {
      pricingModel: offer.pricingModel,
      offerRef: offer.ref,
      provider: offer.provider,
      region: offer.region,
      instanceHours: (part.instanceHours * hoursPerMonth) / periodHours,
      gpuHours: (part.gpuHours * hoursPerMonth) / periodHours,
      cost: { amount: cost, currency },
      capacityShare,
      egressGb,
      egressPricePerGb: egressPrice === null ? null : { amount: egressPrice, currency },
      egress: { amount: tierEgress, currency },
      coldStarts: { amount: tierCold, currency },
      spotRestarts: { amount: tierRestarts, currency },
    };
  });
  return {
    tiers,
    gpuCost,
    dedicatedCost,
    gpuHours: (totalGpuHoursPerPeriod * hoursPerMonth) / periodHours,
    dedicatedReplicaHoursPerPeriod,
    coldStarts,
    spotRestarts,
    egress: egressTotal,
    egressUnpricedProviders: [...unpriced].sort(),
  };
}

export function toMoney(amount: Decimal, currency: Currency): Money {
  return { amount, currency };
}
