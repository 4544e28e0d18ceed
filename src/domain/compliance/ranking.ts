// Comparable prices: what one GPU-hour really costs under each pricing model, in one currency, so
// offers of different models, instance sizes and currencies can be ranked against each other.
import { HOURS_PER_MONTH, type Currency, type FxRates, type Offer } from '../catalog/catalog.types.js';
import { pricingModelTraits, unreachable } from '../catalog/pricing-model-traits.js';
import { convert, Decimal } from '../money/money.js';
import { PolicyError } from './policy.js';

export { HOURS_PER_MONTH };

/**
 * Price of one instance-hour in the offer's currency, by the model's comparable-price rule
 * (catalog/pricing-model-traits.ts):
 * - HOURLY (on-demand, spot): the hourly price.
 * - HOURLY_PLUS_UPFRONT_OVER_TERM (reserved, monthly): hourly + upfront spread over every hour of
 *   the term (termMonths x 730; the model's own term when the offer omits it), since the upfront is
 *   paid whether or not the hours are used. A monthly server's setup fee is spread over its minimum term.
 * - BUSY_FULL_HOUR (serverless): the catalog's pricePerHour is already one instance busy a full
 *   hour; ranking at full load is the only comparison that does not depend on a utilization we do
 *   not know.
 */
export function comparablePricePerInstanceHour({ offer }: { offer: Offer }): Decimal {
  const traits = pricingModelTraits(offer.pricingModel);
  const rule = traits.comparablePrice;
  switch (rule) {
    case 'HOURLY':
    case 'BUSY_FULL_HOUR':
      return offer.pricePerHour;
    case 'HOURLY_PLUS_UPFRONT_OVER_TERM': {
      const term = offer.termMonths ?? traits.termMonths;
      if (!offer.upfront || offer.upfront.isZero() || term === null) return offer.pricePerHour;
      return offer.pricePerHour.plus(offer.upfront.div(term * HOURS_PER_MONTH));
    }
    default:
      return unreachable(rule);
  }
}

/**
 * A MONTHLY offer's price for a month as listed: the import stores it as pricePerHour = monthly ÷ 730
 * to 15 places, so × 730 gives it back to well within a cent.
 */
export function monthlyPriceOf(offer: Pick<Offer, 'pricePerHour'>): Decimal {
  return offer.pricePerHour.mul(HOURS_PER_MONTH).toDecimalPlaces(6);
}

export interface DiscountInput {
  provider: string;
  percent: Decimal.Value;
}

/** Negotiated discounts by provider slug, as percent off list price. */
export type Discounts = ReadonlyMap<string, Decimal>;

export const NO_DISCOUNTS: Discounts = new Map();

export function resolveDiscounts(input: readonly DiscountInput[] | null | undefined): Discounts {
  const out = new Map<string, Decimal>();
  for (const [i, d] of (input ?? []).entries()) {
    const provider = d.provider?.trim().toLowerCase();
    if (!provider) throw new PolicyError(`discounts[${i}].provider`, 'discount needs a provider slug');
    let percent: Decimal;
    try {
      percent = new Decimal(d.percent);
    } catch {
      throw new PolicyError(`discounts[${i}].percent`, `percent must be a number; got ${String(d.percent)}`);
    }
    if (!percent.isFinite() || percent.lt(0) || percent.gte(100)) {
      throw new PolicyError(`discounts[${i}].percent`, 'percent must be at least 0 and below 100');
    }
    if (out.has(provider)) throw new PolicyError(`discounts[${i}].provider`, `two discounts for ${provider}`);
    out.set(provider, percent);
  }
  return out;
}

export function applyDiscount(price: Decimal, percent: Decimal | undefined): Decimal {
  return percent && !percent.isZero() ? price.mul(new Decimal(100).minus(percent)).div(100) : price;
}

/** Comparable price per GPU-hour in `currency`, at the version's FX rates, after any discount. */
export function comparablePricePerGpuHour({
  offer,
  currency,
  fxRates,
  discountPercent,
}: {
  offer: Offer;
  currency: Currency;
  fxRates: FxRates;
  discountPercent?: Decimal;
}): Decimal {
  const perGpu = comparablePricePerInstanceHour({ offer }).div(offer.gpuCount);
  return applyDiscount(convert(perGpu, offer.currency, currency, fxRates), discountPercent);
}

/**
 * Deterministic order of offers at the same price: provider slug, region code, GPU slug, GPU
 * count, instance type, pricing model (the offer's natural key, so no two offers tie), then
 * keyHash for malformed catalogs with duplicate keys. Code-point order, not locale order, so the
 * answer does not depend on the server's locale.
 */
export function compareTieKeys(a: Offer, b: Offer): number {
  return (
    cmp(a.providerSlug, b.providerSlug) ||
    cmp(a.regionCode, b.regionCode) ||
    cmp(a.gpuSlug, b.gpuSlug) ||
    a.gpuCount - b.gpuCount ||
    cmp(a.instanceType, b.instanceType) ||
    cmp(a.pricingModel, b.pricingModel) ||
    cmp(a.keyHash, b.keyHash)
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface PricedOffer {
  offer: Offer;
  pricePerGpuHour: Decimal;
}

/**
 * Ranks a small set of offers without an index: cheapest per GPU-hour first, ties by the offer
 * key. For catalog-sized sets use indexCatalog + filterOffers, which give the same order.
 */
export function rankOffers({
  offers,
  currency,
  fxRates,
  discounts = NO_DISCOUNTS,
}: {
  offers: readonly Offer[];
  currency: Currency;
  fxRates: FxRates;
  discounts?: Discounts;
}): PricedOffer[] {
  return offers
    .map((offer) => ({
      offer,
      pricePerGpuHour: comparablePricePerGpuHour({ offer, currency, fxRates, discountPercent: discounts.get(offer.providerSlug) }),
    }))
    .sort((a, b) => a.pricePerGpuHour.cmp(b.pricePerGpuHour) || compareTieKeys(a.offer, b.offer));
}
