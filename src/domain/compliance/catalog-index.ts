// A read-only index over one catalog version, built once and reused by every query on it
// (versions are immutable, so the service caches it by version id). It turns a 100k-offer query
// into integer look-ups: offers refer to providers/regions/GPUs by array position, offers are
// grouped into lists by (GPU, provider, pricing model, size, price kind, availability), and each list is pre-sorted by
// comparable price in each currency, so a query walks a few sorted lists and stops early.
import type { Availability, CatalogContent, Currency, FxRates, GpuModel, Offer, PriceKind, PricingModel, Provider, Region } from '../catalog/catalog.types.js';
import { fxRate, MissingFxRateError, type Decimal } from '../money/money.js';
import { comparablePricePerInstanceHour, compareTieKeys } from './ranking.js';
import { at, atFloat64, atInt32 } from '../checked.js';
import { indexEnergy, offerEnergy, type EnergyIndex, type OfferEnergy } from '../energy/index.js';
import { normalizeCountry } from './jurisdictions.js';

/**
 * Offers of one GPU model, provider, pricing model, instance size, price kind and availability; positions into
 * CatalogIndex.offers. Within a list every rank key of a query (price per GPU-hour, pooled total
 * for a GPU count, either after the provider's discount) orders offers the same way, which is
 * what lets a query merge pre-sorted lists instead of sorting.
 */
export interface OfferList {
  gpu: number;
  provider: number;
  pricingModel: PricingModel;
  gpuCount: number;
  /** ESTIMATE lists are walked only when a query includes estimates. */
  priceKind: PriceKind;
  /** Confirmed lists rank before unconfirmed ones; not-orderable lists never rank (ranked-walk.ts). */
  availability: Availability;
  offers: readonly number[];
}

/** Per-currency prices, undiscounted, by offer position. */
export interface CurrencyPrices {
  currency: Currency;
  /** Comparable price of one instance-hour (reserved upfront amortized). */
  perInstanceHour: readonly Decimal[];
  perGpuHour: readonly Decimal[];
  /** perGpuHour as doubles, to compare fast; exact Decimal compare only when these are equal. */
  approxPerGpuHour: Float64Array;
  /** For each list (same order as CatalogIndex.lists), its offers sorted by `compare`. */
  sortedLists: readonly Int32Array[];
  /** Every list, by its first (best) offer in `compare` order: a query reads lists cheapest head first. */
  listsInHeadOrder: Int32Array;
  /** listsInHeadOrder of each GPU model (by GPU position): the lists of listsByGpu, in head order. */
  listsInHeadOrderByGpu: readonly Int32Array[];
  /** Orders two offers by perGpuHour, then tie keys; a plain function, to pass to sort(). */
  compare: (a: number, b: number) => number;
}

export interface CatalogIndex {
  fxRates: FxRates;
  providers: readonly Provider[];
  regions: readonly Region[];
  gpus: readonly GpuModel[];
  offers: readonly Offer[];
  providerBySlug: ReadonlyMap<string, number>;
  regionByCode: ReadonlyMap<string, number>;
  gpuBySlug: ReadonlyMap<string, number>;
  offerByKeyHash: ReadonlyMap<string, number>;
  /** By offer position: where its provider, region and GPU are in the arrays above. */
  offerProvider: Int32Array;
  offerRegion: Int32Array;
  offerGpu: Int32Array;
  /** Position of each offer in the tie-key order, for deterministic ties. */
  tieRank: Int32Array;
  lists: readonly OfferList[];
  /** List positions by GPU position. */
  listsByGpu: readonly (readonly number[])[];
  /** Computed at build for the base currency (and the others the FX rates name, see warmCurrencies), else on first use; then cached. */
  pricesIn(currency: Currency): CurrencyPrices;
  /** Computes pricesIn for every currency the version has a rate for (indexCatalog does unless told not to). */
  warmCurrencies(): void;
  /** By region position: g CO2e per kWh of its grid (its own figure, else its country's); NaN: unknown (docs/carbon.md). */
  regionGridIntensity: Float64Array;
  /** By offer position: kWh and g CO2e per GPU-hour at full load; null without the figures. */
  offerEnergy: readonly (OfferEnergy | null)[];
  /** By offer position: why it has no energy figure (a missing board power, PUE or grid intensity); null when it has one. */
  offerEnergyUnknown: readonly (string | null)[];
  /** The version's energy figures, for estimates (docs/carbon.md). */
  energy: EnergyIndex;
}

export class CatalogIndexError extends Error {
  readonly code = 'CATALOG.INCONSISTENT';
}

/** Builds the index; throws CatalogIndexError when an offer refers to something the version lacks. */
/** The version's energy figures by region and by offer (docs/carbon.md). */
function energyOf(
  content: CatalogContent,
  offerRegion: Int32Array,
): Pick<CatalogIndex, 'energy' | 'regionGridIntensity' | 'offerEnergy' | 'offerEnergyUnknown'> {
  const energy = indexEnergy(content.energy ?? []);
  const regionGridIntensity = Float64Array.from(content.regions, (r) => energy.gridIntensity(r.code, normalizeCountry(r.country))?.value ?? NaN);
  const outcomes = content.offers.map((o, i) => {
    const region = at(content.regions, atInt32(offerRegion, i));
    return offerEnergy({ index: energy, gpu: o.gpuSlug, provider: o.providerSlug, regionCode: o.regionCode, country: normalizeCountry(region.country) });
  });
  return {
    energy,
    regionGridIntensity,
    offerEnergy: outcomes.map((e) => (e.kind === 'OK' ? e.energy : null)),
    offerEnergyUnknown: outcomes.map((e) => (e.kind === 'UNKNOWN' ? e.reason : null)),
  };
}

/**
 * `warm: false` computes prices in the base currency only, the others on their first query or
 * warmCurrencies(): a service's start (catalog.service.ts) warms them once it listens.
 */
export function indexCatalog(content: CatalogContent, { warm = true }: { warm?: boolean } = {}): CatalogIndex {
  const positions = <T>(items: readonly T[], key: (t: T) => string): Map<string, number> => new Map(items.map((t, i) => [key(t), i]));
  const providerBySlug = positions(content.providers, (p) => p.slug);
  const regionByCode = positions(content.regions, (r) => r.code);
  const gpuBySlug = positions(content.gpus, (g) => g.slug);
  const { offers } = content;
  const n = offers.length;
  const offerProvider = new Int32Array(n);
  const offerRegion = new Int32Array(n);
  const offerGpu = new Int32Array(n);
  const offerByKeyHash = new Map<string, number>();
  const listKeys = new Map<string, number>();
  const lists: (OfferList & { offers: number[] })[] = [];
  const listsByGpu: number[][] = content.gpus.map(() => []);

  for (let i = 0; i < n; i++) {
    const o = at(offers, i);
    const p = lookUp(providerBySlug, o.providerSlug, o, 'provider');
    const r = lookUp(regionByCode, o.regionCode, o, 'region');
    const g = lookUp(gpuBySlug, o.gpuSlug, o, 'GPU');
    offerProvider[i] = p;
    offerRegion[i] = r;
    offerGpu[i] = g;
    offerByKeyHash.set(o.keyHash, i);
    const key = `${g}|${p}|${o.pricingModel}|${o.gpuCount}|${o.priceKind}|${o.availability}`;
    let l = listKeys.get(key);
    if (l === undefined) {
      l = lists.length;
      listKeys.set(key, l);
      lists.push({ gpu: g, provider: p, pricingModel: o.pricingModel, gpuCount: o.gpuCount, priceKind: o.priceKind, availability: o.availability, offers: [] });
      at(listsByGpu, g).push(l);
    }
    at(lists, l).offers.push(i);
  }

  const tieOrder = Array.from({ length: n }, (_, i) => i).sort((a, b) => compareTieKeys(at(offers, a), at(offers, b)));
  const tieRank = new Int32Array(n);
  tieOrder.forEach((offer, position) => (tieRank[offer] = position));

  const cache = new Map<Currency, CurrencyPrices>();
  let base: BasePrices | null = null;
  const index: CatalogIndex = {
    ...energyOf(content, offerRegion),
    fxRates: content.fxRates,
    providers: content.providers,
    regions: content.regions,
    gpus: content.gpus,
    offers,
    providerBySlug,
    regionByCode,
    gpuBySlug,
    offerByKeyHash,
    offerProvider,
    offerRegion,
    offerGpu,
    tieRank,
    lists,
    listsByGpu,
    pricesIn(currency) {
      let prices = cache.get(currency);
      if (!prices) {
        base ??= computeBasePrices(offers);
        prices = computePrices(index, base, currency);
        cache.set(currency, prices);
      }
      return prices;
    },
    // The currencies the version has rates for, so no request pays for them.
    warmCurrencies() {
      for (const currency of Object.keys(content.fxRates.rates) as Currency[]) warmIn(index, currency);
    },
  };
  warmIn(index, content.fxRates.base);
  if (warm) index.warmCurrencies();
  return index;
}

function warmIn(index: CatalogIndex, currency: Currency): void {
  try {
    index.pricesIn(currency);
  } catch (error) {
    // A version whose offers need a rate it lacks still serves the other currencies; a query in
    // this one raises MissingFxRateError then.
    if (!(error instanceof MissingFxRateError)) throw error;
  }
}

/** Comparable prices in each offer's own currency; computed once, shared by all currencies. */
interface BasePrices {
  perInstanceHour: Decimal[];
  perGpuHour: Decimal[];
}

function computeBasePrices(offers: readonly Offer[]): BasePrices {
  const perInstanceHour = offers.map((offer) => comparablePricePerInstanceHour({ offer }));
  return { perInstanceHour, perGpuHour: perInstanceHour.map((price, i) => price.div(at(offers, i).gpuCount)) };
}

function computePrices(index: CatalogIndex, base: BasePrices, currency: Currency): CurrencyPrices {
  const { offers, tieRank, fxRates } = index;
  // One rate per source currency (what convert() derives per call), then plain multiplies, in
  // the order comparablePricePerGpuHour uses (per GPU, then convert), so both agree to the digit.
  const rates = new Map<Currency, Decimal>();
  const inCurrency = (price: Decimal, from: Currency): Decimal => {
    if (from === currency) return price;
    let r = rates.get(from);
    if (!r) rates.set(from, (r = fxRate(fxRates, from, currency)));
    return price.mul(r);
  };
  const perInstanceHour = base.perInstanceHour.map((p, i) => inCurrency(p, at(offers, i).currency));
  const perGpuHour = base.perGpuHour.map((p, i) => inCurrency(p, at(offers, i).currency));
  // Doubles first: rounding to a double never inverts an order, so only equal doubles need the
  // (much slower) exact Decimal compare; the tie rank settles equal prices.
  const approx = Float64Array.from(perGpuHour, (p) => p.toNumber());
  const compare = (a: number, b: number): number =>
    atFloat64(approx, a) - atFloat64(approx, b) || at(perGpuHour, a).cmp(at(perGpuHour, b)) || atInt32(tieRank, a) - atInt32(tieRank, b);
  // Sorting each list, not all offers: lists are small, and queries only read list heads.
  const sortedLists = index.lists.map((list) => Int32Array.from(list.offers).sort(compare));
  // Lists always hold an offer (indexCatalog makes one for an offer), so each has a head.
  const listsInHeadOrder = Int32Array.from(sortedLists.keys()).sort((a, b) => compare(atInt32(at(sortedLists, a), 0), atInt32(at(sortedLists, b), 0)));
  const byGpu = index.gpus.map((): number[] => []);
  for (const l of listsInHeadOrder) at(byGpu, at(index.lists, l).gpu).push(l);
  const listsInHeadOrderByGpu = byGpu.map((ls) => Int32Array.from(ls));
  return { currency, perInstanceHour, perGpuHour, approxPerGpuHour: approx, sortedLists, listsInHeadOrder, listsInHeadOrderByGpu, compare };
}

function lookUp(map: ReadonlyMap<string, number>, key: string, offer: Offer, what: string): number {
  const i = map.get(key);
  if (i === undefined) throw new CatalogIndexError(`offer ${offer.keyHash} refers to unknown ${what} ${key}`);
  return i;
}
