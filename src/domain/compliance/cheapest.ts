// "Where is the cheapest H100 we may use?": the cheapest compliant offers for a requirement, the
// cheaper offers the policy excluded (with every reason, to defend the choice), and, when nothing
// complies, the nearest misses instead of an error.
import { PRICING_MODELS, type CatalogContent, type Currency, type GpuModel, type Offer, type Provider, type Region } from '../catalog/catalog.types.js';
import type { Decimal } from '../money/money.js';
import { indexCatalog, type CatalogIndex } from './catalog-index.js';
import type { Reason } from './evaluate.js';
import { normalizeCountry } from './jurisdictions.js';
import { PolicyError, type CompliancePolicy } from './policy.js';
import { assertKnownIdentifiers } from './known-identifiers.js';
import { RankedQuery } from './ranked-walk.js';
import type { OfferEnergy } from '../energy/index.js';
import { NO_DISCOUNTS, type Discounts } from './ranking.js';
import { resolveRequirement, type GpuRequirement } from './requirement.js';
import { at, getOrThrow, last } from '../checked.js';

/** One offer priced for a query: everything a response item needs, amounts in `currency`. */
export interface OfferQuote {
  offer: Offer;
  provider: Provider;
  region: Region;
  gpu: GpuModel;
  country: string;
  currency: Currency;
  /** Comparable (reserved upfront amortized), after discount; the ranking key per GPU. */
  pricePerGpuHour: Decimal;
  pricePerInstanceHour: Decimal;
  /** Instances the requirement needs: 1, or ceil(gpuCount / offer.gpuCount) in TOTAL mode. */
  instances: number;
  /** instances x pricePerInstanceHour: what the requirement costs per hour with this offer. */
  totalPricePerHour: Decimal;
  /** Negotiated discount applied, in percent; null when none. */
  discountPercent: Decimal | null;
  /** kWh and g CO2e per GPU-hour at full load (docs/carbon.md); null without sourced figures. */
  energy: OfferEnergy | null;
  /** Why energy is null (the figures missing); null when it is not. */
  energyUnknownReason: string | null;
}

export interface RankedOffer extends OfferQuote {
  /** Why it complies ("region eu-central-1 is in DE, inside EEA"). */
  passes: string[];
}

export interface ExcludedOffer extends OfferQuote {
  /** Every rule it fails. */
  reasons: Reason[];
}

export interface CheapestResult {
  currency: Currency;
  /** Compliant offers, cheapest first. */
  items: RankedOffer[];
  /**
   * With `explain`: candidates strictly cheaper than the first item that fail the policy, cheapest
   * first, at most `excludedLimit`; when nothing complies, the cheapest failing candidates.
   */
  excluded: ExcludedOffer[];
  /** How many such excluded offers exist (excluded may be capped). 0 without `explain`. */
  excludedCount: number;
  /** Only when nothing complies: the candidates failing the fewest rules, then cheapest. */
  nearestMisses: ExcludedOffer[];
  /**
   * The compliant offer with the least g CO2e per GPU-hour (cheaper first among equals), and what
   * it costs and saves against the cheapest; null when nothing complies or no compliant offer has
   * sourced energy figures (docs/carbon.md).
   */
  cleanest: CleanestOffer | null;
}

export interface CleanestOffer {
  offer: RankedOffer;
  /** It is the cheapest compliant offer too. */
  isCheapest: boolean;
  /** Its price per GPU-hour minus the cheapest's (0 when it is the cheapest). */
  premiumPerGpuHour: Decimal;
  /** That premium against the cheapest's price, percent; null when the cheapest is free. */
  premiumPercent: Decimal | null;
  /** g CO2e per GPU-hour it saves against the cheapest; null when the cheapest has no figure. */
  carbonSavedPerGpuHour: number | null;
}

export const DEFAULT_LIMIT = 10;
export const DEFAULT_EXCLUDED_LIMIT = 20;
export const DEFAULT_MISS_LIMIT = 3;

export interface CheapestQuery {
  /** An index (cached per catalog version) or the raw content (indexed on the fly: tests, scripts). */
  catalog: CatalogIndex | CatalogContent;
  requirement: GpuRequirement;
  policy: CompliancePolicy;
  currency: Currency;
  limit?: number;
  explain?: boolean;
  excludedLimit?: number;
  missLimit?: number;
  discounts?: Discounts;
}

export function findCheapestCompliant({
  catalog,
  requirement,
  policy,
  currency,
  limit = DEFAULT_LIMIT,
  explain = false,
  excludedLimit = DEFAULT_EXCLUDED_LIMIT,
  missLimit = DEFAULT_MISS_LIMIT,
  discounts = NO_DISCOUNTS,
}: CheapestQuery): CheapestResult {
  const index = asIndex(catalog);
  checkCount('limit', limit);
  checkCount('excludedLimit', excludedLimit);
  checkCount('missLimit', missLimit);
  assertKnownIdentifiers(index, { requirement, policy, discounts });
  const q = new RankedQuery(index, requirement, policy, currency, discounts);

  const items: number[] = [];
  const excluded: number[] = [];
  let excludedCount = 0;
  let misses: Miss[] = [];

  // Lists failing a provider, pricing-model or availability rule cannot hold an item: skip them.
  items.push(...q.bestCompliant({ lists: q.lists.filter((l) => q.listCanComply(l)), k: limit }));
  const first = items[0];
  if (explain || first === undefined) {
    // Candidates in price order: the failing ones before the first item's price are cheaper (an
    // unconfirmed offer that complies may be cheaper too: it ranks after the confirmed items).
    const firstKey = first === undefined ? null : q.key(first);
    for (const offer of q.walk({ lists: q.lists })) {
      if (firstKey?.lte(q.key(offer))) break;
      const fails = q.failCount(offer);
      if (fails === 0) continue;
      misses = addMiss(misses, { offer, fails }, missLimit);
      if (explain) {
        excludedCount += 1;
        if (excluded.length < excludedLimit) excluded.push(offer);
      } else if (misses.length === missLimit && last(misses).fails === 1) {
        // Walking in price order: once the misses all fail one rule, no later offer is nearer.
        break;
      }
    }
  }

  const rankedItems = items.map((o) => ranked(q, o));
  return {
    currency,
    items: rankedItems,
    excluded: excluded.map((o) => excludedOffer(q, o)),
    excludedCount,
    nearestMisses: items.length === 0 ? misses.map((m) => excludedOffer(q, m.offer)) : [],
    cleanest: rankedItems[0] ? cleanestOf(q, rankedItems[0], currency) : null,
  };
}

function cleanestOf(q: RankedQuery, cheapest: RankedOffer, currency: Currency): CleanestOffer | null {
  // The cleanest of each list's cleanest compliant offer: the better availability tier, the least
  // carbon, then the lower price.
  let best: (CarbonCandidate & { price: RankedOffer }) | null = null;
  for (const candidate of cleanestPerList(q, currency)) {
    const g = q.index.offerEnergy[candidate]?.gCo2ePerGpuHour;
    const tier = q.tierOf(candidate);
    if (g === undefined || (best && (tier > best.tier || (tier === best.tier && g > best.g)))) continue;
    const next: CarbonCandidate & { price: RankedOffer } = { tier, g, price: ranked(q, candidate) };
    if (!best || cleaner(next, best)) best = next;
  }
  if (!best) return null;
  const offer = best.price;
  const premium = offer.pricePerGpuHour.sub(cheapest.pricePerGpuHour);
  const cheapestG = cheapest.energy?.gCo2ePerGpuHour;
  return {
    offer,
    isCheapest: offer.offer.keyHash === cheapest.offer.keyHash,
    premiumPerGpuHour: premium,
    premiumPercent: cheapest.pricePerGpuHour.isZero() ? null : premium.div(cheapest.pricePerGpuHour).mul(100),
    carbonSavedPerGpuHour: cheapestG === undefined ? null : cheapestG - (offer.energy?.gCo2ePerGpuHour ?? cheapestG),
  };
}

/**
 * optimizeFor CARBON's candidates (docs/carbon.md): for each GPU model of `gpus`, the compliant offer
 * of each pricing model and instance size with the least g CO2e per GPU-hour (the cheaper among
 * equals), in cheapestPerGpuModelAndSize's shape and order. Reads each offer list in carbon order up
 * to its first compliant offer (cleanestPerList).
 */
export function cleanestPerGpuModelAndSize({
  catalog,
  gpus,
  policy,
  currency,
  discounts = NO_DISCOUNTS,
}: {
  catalog: CatalogIndex | CatalogContent;
  gpus: readonly string[];
  policy: CompliancePolicy;
  currency: Currency;
  discounts?: Discounts;
}): Map<string, OfferQuote[]> {
  const index = asIndex(catalog);
  const out = new Map<string, OfferQuote[]>();
  for (const slug of gpus) {
    if (!index.gpuBySlug.has(slug)) throw new PolicyError('gpus', `unknown GPU model ${slug}`);
    const q = new RankedQuery(index, resolveRequirement({ gpus: [slug] }), policy, currency, discounts);
    // Each list (one provider, pricing model and size) in carbon order: its first compliant offer
    // is its cleanest, and a discount, the same for all of a provider's offers, keeps that order.
    // Among the lists of a pricing model and size, the least carbon wins, then the lower price.
    const best = new Map<string, CarbonCandidate & { price: OfferQuote }>();
    for (const offer of cleanestPerList(q, currency)) {
      const o = at(index.offers, offer);
      const key = `${o.pricingModel}|${o.gpuCount}`;
      const candidate = { tier: q.tierOf(offer), g: index.offerEnergy[offer]?.gCo2ePerGpuHour ?? Infinity, price: quote(q, offer) };
      const current = best.get(key);
      if (!current || cleaner(candidate, current)) best.set(key, candidate);
    }
    const quotes = [...best.values()].map((b) => b.price);
    quotes.sort((a, b) => PRICING_MODELS.indexOf(a.offer.pricingModel) - PRICING_MODELS.indexOf(b.offer.pricingModel) || a.offer.gpuCount - b.offer.gpuCount);
    out.set(slug, quotes);
  }
  return out;
}

/**
 * For each GPU model of `gpus`, the cheapest compliant offer of each pricing model and instance
 * size (GPUs per instance): the first item findCheapestCompliant answers for that one GPU,
 * `pricingModels: [model]` and `gpuCount: size` per instance (limit 1), for every triple at once.
 * An estimate needs every size: a replica of t GPUs fits only instances of t GPUs or more, and the
 * cheapest per GPU-hour may be too small. One query serves them all, so each provider's and
 * region's rules are evaluated once; each triple still merges its own lists in rank order and stops
 * at the first compliant offer, exactly as the single query does (cheapest.property.spec.ts
 * compares them). Pricing models the policy does not allow get no offer; so does a triple without
 * a compliant offer. Offers come by pricing model (PRICING_MODELS order), then size.
 */
export function cheapestPerGpuModelAndSize({
  catalog,
  gpus,
  policy,
  currency,
  discounts = NO_DISCOUNTS,
}: {
  catalog: CatalogIndex | CatalogContent;
  /** GPU slugs as resolveRequirement normalises them (trimmed, lower case). */
  gpus: readonly string[];
  policy: CompliancePolicy;
  currency: Currency;
  discounts?: Discounts;
}): Map<string, OfferQuote[]> {
  const index = asIndex(catalog);
  for (const slug of gpus) {
    if (!index.gpuBySlug.has(slug)) throw new PolicyError('gpus', `unknown GPU model ${slug}`);
  }
  const q = new RankedQuery(
    index,
    { gpus: [...new Set(gpus)], minGpuMemoryGb: null, gpuCount: null, gpuCountMode: 'PER_INSTANCE' },
    policy,
    currency,
    discounts,
  );
  // The lists each triple merges: those a single query would walk (a list's pricing model passes
  // only when the policy allows it), grouped by GPU, pricing model and size, in the query's order.
  const listsOf = new Map<number, Map<string, number[]>>();
  for (const l of q.lists) {
    if (!q.listCanComply(l)) continue;
    const list = at(index.lists, l);
    let byKey = listsOf.get(list.gpu);
    if (!byKey) listsOf.set(list.gpu, (byKey = new Map<string, number[]>()));
    const key = `${PRICING_MODELS.indexOf(list.pricingModel)}|${list.gpuCount}`;
    const lists = byKey.get(key);
    if (lists) lists.push(l);
    else byKey.set(key, [l]);
  }
  const result = new Map<string, OfferQuote[]>();
  for (const slug of gpus) {
    if (result.has(slug)) continue;
    const g = getOrThrow(index.gpuBySlug, slug, 'GPU');
    const triples = [...(listsOf.get(g)?.entries() ?? [])].map(([key, lists]) => {
      const [model = 0, size = 0] = key.split('|').map(Number);
      return { model, size, lists };
    });
    triples.sort((a, b) => a.model - b.model || a.size - b.size);
    const groupOf = new Map<number, number>();
    triples.forEach(({ lists }, t) => lists.forEach((l) => groupOf.set(l, t)));
    // One reading of the GPU's lists for every triple where the query allows it, else one merge each.
    const firsts = q.firstCompliantPerGroup({ gpu: g, groupOf, groups: triples.length }) ?? triples.map(({ lists }) => firstCompliant(q, lists));
    const offers: OfferQuote[] = [];
    for (const offer of firsts) if (offer !== null) offers.push(quote(q, offer));
    result.set(slug, offers);
  }
  return result;
}

/** The first compliant offer of the lists' merge in rank order (what the walk of findCheapestCompliant stops at), or null. */
function firstCompliant(q: RankedQuery, lists: readonly number[]): number | null {
  return q.bestCompliant({ lists, k: 1 })[0] ?? null;
}

export function asIndex(catalog: CatalogIndex | CatalogContent): CatalogIndex {
  return 'pricesIn' in catalog ? catalog : indexCatalog(catalog);
}

function checkCount(field: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) throw new PolicyError(field, `${field} must be a positive integer`);
}

interface Miss {
  offer: number;
  fails: number;
}

/** Keeps the `max` offers failing the fewest rules; among equals the earlier (cheaper) one. */
function addMiss(misses: Miss[], miss: Miss, max: number): Miss[] {
  if (misses.length === max && last(misses).fails <= miss.fails) return misses;
  const position = misses.findIndex((m) => m.fails > miss.fails);
  const next = position < 0 ? [...misses, miss] : [...misses.slice(0, position), miss, ...misses.slice(position)];
  return next.slice(0, max);
}

export function quote(q: RankedQuery, offer: number): OfferQuote {
  const { index } = q;
  const region = at(index.regions, at(index.offerRegion, offer));
  const instances = q.instances(offer);
  const pricePerInstanceHour = q.pricePerInstanceHour(offer);
  const discount = q.discountOf(offer);
  return {
    offer: at(index.offers, offer),
    provider: at(index.providers, at(index.offerProvider, offer)),
    region,
    gpu: at(index.gpus, at(index.offerGpu, offer)),
    country: normalizeCountry(region.country),
    currency: q.currency,
    pricePerGpuHour: q.pricePerGpuHour(offer),
    pricePerInstanceHour,
    instances,
    totalPricePerHour: instances === 1 ? pricePerInstanceHour : pricePerInstanceHour.mul(instances),
    discountPercent: discount && !discount.isZero() ? discount : null,
    energy: at(index.offerEnergy, offer),
    energyUnknownReason: at(index.offerEnergyUnknown, offer),
  };
}

function ranked(q: RankedQuery, offer: number): RankedOffer {
  const item = quote(q, offer);
  const passes = q.verdict(offer).passes;
  if (item.discountPercent) {
    passes.push(`negotiated discount of ${item.discountPercent.toString()}% for ${item.provider.slug} applied before ranking`);
  }
  return { ...item, passes };
}

function excludedOffer(q: RankedQuery, offer: number): ExcludedOffer {
  const item = quote(q, offer);
  return { ...item, reasons: q.verdict(offer).reasons };
}

interface CarbonCandidate {
  /** RankedQuery.tierOf: confirmed availability first, as in the price ranking. */
  tier: number;
  g: number;
  price: { pricePerGpuHour: Decimal };
}

/** A better availability tier; in the same tier, less carbon per GPU-hour, or as much for a lower price. */
function cleaner(a: CarbonCandidate, b: CarbonCandidate): boolean {
  if (a.tier !== b.tier) return a.tier < b.tier;
  return a.g < b.g || (a.g === b.g && a.price.pricePerGpuHour.lt(b.price.pricePerGpuHour));
}

/** The first compliant offer of each list the query can use, in carbon order (carbonOrder). */
function cleanestPerList(q: RankedQuery, currency: Currency): number[] {
  const out: number[] = [];
  for (const l of q.lists) {
    if (!q.listCanComply(l)) continue;
    for (const offer of carbonOrder(q.index, currency, l)) {
      if (q.failCount(offer) > 0) continue;
      out.push(offer);
      break;
    }
  }
  return out;
}

/** Per index and currency, each list's offers by g CO2e per GPU-hour (unknown last), then price, then tie rank: computed once per version. */
const carbonOrders = new WeakMap<CatalogIndex, Map<Currency, Int32Array[]>>();

function carbonOrder(index: CatalogIndex, currency: Currency, list: number): Int32Array {
  let byCurrency = carbonOrders.get(index);
  if (!byCurrency) carbonOrders.set(index, (byCurrency = new Map<Currency, Int32Array[]>()));
  let lists = byCurrency.get(currency);
  if (!lists) byCurrency.set(currency, (lists = []));
  let order = lists[list];
  if (!order) {
    const g = (offer: number) => index.offerEnergy[offer]?.gCo2ePerGpuHour ?? Infinity;
    const byPrice = index.pricesIn(currency).compare;
    order = Int32Array.from(at(index.lists, list).offers).sort((a, b) => (g(a) === g(b) ? byPrice(a, b) : g(a) < g(b) ? -1 : 1));
    lists[list] = order;
  }
  return order;
}
