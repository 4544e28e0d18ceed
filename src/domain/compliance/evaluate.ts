// Per-offer policy evaluation with reasons a data protection officer can read. Every failing rule
// is reported, not just the first, so an excluded offer shows everything that would have to change.
//
// The policy splits into parts that depend only on the region, only on the provider, only on the
// pricing model, and on the price. cheapest.ts evaluates each part once per region/provider/model
// and adds the counts, so 100k offers cost array look-ups; evaluateOffer composes the same parts,
// so the fast path and the explanation can never disagree.
import { sourceKindRank, type Currency, type GpuModel, type Offer, type PricingModel, type Provider, type Region } from '../catalog/catalog.types.js';
import { PRICING_MODEL_TRAITS } from '../catalog/pricing-model-traits.js';
import { AVAILABILITY_TRAITS } from '../catalog/availability.js';
import { formatAmount, formatCatalogAmount, type Decimal } from '../money/money.js';
import { GDPR_PARTIAL_ADEQUACY, isInResidency, jurisdictionsOf, normalizeCountry } from './jurisdictions.js';
import type { CompliancePolicy } from './policy.js';
import { matchesRequirement, type GpuRequirement } from './requirement.js';
import { daysBetween, utcMidnight } from '../iso-date.js';

export const RULES = [
  'RESIDENCY',
  'REGION',
  'OPERATOR',
  'PROVIDER',
  'CERTIFICATION',
  'SLA',
  'PRICING_MODEL',
  'TOLERANCE',
  'PRICE',
  'FRESHNESS',
  'VALIDITY',
  'SOURCE',
  'AVAILABILITY',
  'GRID_INTENSITY',
] as const;
export type Rule = (typeof RULES)[number];

export interface Reason {
  rule: Rule;
  message: string;
}

/** The outcome of one part of the policy: failures and, for explanations, what passed. */
export interface Verdict {
  reasons: Reason[];
  passes: string[];
}

export interface Evaluation extends Verdict {
  /** False when the offer does not match the requirement: not a candidate, not "excluded". */
  candidate: boolean;
  /** A candidate with no failing rule. */
  compliant: boolean;
}

/** The provider's own region code: 'aws:us-east-1' -> 'us-east-1'. */
export function localRegionCode(code: string): string {
  const i = code.indexOf(':');
  return i < 0 ? code : code.slice(i + 1);
}

/**
 * Residency, explicit countries, the region allow list and the grid's carbon intensity
 * (`gridIntensity`: g CO2e/kWh of the region's grid, NaN or absent when no figure is sourced).
 */
export function evaluateRegion({ region, policy, gridIntensity = NaN }: { region: Region; policy: CompliancePolicy; gridIntensity?: number }): Verdict {
  const out: Verdict = { reasons: [], passes: [] };
  const local = localRegionCode(region.code);
  const country = normalizeCountry(region.country);
  const { residency } = policy;
  if (residency !== 'ANY') {
    const partialNote = GDPR_PARTIAL_ADEQUACY.get(country);
    if (isInResidency({ country, residency, allowPartialAdequacy: policy.allowPartialAdequacy })) {
      const inside = jurisdictionsOf(country).includes(residency);
      out.passes.push(
        inside
          ? `region ${local} is in ${country}, inside ${residency}`
          : `region ${local} is in ${country}, accepted as ${residency} by partial adequacy ` +
              `(${partialNote}; allowPartialAdequacy asserts the operator is covered)`,
      );
    } else if (residency === 'GDPR_ADEQUATE' && partialNote) {
      out.reasons.push({
        rule: 'RESIDENCY',
        message: `region ${local} is in ${country}, outside ${residency}: ${partialNote} (set allowPartialAdequacy to accept)`,
      });
    } else {
      out.reasons.push({ rule: 'RESIDENCY', message: `region ${local} is in ${country}, outside ${residency}` });
    }
  }
  if (policy.countries) {
    if (policy.countries.includes(country)) out.passes.push(`region ${local} is in ${country}, an allowed country`);
    else {
      out.reasons.push({
        rule: 'RESIDENCY',
        message: `region ${local} is in ${country}, not in the allowed countries ${policy.countries.join(', ')}`,
      });
    }
  }
  if (policy.regions) {
    const code = region.code.toLowerCase();
    if (policy.regions.includes(code) || policy.regions.includes(local.toLowerCase())) {
      out.passes.push(`region ${local} is an allowed region`);
    } else {
      out.reasons.push({ rule: 'REGION', message: `region ${local} not in the allowed regions ${policy.regions.join(', ')}` });
    }
  }
  if (policy.maxGridIntensity !== null) evaluateGridIntensity({ local, max: policy.maxGridIntensity, gridIntensity, out });
  return out;
}

/** maxGridIntensity: a region without a sourced intensity fails too, since it cannot be shown to comply. */
function evaluateGridIntensity({ local, max, gridIntensity, out }: { local: string; max: number; gridIntensity: number; out: Verdict }): void {
  if (Number.isNaN(gridIntensity)) {
    out.reasons.push({
      rule: 'GRID_INTENSITY',
      message: `region ${local} has no sourced grid carbon intensity, so it cannot be shown to be at most ${max} g CO2e/kWh`,
    });
  } else if (gridIntensity > max) {
    out.reasons.push({ rule: 'GRID_INTENSITY', message: `region ${local}'s grid emits ${gridIntensity} g CO2e/kWh, above the maximum ${max}` });
  } else {
    out.passes.push(`region ${local}'s grid emits ${gridIntensity} g CO2e/kWh, at most ${max}`);
  }
}

/**
 * What evaluateRegion reads of a policy: policies with the same key get the same verdict on every
 * region, so a catalog version's region verdicts can serve every query with that key.
 */
export function regionPolicyKey(policy: CompliancePolicy): string {
  return JSON.stringify([policy.residency, policy.allowPartialAdequacy, policy.countries, policy.regions, policy.maxGridIntensity]);
}

/** What evaluateProvider reads of a policy (see regionPolicyKey). */
export function providerPolicyKey(policy: CompliancePolicy): string {
  return JSON.stringify([policy.operator, policy.providers, policy.excludeProviders, policy.certifications, policy.minSlaPercent?.toString() ?? null]);
}

/** Operator headquarters, provider allow/deny lists, certifications and SLA. */
export function evaluateProvider({ provider, policy }: { provider: Provider; policy: CompliancePolicy }): Verdict {
  const out: Verdict = { reasons: [], passes: [] };
  if (policy.operator === 'EU') {
    const hq = normalizeCountry(provider.headquartersCountry);
    const j = jurisdictionsOf(hq);
    if (j.includes('EEA')) {
      out.passes.push(`operator ${provider.name} headquartered in ${hq} (${j.includes('EU') ? 'EU' : 'EEA'})`);
    } else {
      out.reasons.push({ rule: 'OPERATOR', message: `operator ${provider.name} headquartered in ${hq}, outside the EU/EEA` });
    }
  }
  if (policy.providers) {
    if (policy.providers.includes(provider.slug)) out.passes.push(`provider ${provider.slug} is an allowed provider`);
    else {
      out.reasons.push({
        rule: 'PROVIDER',
        message: `provider ${provider.slug} not in the allowed providers ${policy.providers.join(', ')}`,
      });
    }
  }
  if (policy.excludeProviders.includes(provider.slug)) {
    out.reasons.push({ rule: 'PROVIDER', message: `provider ${provider.slug} is excluded` });
  }
  if (policy.certifications.length > 0) {
    const held = new Set(provider.certifications.map(certificationKey));
    const missing = policy.certifications.filter((c) => !held.has(certificationKey(c)));
    for (const c of missing) out.reasons.push({ rule: 'CERTIFICATION', message: `provider lacks certification ${c}` });
    if (missing.length === 0) out.passes.push(`provider holds ${policy.certifications.join(', ')}`);
  }
  if (policy.minSlaPercent) {
    const min = policy.minSlaPercent.toString();
    if (provider.slaPercent === null) {
      out.reasons.push({ rule: 'SLA', message: `provider publishes no SLA, ${min}% required` });
    } else if (provider.slaPercent.lt(policy.minSlaPercent)) {
      out.reasons.push({ rule: 'SLA', message: `SLA ${provider.slaPercent.toString()}% below the required ${min}%` });
    } else {
      out.passes.push(`SLA ${provider.slaPercent.toString()}% meets the required ${min}%`);
    }
  }
  return out;
}

/** Allowed pricing models and interruption tolerance (INTOLERANT never gets spot). */
export function evaluatePricingModel({ pricingModel, policy }: { pricingModel: PricingModel; policy: CompliancePolicy }): Verdict {
  const out: Verdict = { reasons: [], passes: [] };
  if (policy.pricingModels) {
    if (policy.pricingModels.includes(pricingModel)) out.passes.push(`pricing model ${pricingModel} is allowed`);
    else {
      out.reasons.push({
        rule: 'PRICING_MODEL',
        message: `pricing model ${pricingModel} not allowed (allowed: ${policy.pricingModels.join(', ')})`,
      });
    }
  }
  if (policy.tolerance) {
    if (PRICING_MODEL_TRAITS[pricingModel].interruptible) {
      if (policy.tolerance === 'INTOLERANT') {
        out.reasons.push({ rule: 'TOLERANCE', message: 'spot not allowed for INTOLERANT' });
      } else {
        out.passes.push(`spot allowed for ${policy.tolerance}`);
      }
    } else if (policy.tolerance === 'INTOLERANT') {
      out.passes.push(`${pricingModel} is not interruptible, as INTOLERANT requires`);
    }
  }
  return out;
}

/**
 * The maximum price per GPU-hour, compared in the request currency after discounts. `maxText`, the
 * maximum as formatAmount writes it, saves writing it again for each offer of one query.
 */
export function evaluatePrice({
  pricePerGpuHour,
  currency,
  policy,
  maxText,
}: {
  pricePerGpuHour: Decimal;
  currency: Currency;
  policy: CompliancePolicy;
  maxText?: string;
}): Verdict {
  const out: Verdict = { reasons: [], passes: [] };
  const max = policy.maxPricePerGpuHour;
  if (!max) return out;
  const limit = maxText ?? formatAmount(max);
  // Undiscounted, the offer's price is the catalog index's own Decimal (rounded once); the cap is
  // this request's.
  const price = `${formatCatalogAmount(pricePerGpuHour)} ${currency} per GPU-hour`;
  if (pricePerGpuHour.gt(max)) {
    out.reasons.push({ rule: 'PRICE', message: `price ${price} above the maximum ${limit} ${currency}` });
  } else {
    out.passes.push(`price ${price} within the maximum ${limit} ${currency}`);
  }
  return out;
}

/** The oldest observation date (ISO) that maxPriceAgeDays accepts, counted back from policy.referenceDate. */
export function oldestAcceptedObservation(policy: CompliancePolicy): string | null {
  if (policy.maxPriceAgeDays === null) return null;
  const day = utcMidnight(policy.referenceDate) - policy.maxPriceAgeDays * 86_400_000;
  return new Date(day).toISOString().slice(0, 10);
}

/** Days between an ISO observation date and the reference date (whole days, never negative). */
export function priceAgeDays(observedAt: string, referenceDate: string): number {
  return daysBetween(observedAt, referenceDate);
}

/** maxPriceAgeDays: how old a price may be when it was last read from its source. */
export function evaluateFreshness({ offer, policy }: { offer: Offer; policy: CompliancePolicy }): Verdict {
  const out: Verdict = { reasons: [], passes: [] };
  const oldest = oldestAcceptedObservation(policy);
  if (oldest === null) return out;
  const age = priceAgeDays(offer.observedAt, policy.referenceDate);
  if (offer.observedAt < oldest) {
    out.reasons.push({
      rule: 'FRESHNESS',
      message: `price observed ${offer.observedAt}, ${age} days before ${policy.referenceDate}: older than maxPriceAgeDays ${policy.maxPriceAgeDays}`,
    });
  } else {
    out.passes.push(`price observed ${offer.observedAt}, within maxPriceAgeDays ${policy.maxPriceAgeDays}`);
  }
  return out;
}

/** Whether the reference date is outside the offer's validity window (a promotion that ended, a price announced for later). */
export function outsideValidity(offer: Pick<Offer, 'validFrom' | 'validUntil'>, referenceDate: string): boolean {
  return (offer.validFrom !== null && referenceDate < offer.validFrom) || (offer.validUntil !== null && referenceDate > offer.validUntil);
}

/**
 * What the offer's own record says of it: inside its validity window (always checked: a price
 * outside it is not on offer), from a source at least `minSourceKind`, orderable (always checked:
 * the provider's own catalogue says a LISTED_NOT_ORDERABLE offer cannot be ordered), availability
 * CONFIRMED when `requireConfirmedAvailability`.
 */
export function evaluateOfferRecord({ offer, policy }: { offer: Offer; policy: CompliancePolicy }): Verdict {
  const out: Verdict = { reasons: [], passes: [] };
  if (offer.validUntil !== null && policy.referenceDate > offer.validUntil) {
    out.reasons.push({ rule: 'VALIDITY', message: `price valid until ${offer.validUntil}, before ${policy.referenceDate}` });
  } else if (offer.validFrom !== null && policy.referenceDate < offer.validFrom) {
    out.reasons.push({ rule: 'VALIDITY', message: `price valid from ${offer.validFrom}, after ${policy.referenceDate}` });
  } else if (offer.validFrom !== null || offer.validUntil !== null) {
    out.passes.push(`price valid ${offer.validFrom ?? '…'} to ${offer.validUntil ?? '…'}, which includes ${policy.referenceDate}`);
  }
  if (policy.minSourceKind !== null) {
    const kind = offer.sourceKind ?? 'not recorded';
    if (sourceKindRank(offer.sourceKind) < sourceKindRank(policy.minSourceKind)) {
      out.reasons.push({ rule: 'SOURCE', message: `price read from a ${kind} source, below the required ${policy.minSourceKind}` });
    } else {
      out.passes.push(`price read from a ${kind} source, at least ${policy.minSourceKind}`);
    }
  }
  if (!AVAILABILITY_TRAITS[offer.availability].orderable) {
    out.reasons.push({
      rule: 'AVAILABILITY',
      message: `availability ${offer.availability}: ${offer.availabilityNote ?? 'the provider lists it as not orderable'}`,
    });
  } else if (policy.requireConfirmedAvailability) {
    if (offer.availability === 'CONFIRMED') out.passes.push(`availability confirmed: ${offer.availabilityNote ?? 'by the provider'}`);
    else out.reasons.push({ rule: 'AVAILABILITY', message: `availability UNCONFIRMED: ${offer.availabilityNote ?? 'not checked'}` });
  }
  return out;
}

/** The fast path's test: true when the price alone fails the policy. */
export function priceFails(pricePerGpuHour: Decimal, policy: CompliancePolicy): boolean {
  return policy.maxPricePerGpuHour !== null && pricePerGpuHour.gt(policy.maxPricePerGpuHour);
}

/**
 * Every rule for one offer. `pricePerGpuHour` is the comparable price in `currency` (ranking.ts).
 * Give `gpu` and `requirement` to also learn whether the offer is a candidate at all.
 */
export function evaluateOffer({
  offer,
  provider,
  region,
  gpu,
  policy,
  requirement,
  pricePerGpuHour,
  currency,
  gridIntensity,
}: {
  offer: Offer;
  provider: Provider;
  region: Region;
  gpu?: GpuModel;
  policy: CompliancePolicy;
  requirement?: GpuRequirement;
  pricePerGpuHour: Decimal;
  currency: Currency;
  /** g CO2e/kWh of the region's grid; absent: unknown. */
  gridIntensity?: number;
}): Evaluation {
  const { reasons, passes } = combineVerdicts(offer, [
    evaluateRegion({ region, policy, gridIntensity }),
    evaluateProvider({ provider, policy }),
    evaluatePricingModel({ pricingModel: offer.pricingModel, policy }),
    evaluatePrice({ pricePerGpuHour, currency, policy }),
    evaluateFreshness({ offer, policy }),
    evaluateOfferRecord({ offer, policy }),
  ]);
  const kindOk = offer.priceKind === 'LIST' || policy.includeEstimates;
  const candidate = kindOk && (!requirement || !gpu || matchesRequirement({ offer, gpu, requirement }));
  return { candidate, compliant: candidate && reasons.length === 0, reasons, passes };
}

/**
 * An offer's reasons and passes from its parts (region, provider, pricing model, price,
 * freshness, the offer's record, in that order): evaluateOffer's, and the ranked walk's from its memoized parts. The
 * parts are read, never changed: the result's lists are new.
 */
export function combineVerdicts(offer: Offer, parts: readonly Verdict[]): Verdict {
  const reasons = parts.flatMap((p) => p.reasons);
  const passes = parts.flatMap((p) => p.passes);
  if (offer.priceKind === 'ESTIMATE') passes.push(`ESTIMATE price, included because includeEstimates is set: ${offer.derivation ?? 'rule not named'}`);
  return { reasons, passes };
}

/** Certification codes compared ignoring case and separators: 'BSI C5' = 'bsi-c5' = 'BSI_C5'. */
export function certificationKey(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, '');
}
