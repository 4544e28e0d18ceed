// What an answer must say about the prices it used: an ESTIMATE (computed by a rule, opt-in) is
// named with its rule, a price read from its source long ago is named with its age, and an offer
// whose availability the provider's own data does not confirm says so. These are warnings, not
// exclusions: maxPriceAgeDays and requireConfirmedAvailability are the policy fields that exclude.
import type { Offer } from '../catalog/catalog.types.js';
import { priceAgeDays } from './evaluate.js';

/** Default of STALE_PRICE_DAYS: a list price older than this is flagged in answers. */
export const DEFAULT_STALE_PRICE_DAYS = 90;

export interface PriceQualityContext {
  /** ISO date ages are counted from (today, or the asOf date of the request). */
  referenceDate: string;
  staleAfterDays: number;
}

/** Warnings for the offers an answer chose, one per offer and concern, in the given order. */
export function priceQualityWarnings(offers: readonly Offer[], { referenceDate, staleAfterDays }: PriceQualityContext): string[] {
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const o of offers) {
    if (seen.has(o.keyHash)) continue;
    seen.add(o.keyHash);
    const name = `${o.providerSlug} ${o.instanceType} ${o.regionCode} ${o.pricingModel}`;
    if (o.priceKind === 'ESTIMATE') {
      warnings.push(`${name} is an ESTIMATE, not a list price (included by includeEstimates): ${o.derivation ?? 'rule not named'}`);
    }
    if (o.availability !== 'CONFIRMED') {
      warnings.push(`${name}: availability UNCONFIRMED (${o.availabilityNote ?? 'not checked'}); check that it can be ordered there before buying`);
    }
    const age = priceAgeDays(o.observedAt, referenceDate);
    if (age > staleAfterDays) {
      warnings.push(
        `${name}: price observed ${o.observedAt}, ${age} days before ${referenceDate} (older than ${staleAfterDays} days); check the source before buying`,
      );
    }
  }
  return warnings;
}

/**
 * Said once when an answer's first offer is not CONFIRMED: unconfirmed offers rank after every
 * compliant confirmed one, so then no confirmed offer meets the query. Null otherwise.
 */
export function noConfirmedOfferWarning(first: Offer | undefined): string | null {
  if (first === undefined || first.availability === 'CONFIRMED') return null;
  return (
    'no offer meeting this query has CONFIRMED availability: the items are UNCONFIRMED (the providers’ own data does not confirm ' +
    'they can be ordered there), cheapest first; check stock before buying'
  );
}

/** The date price ages are counted from: the asOf instant's UTC day, else today's. */
export function priceReferenceDate(asOf: Date | undefined, now: Date = new Date()): string {
  return (asOf ?? now).toISOString().slice(0, 10);
}
