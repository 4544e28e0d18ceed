// The offers of one GPU type turned into what the optimizer prices: per instance-hour numbers
// (for comparisons only; money totals are recomputed in Decimal from the offers).
import { PRICING_MODELS, type PricingModel } from '../catalog/catalog.types.js';
import { PRICING_MODEL_TRAITS, unreachable, type PlanSlot } from '../catalog/pricing-model-traits.js';
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

/**
 * Decimal.toNumber() goes through the decimal's text; right-sizing asks for each offer's price
 * once per GPU × precision × tensor-parallel option, so each Decimal is converted once.
 */
const numbers = new WeakMap<Decimal, number>();
function asNumber(d: Decimal): number {
  let n = numbers.get(d);
  if (n === undefined) numbers.set(d, (n = d.toNumber()));
  return n;
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
 * Picks the tiers a replica of t GPUs can use: for each plan slot, the offer of the models filling
 * it (catalog/pricing-model-traits.ts) that is cheapest per replica-hour, the first in
 * PRICING_MODELS order on a tie (of the reservation terms, 1 year before 3). Instances with fewer
 * than t GPUs cannot hold a replica. INTOLERANT traffic never gets spot
 * (docs/cost-model.md#burst-above-the-reservation).
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
  const tier = (offer: TierOfferInput, factor: number): PlanTier | null => {
    const replicasPerInstance = Math.floor(offer.gpusPerInstance / tensorParallel);
    if (replicasPerInstance < 1) return null;
    return { offer, replicasPerInstance, pricePerInstanceHour: asNumber(offer.pricePerInstanceHour) * factor };
  };
  const perReplica = (t: PlanTier | null): number => (t ? t.pricePerInstanceHour / t.replicasPerInstance : Infinity);
  const tiers: PlanTiers = { reserved: null, onDemand: null, spot: null, serverless: null };
  const keepCheaper = (slot: 'reserved' | 'onDemand' | 'spot', candidate: PlanTier | null): void => {
    if (perReplica(candidate) < perReplica(tiers[slot])) tiers[slot] = candidate;
  };
  for (const model of PRICING_MODELS) {
    const offer = offers[model];
    if (!offer) continue;
    const slot = PRICING_MODEL_TRAITS[model].planSlot;
    switch (slot) {
      case 'RESERVED':
        keepCheaper('reserved', tier(offer, 1));
        break;
      case 'ON_DEMAND':
        keepCheaper('onDemand', tier(offer, 1));
        break;
      case 'SPOT':
        if (tolerance !== 'INTOLERANT') keepCheaper('spot', tier(offer, spotOverhead));
        break;
      case 'SERVERLESS': {
        // Billed per GPU of busy time, so any instance size serves: no packing, no minimum.
        const pricePerReplicaBusyHour = (asNumber(offer.pricePerInstanceHour) * tensorParallel) / offer.gpusPerInstance;
        if (!tiers.serverless || pricePerReplicaBusyHour < tiers.serverless.pricePerReplicaBusyHour) {
          tiers.serverless = { offer, pricePerReplicaBusyHour };
        }
        break;
      }
      default:
        unreachable(slot);
    }
  }
  return tiers;
}

/** The offers of the models that fill a plan slot. */
export function offersInSlot(offers: Partial<Record<PricingModel, TierOfferInput>>, slot: PlanSlot): TierOfferInput[] {
  return PRICING_MODELS.flatMap((m) => (PRICING_MODEL_TRAITS[m].planSlot === slot && offers[m] ? [offers[m]] : []));
}
