// The one evaluation shared by the cheapest-offer answer and the offer listing: candidates of a
// requirement in rank order, with the number of policy rules each one fails. Policy parts are
// evaluated once per provider, region and pricing model of the query (memoized), so reaching an
// offer costs a few array reads; Decimal work happens only for offers that are actually reached.
import { sourceKindRank, type Availability, type Currency, type Offer, type PricingModel } from '../catalog/catalog.types.js';
import { AVAILABILITY_TRAITS } from '../catalog/availability.js';
import { at, atFloat64, atInt32, defined } from '../checked.js';
import { formatAmount, type Decimal } from '../money/money.js';
import type { CatalogIndex, CurrencyPrices } from './catalog-index.js';
import {
  combineVerdicts,
  evaluateFreshness,
  evaluateOfferRecord,
  evaluatePrice,
  evaluatePricingModel,
  evaluateProvider,
  evaluateRegion,
  oldestAcceptedObservation,
  outsideValidity,
  priceFails,
  providerPolicyKey,
  regionPolicyKey,
  type Verdict,
} from './evaluate.js';
import type { CompliancePolicy } from './policy.js';
import { applyDiscount, type Discounts } from './ranking.js';
import { gpuMatches, type GpuRequirement } from './requirement.js';

/**
 * Verdicts on a version's regions and providers, shared by the queries whose policies read the same
 * (regionPolicyKey, providerPolicyKey): most queries name a preset, so their verdicts were made
 * again for every request, a fifth of a cheapest query's allocations. Per index, a few keys each.
 */
const sharedVerdicts = new WeakMap<CatalogIndex, Map<string, (Verdict | undefined)[]>>();
const SHARED_KEYS_PER_INDEX = 64;

function verdictsFor(index: CatalogIndex, key: string, size: number): (Verdict | undefined)[] {
  let byKey = sharedVerdicts.get(index);
  if (!byKey) sharedVerdicts.set(index, (byKey = new Map<string, (Verdict | undefined)[]>()));
  let verdicts = byKey.get(key);
  if (!verdicts) {
    // The oldest key goes first; a query already holding its array keeps using it.
    if (byKey.size >= SHARED_KEYS_PER_INDEX) byKey.delete(byKey.keys().next().value ?? key);
    verdicts = new Array<Verdict | undefined>(size).fill(undefined);
    byKey.set(key, verdicts);
  }
  return verdicts;
}

/** A verdict to share: frozen, so that a change made to one answer's copy throws instead of reaching the next answer. */
function frozen(verdict: Verdict): Verdict {
  Object.freeze(verdict.reasons);
  Object.freeze(verdict.passes);
  return Object.freeze(verdict);
}

export class RankedQuery {
  readonly prices: CurrencyPrices;
  /** Lists whose GPU matches the requirement (and of LIST prices unless the policy includes estimates). */
  readonly lists: readonly number[];
  /** The policy's verdict on each provider, region and pricing model, made when first needed (the first two shared: verdictsFor). */
  private readonly providerVerdicts: (Verdict | undefined)[];
  private readonly regionVerdicts: (Verdict | undefined)[];
  private readonly modelVerdicts = new Map<PricingModel, Verdict>();
  private readonly discountByProvider: (Decimal | undefined)[];
  /** Without discounts or pooling, the index's precomputed order (no Decimal work) is the order. */
  private readonly byIndexOrder: boolean;

  constructor(
    readonly index: CatalogIndex,
    readonly requirement: GpuRequirement,
    readonly policy: CompliancePolicy,
    readonly currency: Currency,
    discounts: Discounts,
  ) {
    this.prices = index.pricesIn(currency);
    const exactCount = requirement.gpuCount !== null && requirement.gpuCountMode === 'PER_INSTANCE' ? requirement.gpuCount : null;
    this.lists = index.gpus.flatMap((gpu, g) =>
      gpuMatches({ gpu, requirement })
        ? at(index.listsByGpu, g).filter((l) => {
            const list = at(index.lists, l);
            return (exactCount === null || list.gpuCount === exactCount) && (policy.includeEstimates || list.priceKind === 'LIST');
          })
        : [],
    );
    this.providerVerdicts = verdictsFor(index, `provider ${providerPolicyKey(policy)}`, index.providers.length);
    this.regionVerdicts = verdictsFor(index, `region ${regionPolicyKey(policy)}`, index.regions.length);
    this.discountByProvider = index.providers.map((p) => discounts.get(p.slug));
    this.byIndexOrder = !this.ranksByTotal && !this.discountByProvider.some((d) => d && !d.isZero());
    this.staleBefore = oldestAcceptedObservation(policy);
    this.minSourceRank = policy.minSourceKind === null ? null : sourceKindRank(policy.minSourceKind);
    this.capApprox = policy.maxPricePerGpuHour?.toNumber() ?? Infinity;
  }

  /** ISO date: offers observed before it fail the freshness rule; null without maxPriceAgeDays. */
  private readonly staleBefore: string | null;
  /** sourceKindRank of the policy's minSourceKind; null without it. */
  private readonly minSourceRank: number | null;

  /**
   * Whether the rank order is the index's own (no discount, no pooling): each of prices.sortedLists
   * is then sorted by `compare` itself, so the first compliant offer of a list is its best one.
   */
  get ranksInIndexOrder(): boolean {
    return this.byIndexOrder;
  }

  /** The ranking is by total price of the requirement only when GPUs are pooled (TOTAL). */
  get ranksByTotal(): boolean {
    return this.requirement.gpuCount !== null && this.requirement.gpuCountMode === 'TOTAL';
  }

  discountOf(offer: number): Decimal | undefined {
    return this.discountByProvider[atInt32(this.index.offerProvider, offer)];
  }

  pricePerGpuHour(offer: number): Decimal {
    return applyDiscount(at(this.prices.perGpuHour, offer), this.discountOf(offer));
  }

  pricePerInstanceHour(offer: number): Decimal {
    return applyDiscount(at(this.prices.perInstanceHour, offer), this.discountOf(offer));
  }

  instances(offer: number): number {
    const total = this.requirement.gpuCount;
    if (!this.ranksByTotal || total === null) return 1;
    return Math.ceil(total / at(this.index.offers, offer).gpuCount);
  }

  /** The rank key: price per GPU-hour, or the pooled total per hour in TOTAL mode. */
  key(offer: number): Decimal {
    return this.ranksByTotal ? this.pricePerInstanceHour(offer).mul(this.instances(offer)) : this.pricePerGpuHour(offer);
  }

  /** Orders two offers as the answer does: by key, then tie keys. */
  compare(a: number, b: number): number {
    if (this.byIndexOrder) return this.prices.compare(a, b);
    return this.key(a).cmp(this.key(b)) || atInt32(this.index.tieRank, a) - atInt32(this.index.tieRank, b);
  }

  /** False when every offer of the list fails a provider, pricing-model or availability rule. */
  listCanComply(list: number): boolean {
    const l = at(this.index.lists, list);
    return (
      this.providerVerdict(l.provider).reasons.length === 0 && this.modelVerdict(l.pricingModel).reasons.length === 0 && !this.availabilityFails(l.availability)
    );
  }

  /** The availability rule (evaluateOfferRecord): a not-orderable offer always fails, an unconfirmed one when the policy requires confirmation. */
  private availabilityFails(availability: Availability): boolean {
    return !AVAILABILITY_TRAITS[availability].orderable || (this.policy.requireConfirmedAvailability && availability !== 'CONFIRMED');
  }

  /** The rank tier of a list's offers (AVAILABILITY_TRAITS): every compliant offer of a lower tier ranks first. */
  tierOfList(list: number): number {
    return AVAILABILITY_TRAITS[at(this.index.lists, list).availability].tier;
  }

  tierOf(offer: number): number {
    return AVAILABILITY_TRAITS[at(this.index.offers, offer).availability].tier;
  }

  /** How many rules the offer fails: the same count evaluateOffer reports as reasons. */
  failCount(offer: number): number {
    const o = at(this.index.offers, offer);
    return (
      this.providerVerdict(atInt32(this.index.offerProvider, offer)).reasons.length +
      this.modelVerdict(o.pricingModel).reasons.length +
      this.offerFailCount(offer, o)
    );
  }

  /**
   * The rules of failCount that differ between offers of one list: its region and the offer's own
   * fields. An offer of a list that passes listCanComply fails exactly these.
   */
  private offerFailCount(offer: number, o: Offer): number {
    return (
      this.regionVerdict(atInt32(this.index.offerRegion, offer)).reasons.length +
      (this.policy.maxPricePerGpuHour && this.overPriceCap(offer) ? 1 : 0) +
      (this.staleBefore !== null && o.observedAt < this.staleBefore ? 1 : 0) +
      ((o.validFrom !== null || o.validUntil !== null) && outsideValidity(o, this.policy.referenceDate) ? 1 : 0) +
      (this.minSourceRank !== null && sourceKindRank(o.sourceKind) < this.minSourceRank ? 1 : 0) +
      (this.availabilityFails(o.availability) ? 1 : 0)
    );
  }

  /**
   * Every rule for an offer of the index, as evaluateOffer reports them (combineVerdicts, in its
   * order), from this query's verdicts on the offer's provider, region and pricing model.
   */
  verdict(offer: number): Verdict {
    const o = at(this.index.offers, offer);
    const { policy } = this;
    return combineVerdicts(o, [
      this.regionVerdict(atInt32(this.index.offerRegion, offer)),
      this.providerVerdict(atInt32(this.index.offerProvider, offer)),
      this.modelVerdict(o.pricingModel),
      evaluatePrice({ pricePerGpuHour: this.pricePerGpuHour(offer), currency: this.currency, policy, maxText: this.maxText() }),
      evaluateFreshness({ offer: o, policy }),
      evaluateOfferRecord({ offer: o, policy }),
    ]);
  }

  /** Double of the policy's price cap: toNumber() never inverts an order, so only equal doubles need Decimal. */
  private readonly capApprox: number;

  /** priceFails on the offer's price; undiscounted offers compare as doubles unless they equal the cap's. */
  private overPriceCap(offer: number): boolean {
    if (this.discountOf(offer) === undefined) {
      const approx = atFloat64(this.prices.approxPerGpuHour, offer);
      if (approx !== this.capApprox) return approx > this.capApprox;
    }
    return priceFails(this.pricePerGpuHour(offer), this.policy);
  }

  /** The price cap as answers write it, once per query. */
  private capText: string | undefined;

  private maxText(): string | undefined {
    const max = this.policy.maxPricePerGpuHour;
    if (max && this.capText === undefined) this.capText = formatAmount(max);
    return this.capText;
  }

  private providerVerdict(p: number): Verdict {
    return (this.providerVerdicts[p] ??= frozen(evaluateProvider({ provider: at(this.index.providers, p), policy: this.policy })));
  }

  private regionVerdict(r: number): Verdict {
    const gridIntensity = atFloat64(this.index.regionGridIntensity, r);
    return (this.regionVerdicts[r] ??= frozen(evaluateRegion({ region: at(this.index.regions, r), policy: this.policy, gridIntensity })));
  }

  private modelVerdict(m: PricingModel): Verdict {
    let v = this.modelVerdicts.get(m);
    if (v === undefined) {
      v = evaluatePricingModel({ pricingModel: m, policy: this.policy });
      this.modelVerdicts.set(m, v);
    }
    return v;
  }

  /**
   * The `k` best offers of `lists` in rank order (availability tier, then price)
   * that fail no rule (with `after`: of those ranked after it). Within a tier: the first compliant
   * offers the walk of that tier's lists would reach, found without merging when the
   * query ranks in the index's own order. Lists are read cheapest head first
   * (CurrencyPrices.listsInHeadOrder), each until its next offer ranks after the k-th found so far;
   * the reading stops at the first list whose head ranks after it, since every later list's
   * offers do too. Otherwise (a discount or pooled totals change the order across lists) the
   * walk's merge finds them.
   */
  bestCompliant({ lists, k, after }: { lists: readonly number[]; k: number; after?: number }): number[] {
    // Tier by tier (lists hold one availability each): a tier's offers all rank before the next's.
    const afterTier = after === undefined ? -1 : this.tierOf(after);
    const found: number[] = [];
    for (const tier of [...new Set(lists.map((l) => this.tierOfList(l)))].sort((a, b) => a - b)) {
      if (tier < afterTier) continue;
      const ofTier = lists.filter((l) => this.tierOfList(l) === tier);
      found.push(...this.bestCompliantByPrice({ lists: ofTier, k: k - found.length, after: tier === afterTier ? after : undefined }));
      if (found.length >= k) break;
    }
    return found;
  }

  /** bestCompliant within one tier: by price (`compare`) alone. */
  private bestCompliantByPrice({ lists, k, after }: { lists: readonly number[]; k: number; after?: number }): number[] {
    const best: number[] = [];
    if (!this.byIndexOrder) {
      for (const offer of this.walk({ lists, after })) {
        if (this.failCount(offer) > 0) continue;
        best.push(offer);
        if (best.length >= k) break;
      }
      return best;
    }
    const { sortedLists, compare } = this.prices;
    const wanted = new Uint8Array(sortedLists.length);
    // Lists of one GPU model (the common query) are read in that model's own head order, so a
    // large catalog's other models' lists are not even looked at.
    let gpu: number | null = null;
    for (const l of lists) {
      wanted[l] = 1;
      const g = at(this.index.lists, l).gpu;
      gpu = gpu === null || gpu === g ? g : -1;
    }
    const listsInHeadOrder = gpu !== null && gpu >= 0 ? at(this.prices.listsInHeadOrderByGpu, gpu) : this.prices.listsInHeadOrder;
    // The k-th best so far, once there are k; -1 before.
    let kth = -1;
    for (const l of listsInHeadOrder) {
      if (wanted[l] !== 1) continue;
      const list = at(sortedLists, l);
      if (kth >= 0 && compare(atInt32(list, 0), kth) > 0) break;
      for (let i = after === undefined ? 0 : this.firstAfter(list, after); i < list.length; i++) {
        const offer = atInt32(list, i);
        if (kth >= 0 && compare(offer, kth) > 0) break;
        if (this.failCount(offer) > 0) continue;
        // Into its place among the best so far (few: k is a page or a limit).
        let j = best.length;
        for (let before = best[j - 1]; before !== undefined && compare(before, offer) > 0; before = best[j - 1]) j -= 1;
        best.splice(j, 0, offer);
        if (best.length > k) best.pop();
        if (best.length === k) kth = best[k - 1] ?? -1;
      }
    }
    return best;
  }

  /**
   * For groups of one GPU's lists, each group's first compliant offer in rank order (availability tier, then price):
   * what bestCompliant({ lists: group, k: 1 }) gives for every group, in one reading of the GPU's lists
   * in head order instead of one reading per group. A list is read until its next offer ranks after
   * its group's best so far; a list of a worse tier than that best is not read. Groups hold only lists that pass listCanComply. Null when the query does not rank in the index's own order (then
   * bestCompliant's merge must answer each group).
   */
  firstCompliantPerGroup({ gpu, groupOf, groups }: { gpu: number; groupOf: ReadonlyMap<number, number>; groups: number }): (number | null)[] | null {
    if (!this.byIndexOrder) return null;
    const { sortedLists, compare } = this.prices;
    const found = new Int32Array(groups).fill(-1);
    for (const l of at(this.prices.listsInHeadOrderByGpu, gpu)) {
      const group = groupOf.get(l);
      if (group === undefined) continue;
      const list = at(sortedLists, l);
      const best = atInt32(found, group);
      // Lists hold one tier each: a best of a better tier stands; of a worse one, any compliant offer beats it.
      const tierVsBest = best < 0 ? -1 : this.tierOfList(l) - this.tierOf(best);
      if (tierVsBest > 0 || (tierVsBest === 0 && compare(atInt32(list, 0), best) > 0)) continue;
      for (let i = 0; i < list.length; i++) {
        const offer = atInt32(list, i);
        if (tierVsBest === 0 && compare(offer, best) > 0) break;
        // Its list passed listCanComply (the caller's groups hold no other): provider and pricing model pass.
        if (this.offerFailCount(offer, at(this.index.offers, offer)) > 0) continue;
        found[group] = offer;
        break;
      }
    }
    return Array.from(found, (offer) => (offer < 0 ? null : offer));
  }

  /**
   * Candidates (requirement-matching offers) of the chosen lists in price order (`compare`, without
   * the availability tier), lazily: a k-way
   * merge of the pre-sorted lists (see OfferList), so stopping after the first few costs little.
   * `after`: only offers ranked strictly after this one (listing cursors).
   */
  *walk({ lists, after }: { lists: readonly number[]; after?: number }): Generator<number> {
    const sorted = this.prices.sortedLists;
    // Heads carry their key so the heap compares without recomputing discounted prices.
    type Head = { list: Int32Array; pos: number; offer: number; key: Decimal | null };
    const tie = this.index.tieRank;
    const byPrice = this.prices.compare;
    const heap = new MinHeap<Head>(
      this.byIndexOrder
        ? (a, b) => byPrice(a.offer, b.offer)
        : (a, b) => defined(a.key, 'heap key').cmp(defined(b.key, 'heap key')) || atInt32(tie, a.offer) - atInt32(tie, b.offer),
    );
    const keyOf = (offer: number): Decimal | null => (this.byIndexOrder ? null : this.key(offer));
    for (const l of lists) {
      const list = at(sorted, l);
      const pos = after === undefined ? 0 : this.firstAfter(list, after);
      if (pos < list.length) heap.push({ list, pos, offer: atInt32(list, pos), key: keyOf(atInt32(list, pos)) });
    }
    while (heap.size > 0) {
      const head = heap.peek();
      const offer = head.offer;
      head.pos += 1;
      if (head.pos < head.list.length) {
        head.offer = atInt32(head.list, head.pos);
        head.key = keyOf(head.offer);
        heap.replaceTop(head);
      } else {
        heap.pop();
      }
      yield offer;
    }
  }

  /** Binary search: the first position in a sorted list ranked after `after`. */
  private firstAfter(list: Int32Array, after: number): number {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(atInt32(list, mid), after) > 0) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** A binary min-heap; small and allocation-free per operation. */
class MinHeap<T extends object> {
  private readonly items: T[] = [];
  constructor(private readonly less: (a: T, b: T) => number) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T {
    return at(this.items, 0);
  }

  push(item: T): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const child = at(a, i);
      const above = at(a, parent);
      if (this.less(child, above) >= 0) break;
      a[i] = above;
      a[parent] = child;
      i = parent;
    }
  }

  pop(): void {
    const a = this.items;
    const last = a.pop();
    if (last !== undefined && a.length > 0) this.replaceTop(last);
  }

  /** Replaces the top with `item` (or re-sinks it after its key changed). */
  replaceTop(item: T): void {
    const a = this.items;
    a[0] = item;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && this.less(at(a, l), at(a, m)) < 0) m = l;
      if (r < a.length && this.less(at(a, r), at(a, m)) < 0) m = r;
      if (m === i) break;
      const top = at(a, i);
      a[i] = at(a, m);
      a[m] = top;
      i = m;
    }
  }
}
