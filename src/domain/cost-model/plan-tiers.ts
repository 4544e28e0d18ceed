// The offers of one GPU type turned into what the optimizer prices: per instance-hour numbers
// (for comparisons only; money totals are recomputed in Decimal from the offers).
import type { PricingModel } from '../catalog/catalog.types.js';
import type { InterruptionTolerance } from '../compliance/policy.js';
import type { Decimal } from '../money/money.js';

export interface TierOfferInput {
  /** Caller's id for the offer (e.g. its keyHash), echoed in chosenOffers. */
  ref: string;
  pricingModel: PricingModel;
  gpusPerInstance: number;
  /**
   * Price of one instance-hour in the estimate's currency. Reserved: hourly plus upfront
   * amortized over the term, already folded in. Serverless: one instance busy for a full hour.
   */
  pricePerInstanceHour: Decimal;
  /** Spot: seconds of warning before an interruption (AWS 120). */
  interruptionNoticeSeconds?: number | null;
}

/** One priced tier as the optimizer sees it. */
export interface PlanTier {
  offer: TierOfferInput;
  /** Replicas of t GPUs one instance holds: floor(gpusPerInstance / t). */
  replicasPerInstance: number;
  /** Effective price per instance-hour as a number (spot includes its restart overhead). */
  pricePerInstanceHour: number;
}

export interface PlanTiers {
  reserved: PlanTier | null;
  onDemand: PlanTier | null;
  /** Null when the tolerance forbids spot or no spot offer fits. */
  spot: PlanTier | null;
  /** Serverless bills busy time per GPU, so it needs no packing. */
  serverless: { offer: TierOfferInput; pricePerReplicaBusyHour: number } | null;
}

/** Effective spot price multiplier: 1 + interruptions/hour × (model load + lost work) hours. */
export function spotOverheadFactor({
  interruptionsPerHour,
  modelLoadHours,
  lostWorkHours,
}: {
  interruptionsPerHour: number;
  modelLoadHours: number;
  lostWorkHours: number;
}): number {
  return 1 + interruptionsPerHour * (modelLoadHours + lostWorkHours);
}

/**
 * Picks the tiers a replica of t GPUs can use. Instances with fewer than t GPUs cannot hold a
 * replica. Of the two reservation terms the cheaper per replica-hour wins. INTOLERANT traffic
 * never gets spot (docs/cost-model.md#burst-above-the-reservation).
 */
export function planTiers({
  offers,
  tensorParallel,
  tolerance,
  spotOverhead,
}: {
  offers: Partial<Record<PricingModel, TierOfferInput>>;
  tensorParallel: number;
  tolerance: InterruptionTolerance;
  spotOverhead: number;
}): PlanTiers {
  const tier = (offer: TierOfferInput | undefined, factor = 1): PlanTier | null => {
    if (!offer) return null;
    const replicasPerInstance = Math.floor(offer.gpusPerInstance / tensorParallel);
    if (replicasPerInstance < 1) return null;
    return { offer, replicasPerInstance, pricePerInstanceHour: offer.pricePerInstanceHour.toNumber() * factor };
  };
  const perReplica = (t: PlanTier | null): number => (t ? t.pricePerInstanceHour / t.replicasPerInstance : Infinity);
  const r1 = tier(offers.RESERVED_1Y);
  const r3 = tier(offers.RESERVED_3Y);
  const reserved = perReplica(r3) < perReplica(r1) ? r3 : r1;
  const serverlessOffer = offers.SERVERLESS;
  return {
    reserved,
    onDemand: tier(offers.ON_DEMAND),
    spot: tolerance === 'INTOLERANT' ? null : tier(offers.SPOT, spotOverhead),
    serverless: serverlessOffer
      ? {
          offer: serverlessOffer,
          pricePerReplicaBusyHour:
            (serverlessOffer.pricePerInstanceHour.toNumber() * tensorParallel) / serverlessOffer.gpusPerInstance,
        }
      : null,
  };
}
