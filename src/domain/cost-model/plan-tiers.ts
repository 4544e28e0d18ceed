// The offers of one GPU type turned into what the optimizer prices: per instance-hour numbers
// (for comparisons only; money totals are recomputed in Decimal from the offers).
import { PRICING_MODELS, type InterruptionRate, type PricingModel } from '../catalog/catalog.types.js';
import { PRICING_MODEL_TRAITS, type PlanSlot } from '../catalog/pricing-model-traits.js';
import type { InterruptionTolerance } from '../compliance/policy.js';
import type { Decimal } from '../money/money.js';

export interface TierOfferInput {
  /** Caller's id for the offer (e.g. its keyHash), echoed in chosenOffers. */
  ref: string;
  /** Who sells it, and where: hidden costs (egress) are priced from the provider of each tier the plan buys. */
  provider: string;
  region: string;
  /** The provider's internet egress price per GB in the estimate's currency; null: not known. */
  egressPricePerGb: Decimal | null;
  pricingModel: PricingModel;
  gpusPerInstance: number;
  /**
   * Price of one instance-hour in the estimate's currency. Reserved: hourly plus upfront
   * amortized over the term, already folded in. Serverless: one instance busy for a full hour.
   */
  pricePerInstanceHour: Decimal;
  /** Spot: seconds of warning before an interruption (AWS 120). */
  interruptionNoticeSeconds?: number | null;
  /** Spot: the AWS Spot Instance Advisor's interruption-frequency band for the type and region. */
  interruptionRate?: InterruptionRate | null;
  /** Spot on a marketplace: the interruptions per instance-hour the offer's market figures give (Offer.market); null: none. */
  marketInterruptionsPerHour?: number | null;
  /** g CO2e per GPU-hour at full load (docs/carbon.md), for optimizeFor CARBON; absent or null: unknown. */
  gCo2ePerGpuHour?: number | null;
}

/** One priced tier as the optimizer sees it. */
export interface PlanTier {
  offer: TierOfferInput;
  /** Replicas of t GPUs one instance holds: floor(gpusPerInstance / t). */
  replicasPerInstance: number;
  /** Effective price per instance-hour as a number (spot includes its restart overhead). */
  pricePerInstanceHour: number;
  /** Effective over list price: the spot overhead factor for spot, 1 otherwise. */
  overhead: number;
  /** Spot: the interruptions per instance-hour the overhead assumes, and where that rate came from; null otherwise. */
  interruptionsPerHour: number | null;
  interruptionBasis: SpotInterruptionBasis | null;
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

/** One interruption per 20 instance-hours: GPU spot capacity is scarce and reclaimed often. */
export const DEFAULT_SPOT_INTERRUPTIONS_PER_HOUR = 0.05;

/**
 * Where a spot offer's interruption rate came from: the caller's spotInterruptionsPerHour, the
 * marketplace offer's own rate (Offer.market.interruptionsPerHour), the offer's Spot Instance
 * Advisor band, or the flat default (no band, or the open-ended `>20%`).
 */
export const SPOT_INTERRUPTION_BASES = ['REQUEST', 'MARKET', 'ADVISOR_BAND', 'DEFAULT'] as const;
export type SpotInterruptionBasis = (typeof SPOT_INTERRUPTION_BASES)[number];

/** Hours of running over which a band's share is read as a chance of interruption (AWS's trailing month). */
export const ADVISOR_BAND_HOURS = 730;

/** Upper bound of each Spot Instance Advisor band as a probability; `>20%` has none. */
export const ADVISOR_BAND_UPPER_BOUND: Readonly<Record<InterruptionRate, number | null>> = {
  '<5%': 0.05,
  '5-10%': 0.1,
  '10-15%': 0.15,
  '15-20%': 0.2,
  '>20%': null,
};

/**
 * A band as a constant hazard (docs/cost-model.md#spot-interruption-overhead): its upper bound p
 * read as the chance that an instance running the whole month is interrupted at least once, so
 * 1 − p = exp(−λ × 730 h) and λ = −ln(1 − p) / 730 per instance-hour. Null for `>20%` (no bound).
 */
export function advisorBandInterruptionsPerHour(band: InterruptionRate): number | null {
  const p = ADVISOR_BAND_UPPER_BOUND[band];
  return p === null ? null : -Math.log1p(-p) / ADVISOR_BAND_HOURS;
}

/**
 * The caller's rate wins; else a marketplace offer's own rate; else the offer's band where it has
 * an upper bound; else the flat default.
 */
export function spotInterruptionBasis(
  requested: number | undefined,
  band: InterruptionRate | null | undefined,
  marketRate?: number | null,
): SpotInterruptionBasis {
  if (requested !== undefined) return 'REQUEST';
  if (marketRate != null) return 'MARKET';
  return band != null && ADVISOR_BAND_UPPER_BOUND[band] !== null ? 'ADVISOR_BAND' : 'DEFAULT';
}

/** The interruptions per instance-hour spotInterruptionBasis picks. */
export function spotInterruptionsPerHour(requested: number | undefined, band: InterruptionRate | null | undefined, marketRate?: number | null): number {
  if (requested !== undefined) return requested;
  if (marketRate != null) return marketRate;
  return (band != null ? advisorBandInterruptionsPerHour(band) : null) ?? DEFAULT_SPOT_INTERRUPTIONS_PER_HOUR;
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

/** What planTierChoices needs to price a tier for replicas of t GPUs. */
interface TierSettings {
  tensorParallel: number;
  tolerance: InterruptionTolerance;
  /** The caller's rate for every spot offer; undefined: each offer's band, else the default. */
  interruptionsPerHour: number | undefined;
  /** Paid again after each spot interruption. */
  modelLoadHours: number;
  lostWorkHours: number;
}

/** An offer as a dedicated tier for replicas of t GPUs; null when an instance cannot hold one. */
function pricedTier(offer: TierOfferInput, s: TierSettings): PlanTier | null {
  const replicasPerInstance = Math.floor(offer.gpusPerInstance / s.tensorParallel);
  if (replicasPerInstance < 1) return null;
  const spot = PRICING_MODEL_TRAITS[offer.pricingModel].interruptible;
  const rate = spot ? spotInterruptionsPerHour(s.interruptionsPerHour, offer.interruptionRate, offer.marketInterruptionsPerHour) : null;
  const overhead = rate === null ? 1 : spotOverheadFactor({ interruptionsPerHour: rate, modelLoadHours: s.modelLoadHours, lostWorkHours: s.lostWorkHours });
  return {
    offer,
    replicasPerInstance,
    pricePerInstanceHour: asNumber(offer.pricePerInstanceHour) * overhead,
    overhead,
    interruptionsPerHour: rate,
    interruptionBasis: spot ? spotInterruptionBasis(s.interruptionsPerHour, offer.interruptionRate, offer.marketInterruptionsPerHour) : null,
  };
}

/** Serverless bills busy time per GPU, so any instance size serves: no packing, no minimum. */
function serverlessTier(offer: TierOfferInput, tensorParallel: number): NonNullable<PlanTiers['serverless']> {
  return { offer, pricePerReplicaBusyHour: (asNumber(offer.pricePerInstanceHour) * tensorParallel) / offer.gpusPerInstance };
}

/** In PRICING_MODELS order, so that on a tie the earlier model (the shorter reservation term) wins. */
const inModelOrder = (offers: readonly TierOfferInput[]): TierOfferInput[] =>
  [...offers].sort((a, b) => PRICING_MODELS.indexOf(a.pricingModel) - PRICING_MODELS.indexOf(b.pricingModel));

/** At most this many offers per slot enter the combinations (the best by the objective first). */
export const MAX_CHOICES_PER_SLOT = 4;

/**
 * Every combination of one offer per plan slot that the objective could prefer
 * (docs/cost-model.md#the-objective). An offer is left out only when another in its slot dominates it:
 * instances whose replica count divides its own (so every fleet it can build, the other builds with
 * no more replica slots; the same size while its egress (COST) or carbon (CARBON) is below another
 * slot's), no more per replica-hour by the objective (COST: effective price; CARBON: g CO2e at full
 * load, then price) and no dearer egress. What remains differs in instance size, price, carbon or
 * egress, and which of them wins depends on the demand: the estimate plans each combination. The combinations' offers are in PRICING_MODELS order within a slot, so ties keep
 * the shorter reservation term. An empty list: no slot but serverless can hold a replica.
 */
export function planTierChoices({
  offers,
  objective,
  egressPriceOf,
  ...s
}: TierSettings & {
  offers: readonly TierOfferInput[];
  objective: 'COST' | 'CARBON';
  /** The egress price per GB the plan would pay for an offer (its provider's, else the fallback); null: unknown. */
  egressPriceOf: (offer: TierOfferInput) => number | null;
}): PlanTiers[] {
  const carbon = (o: TierOfferInput): number => o.gCo2ePerGpuHour ?? Infinity;
  const egress = (o: TierOfferInput): number => egressPriceOf(o) ?? Infinity;
  type Choice = { offer: TierOfferInput; granularity: number; key: number[] };
  // Egress follows each tier's share of GPU-hours, and so does busy power in the carbon formula (the
  // plan's one utilization), so GPU-hours an instance size wastes dilute the other tiers' share. A
  // bigger instance can only lower the objective that way while its egress price (COST) or carbon
  // (CARBON) is below another slot's offer's: then only an offer of the same size stands in for it.
  const rate = objective === 'CARBON' ? carbon : (o: TierOfferInput): number => egressPriceOf(o) ?? 0;
  const slotOf = (o: TierOfferInput): PlanSlot => PRICING_MODEL_TRAITS[o.pricingModel].planSlot;
  const highestOutside = new Map<PlanSlot, number>();
  for (const slot of new Set(offers.map(slotOf))) highestOutside.set(slot, Math.max(0, ...offers.filter((o) => slotOf(o) !== slot).map(rate)));
  const sizeStandsIn = (a: Choice, b: Choice): boolean =>
    b.granularity % a.granularity === 0 &&
    (rate(b.offer) >= (highestOutside.get(slotOf(b.offer)) ?? 0) || (a.granularity === b.granularity && a.offer.gpusPerInstance === b.offer.gpusPerInstance));
  const keyOf = (o: TierOfferInput, pricePerReplicaHour: number, gpusPerReplicaSlot: number): number[] =>
    objective === 'CARBON' ? [carbon(o) * gpusPerReplicaSlot, pricePerReplicaHour, egress(o)] : [pricePerReplicaHour, egress(o)];
  const dominates = (a: Choice, b: Choice): boolean => sizeStandsIn(a, b) && a.key.every((v, i) => v <= (b.key[i] ?? Infinity));
  const front = <T extends Choice>(choices: T[]): T[] => {
    const kept = choices.filter((b, j) => !choices.some((a, i) => a !== b && dominates(a, b) && (!dominates(b, a) || i < j)));
    return kept.sort((a, b) => compareKeys(a.key, b.key)).slice(0, MAX_CHOICES_PER_SLOT);
  };
  const dedicated = {
    RESERVED: [] as (Choice & { tier: PlanTier })[],
    ON_DEMAND: [] as (Choice & { tier: PlanTier })[],
    SPOT: [] as (Choice & { tier: PlanTier })[],
  };
  const serverless: (Choice & { tier: NonNullable<PlanTiers['serverless']> })[] = [];
  for (const offer of inModelOrder(offers)) {
    const slot = PRICING_MODEL_TRAITS[offer.pricingModel].planSlot;
    if (slot === 'SERVERLESS') {
      const tier = serverlessTier(offer, s.tensorParallel);
      serverless.push({ offer, granularity: 1, key: keyOf(offer, tier.pricePerReplicaBusyHour, s.tensorParallel), tier });
      continue;
    }
    if (slot === 'SPOT' && s.tolerance === 'INTOLERANT') continue;
    const tier = pricedTier(offer, s);
    if (!tier) continue;
    const r = tier.replicasPerInstance;
    dedicated[slot].push({ offer, granularity: r, key: keyOf(offer, tier.pricePerInstanceHour / r, offer.gpusPerInstance / r), tier });
  }
  const options = <T>(choices: { tier: T }[]): (T | null)[] => (choices.length ? choices.map((c) => c.tier) : [null]);
  const [reservedTiers, onDemandTiers, spotTiers, serverlessTiers] = [
    options(front(dedicated.RESERVED)),
    options(front(dedicated.ON_DEMAND)),
    options(front(dedicated.SPOT)),
    options(front(serverless)),
  ];
  const out: PlanTiers[] = [];
  for (const reserved of reservedTiers)
    for (const onDemand of onDemandTiers)
      for (const spot of spotTiers) for (const sl of serverlessTiers) if (reserved || onDemand || spot) out.push({ reserved, onDemand, spot, serverless: sl });
  return out;
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i] ?? 0, b[i] ?? 0];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** The offers of the models that fill a plan slot. */
export function offersInSlot(offers: readonly TierOfferInput[], slot: PlanSlot): TierOfferInput[] {
  return offers.filter((o) => PRICING_MODEL_TRAITS[o.pricingModel].planSlot === slot);
}
