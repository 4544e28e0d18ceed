// The offer listing (GET /v1/offers, GraphQL `offers`): the same requirement + policy evaluation as
// the cheapest answer, paged by a cursor, sorted by price per GPU-hour then the offer key.
// Listing filters map onto the two: gpu, gpuCount, minGpuMemoryGb -> requirement; provider,
// region, country, residency, pricing model, maxPricePerGpuHour, ... -> policy.
import type { CatalogContent, Currency } from '../catalog/catalog.types.js';
import type { CatalogIndex } from './catalog-index.js';
import { asIndex, quote, type OfferQuote } from './cheapest.js';
import { ANY_POLICY, PolicyError, type CompliancePolicy } from './policy.js';
import { assertKnownIdentifiers } from './known-identifiers.js';
import { RankedQuery } from './ranked-walk.js';
import { compliantByCarbon } from './cleanest.js';
import { NO_DISCOUNTS, type Discounts } from './ranking.js';
import { ANY_REQUIREMENT, type GpuRequirement } from './requirement.js';
import { last } from '../checked.js';

export interface OfferPage {
  currency: Currency;
  items: OfferQuote[];
  /**
   * The keyHash of the last item when more follow, else null. Pass it back as `after` with the
   * same filter, currency and discounts (the order depends on them; the service should bind the
   * cursor to them and to the catalog version).
   */
  nextAfter: string | null;
}

export function filterOffers({
  catalog,
  requirement = ANY_REQUIREMENT,
  policy = ANY_POLICY,
  currency,
  limit,
  after = null,
  discounts = NO_DISCOUNTS,
  sort = 'PRICE',
}: {
  catalog: CatalogIndex | CatalogContent;
  requirement?: GpuRequirement;
  policy?: CompliancePolicy;
  currency: Currency;
  limit: number;
  after?: string | null;
  discounts?: Discounts;
  /** PRICE: cheapest first (the index's order); CARBON: least g CO2e per GPU-hour first, then cheapest (docs/carbon.md). */
  sort?: OfferSort;
}): OfferPage {
  if (!Number.isInteger(limit) || limit < 1) throw new PolicyError('limit', 'limit must be a positive integer');
  const index = asIndex(catalog);
  assertKnownIdentifiers(index, { requirement, policy, discounts });
  let afterOffer: number | undefined;
  if (after !== null) {
    afterOffer = index.offerByKeyHash.get(after);
    if (afterOffer === undefined) throw new PolicyError('after', 'cursor does not name an offer of this catalog version');
  }
  const q = new RankedQuery(index, requirement, policy, currency, discounts);
  if (sort === 'CARBON') return carbonPage(q, currency, limit, afterOffer);
  // One more than asked tells whether another page exists.
  const found = q.bestCompliant({ lists: q.lists.filter((l) => q.listCanComply(l)), k: limit + 1, after: afterOffer });
  const more = found.length > limit;
  const items = found.slice(0, limit).map((o) => quote(q, o));
  return { currency, items, nextAfter: more ? last(items).offer.keyHash : null };
}

export const OFFER_SORTS = ['PRICE', 'CARBON'] as const;
export type OfferSort = (typeof OFFER_SORTS)[number];

/** A page of the compliant offers in carbon order; reads every compliant candidate (cleanest.ts). */
function carbonPage(q: RankedQuery, currency: Currency, limit: number, afterOffer: number | undefined): OfferPage {
  const all = compliantByCarbon(q);
  const start = afterOffer === undefined ? 0 : all.indexOf(afterOffer) + 1;
  if (afterOffer !== undefined && start === 0) throw new PolicyError('after', 'cursor does not name an offer of this listing');
  const items = all.slice(start, start + limit).map((o) => quote(q, o));
  return { currency, items, nextAfter: start + limit < all.length ? last(items).offer.keyHash : null };
}
