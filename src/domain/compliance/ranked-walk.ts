// The one evaluation shared by the cheapest-offer answer and the offer listing: candidates of a
// requirement in rank order, with the number of policy rules each one fails. Policy parts are
// evaluated once per provider, region and pricing model of the query (memoized), so walking an
// offer costs a few array reads; Decimal work happens only for offers that are actually reached.
import type { Currency } from '../catalog/catalog.types.js';
import { at, defined } from '../checked.js';
import type { Decimal } from '../money/money.js';
import type { CatalogIndex, CurrencyPrices } from './catalog-index.js';
import { evaluatePricingModel, evaluateProvider, evaluateRegion, oldestAcceptedObservation, priceFails } from './evaluate.js';
import type { CompliancePolicy } from './policy.js';
import { applyDiscount, type Discounts } from './ranking.js';
import { gpuMatches, type GpuRequirement } from './requirement.js';

export class RankedQuery {
  readonly prices: CurrencyPrices;
  /** Lists whose GPU matches the requirement (and of LIST prices unless the policy includes estimates). */
  readonly lists: readonly number[];
  private readonly providerFails: Int8Array;
  private readonly regionFails: Int8Array;
  private readonly modelFails = new Map<string, number>();
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
    this.providerFails = new Int8Array(index.providers.length).fill(-1);
    this.regionFails = new Int8Array(index.regions.length).fill(-1);
    this.discountByProvider = index.providers.map((p) => discounts.get(p.slug));
    this.byIndexOrder = !this.ranksByTotal && !this.discountByProvider.some((d) => d && !d.isZero());
    this.staleBefore = oldestAcceptedObservation(policy);
    this.capApprox = policy.maxPricePerGpuHour?.toNumber() ?? Infinity;
  }

  /** ISO date: offers observed before it fail the freshness rule; null without maxPriceAgeDays. */
  private readonly staleBefore: string | null;

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
    return this.discountByProvider[at(this.index.offerProvider, offer)];
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
    return this.key(a).cmp(this.key(b)) || at(this.index.tieRank, a) - at(this.index.tieRank, b);
  }

  /** False when every offer of the list fails a provider or pricing-model rule. */
  listCanComply(list: number): boolean {
    const l = at(this.index.lists, list);
    return this.providerFailCount(l.provider) === 0 && this.modelFailCount(l.pricingModel) === 0;
  }

  /** How many rules the offer fails: the same count evaluateOffer reports as reasons. */
  failCount(offer: number): number {
    const o = at(this.index.offers, offer);
    return (
      this.providerFailCount(at(this.index.offerProvider, offer)) +
      this.regionFailCount(at(this.index.offerRegion, offer)) +
      this.modelFailCount(o.pricingModel) +
      (this.policy.maxPricePerGpuHour && this.overPriceCap(offer) ? 1 : 0) +
      (this.staleBefore !== null && o.observedAt < this.staleBefore ? 1 : 0)
    );
  }

  /** Double of the policy's price cap: toNumber() never inverts an order, so only equal doubles need Decimal. */
  private readonly capApprox: number;

  /** priceFails on the offer's price; undiscounted offers compare as doubles unless they equal the cap's. */
  private overPriceCap(offer: number): boolean {
    if (this.discountOf(offer) === undefined) {
      const approx = at(this.prices.approxPerGpuHour, offer);
      if (approx !== this.capApprox) return approx > this.capApprox;
    }
    return priceFails(this.pricePerGpuHour(offer), this.policy);
  }

  private providerFailCount(p: number): number {
    let f = at(this.providerFails, p);
    if (f < 0) {
      f = evaluateProvider({ provider: at(this.index.providers, p), policy: this.policy }).reasons.length;
      this.providerFails[p] = f;
    }
    return f;
  }

  private regionFailCount(r: number): number {
    let f = at(this.regionFails, r);
    if (f < 0) {
      f = evaluateRegion({ region: at(this.index.regions, r), policy: this.policy }).reasons.length;
      this.regionFails[r] = f;
    }
    return f;
  }

  private modelFailCount(m: string): number {
    let f = this.modelFails.get(m);
    if (f === undefined) {
      f = evaluatePricingModel({ pricingModel: m as never, policy: this.policy }).reasons.length;
      this.modelFails.set(m, f);
    }
    return f;
  }

  /**
   * Candidates (requirement-matching offers) of the chosen lists in rank order, lazily: a k-way
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
        : (a, b) => defined(a.key, 'heap key').cmp(defined(b.key, 'heap key')) || at(tie, a.offer) - at(tie, b.offer),
    );
    const keyOf = (offer: number): Decimal | null => (this.byIndexOrder ? null : this.key(offer));
    for (const l of lists) {
      const list = at(sorted, l);
      const pos = after === undefined ? 0 : this.firstAfter(list, after);
      if (pos < list.length) heap.push({ list, pos, offer: at(list, pos), key: keyOf(at(list, pos)) });
    }
    while (heap.size > 0) {
      const head = heap.peek();
      const offer = head.offer;
      head.pos += 1;
      if (head.pos < head.list.length) {
        head.offer = at(head.list, head.pos);
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
      if (this.compare(at(list, mid), after) > 0) hi = mid;
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
