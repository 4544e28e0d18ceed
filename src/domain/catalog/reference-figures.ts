// Reference figures against list prices: how far a price quoted by an article or analyst is from
// the list prices of the same catalog version. Figures are never offers; this is where they show.
//
// Deviation is the list price relative to the figure: (list − figure) / figure × 100, so an
// article's 3.90 against a list price of 6.88 is +76% ("the list is 76% above the claim"). A range
// figure (value..valueHigh) deviates by nothing when the list lies inside it, else relative to the
// nearer end. Discounts are compared in percentage points against the median observed discount.
import { comparablePricePerGpuHour } from '../compliance/ranking.js';
import { Decimal, formatAmount } from '../money/money.js';
import type { CatalogContent, Offer, ReferenceFigure } from './catalog.types.js';
import { PRICING_MODEL_TRAITS } from './pricing-model-traits.js';
import { at, defined, last } from '../checked.js';

export type ComparisonStatus = 'COMPARED' | 'NO_LIST_PRICE' | 'NOT_COMPARABLE';

export interface ListExample {
  offer: Offer;
  /** The figure's metric for this offer: price per GPU-hour in the figure's currency, or discount %. */
  value: Decimal;
}

export interface FigureComparison {
  figure: ReferenceFigure;
  status: ComparisonStatus;
  /** How many LIST offers (or offer pairs, for discounts) were compared. */
  matches: number;
  listLow: Decimal | null;
  listMedian: Decimal | null;
  listHigh: Decimal | null;
  /** The lowest list value (the cheapest offer; the smallest discount). */
  cheapest: ListExample | null;
  /** PRICE / EGRESS: percent, list relative to the figure. DISCOUNT: percentage points. null unless COMPARED. */
  deviation: Decimal | null;
  /** One line for people: "AWS H100 on-demand: figure 3.90 USD/GPU-h; list p5.48xlarge us-east-1 6.88 (+76%)". */
  summary: string;
}

const HUNDRED = new Decimal(100);

export function compareReferenceFigures(content: CatalogContent): FigureComparison[] {
  return content.referenceFigures.map((figure) => compareReferenceFigure(figure, content));
}

export function compareReferenceFigure(figure: ReferenceFigure, content: CatalogContent): FigureComparison {
  switch (figure.metric) {
    case 'PRICE_PER_GPU_HOUR':
      return comparePrice(figure, content);
    case 'DISCOUNT_PERCENT':
      return compareDiscount(figure, content);
    case 'EGRESS_PER_GB':
      return compareEgress(figure, content);
    case 'NONE':
      return empty(figure, 'NOT_COMPARABLE', `${figure.claim}: ${figureText(figure)}; no list price measures this`);
  }
}

function matchesScope(figure: ReferenceFigure, o: Offer): boolean {
  return (
    o.priceKind === 'LIST' && (figure.provider === null || o.providerSlug === figure.provider) && (figure.gpus.length === 0 || figure.gpus.includes(o.gpuSlug))
  );
}

function comparePrice(figure: ReferenceFigure, content: CatalogContent): FigureComparison {
  // Validated with the row: a price figure has a currency.
  const currency = defined(figure.currency, `the currency of figure ${figure.key}`);
  const examples = content.offers
    .filter((o) => matchesScope(figure, o) && o.pricingModel === figure.pricingModel)
    .map((offer) => ({ offer, value: comparablePricePerGpuHour({ offer, currency, fxRates: content.fxRates }) }));
  if (examples.length === 0) return empty(figure, 'NO_LIST_PRICE', `${figure.claim}: ${figureText(figure)}; no list price in this version to compare`);
  const stats = summarise(examples);
  const deviation = relativeDeviation(stats.cheapest.value, figure);
  const o = stats.cheapest.offer;
  return compared(
    figure,
    stats,
    deviation,
    `${figure.claim}: figure ${figureText(figure)}; cheapest list ${o.instanceType} ${o.regionCode} ` +
      `${formatAmount(stats.cheapest.value)} ${currency}/GPU-h (${signed(deviation)}%) of ${examples.length} list price(s)`,
  );
}

/** Discount of a model against the discount base (ON_DEMAND) of the same provider, region, instance and currency. */
function compareDiscount(figure: ReferenceFigure, content: CatalogContent): FigureComparison {
  const onDemand = new Map<string, Offer>();
  // "p5.48xlarge (All Upfront)" pairs with the on-demand "p5.48xlarge": the payment option is not another machine.
  const pairKey = (o: Offer) => [o.providerSlug, o.regionCode, o.gpuSlug, o.gpuCount, o.instanceType.replace(/ \(.*\)$/, ''), o.currency].join('|');
  for (const o of content.offers) if (matchesScope(figure, o) && PRICING_MODEL_TRAITS[o.pricingModel].isDiscountBase) onDemand.set(pairKey(o), o);
  const examples: ListExample[] = [];
  for (const offer of content.offers) {
    if (!matchesScope(figure, offer) || offer.pricingModel !== figure.pricingModel) continue;
    const od = onDemand.get(pairKey(offer));
    if (!od || od.pricePerHour.isZero()) continue;
    const price = comparablePricePerGpuHour({ offer, currency: offer.currency, fxRates: content.fxRates });
    const base = comparablePricePerGpuHour({ offer: od, currency: od.currency, fxRates: content.fxRates });
    examples.push({ offer, value: new Decimal(1).minus(price.div(base)).mul(HUNDRED) });
  }
  if (examples.length === 0) {
    return empty(figure, 'NO_LIST_PRICE', `${figure.claim}: ${figureText(figure)}; no list ${figure.pricingModel} and ON_DEMAND pair in this version`);
  }
  const stats = summarise(examples);
  const median = stats.listMedian;
  const low = figure.value;
  const high = figure.valueHigh ?? figure.value;
  const deviation = median.lt(low) ? median.minus(low) : median.gt(high) ? median.minus(high) : new Decimal(0);
  return compared(
    figure,
    stats,
    deviation,
    `${figure.claim}: figure ${figureText(figure)}; list ${figure.pricingModel} discounts against on-demand ` +
      `${formatAmount(stats.listLow)}–${formatAmount(stats.listHigh)}%, median ${formatAmount(median)}% ` +
      `(${signed(deviation)} points) over ${examples.length} pair(s)`,
  );
}

function compared(figure: ReferenceFigure, stats: ReturnType<typeof summarise>, deviation: Decimal, summary: string): FigureComparison {
  return { ...stats, figure, status: 'COMPARED', deviation, summary };
}

function compareEgress(figure: ReferenceFigure, content: CatalogContent): FigureComparison {
  const provider = content.providers.find((p) => p.slug === figure.provider);
  if (!provider?.egressUsdPerGb) {
    return empty(figure, 'NO_LIST_PRICE', `${figure.claim}: ${figureText(figure)}; ${figure.provider} has no known egress price in this version`);
  }
  const list = figure.currency === 'USD' ? provider.egressUsdPerGb : null;
  if (list === null) return empty(figure, 'NOT_COMPARABLE', `${figure.claim}: ${figureText(figure)}; egress list prices are kept in USD`);
  const deviation = relativeDeviation(list, figure);
  return {
    figure,
    status: 'COMPARED',
    matches: 1,
    listLow: list,
    listMedian: list,
    listHigh: list,
    cheapest: null,
    deviation,
    summary: `${figure.claim}: figure ${figureText(figure)}; list ${formatAmount(list)} USD/GB (${signed(deviation)}%)`,
  };
}

function summarise(examples: ListExample[]): { matches: number; listLow: Decimal; listMedian: Decimal; listHigh: Decimal; cheapest: ListExample } {
  const sorted = [...examples].sort((a, b) => a.value.cmp(b.value) || (a.offer.keyHash < b.offer.keyHash ? -1 : 1));
  const values = sorted.map((e) => e.value);
  const mid = Math.floor(values.length / 2);
  const median =
    values.length % 2
      ? at(values, mid)
      : at(values, mid - 1)
          .add(at(values, mid))
          .div(2);
  return { matches: sorted.length, listLow: at(values, 0), listMedian: median, listHigh: last(values), cheapest: at(sorted, 0) };
}

/** (list − figure) / figure × 100; 0 inside a range figure, else against the nearer end. */
export function relativeDeviation(list: Decimal, figure: Pick<ReferenceFigure, 'value' | 'valueHigh'>): Decimal {
  const low = figure.value;
  const high = figure.valueHigh ?? figure.value;
  if (list.gte(low) && list.lte(high)) return new Decimal(0);
  const end = list.lt(low) ? low : high;
  if (end.isZero()) return new Decimal(0);
  return list.minus(end).div(end).mul(HUNDRED);
}

function empty(figure: ReferenceFigure, status: ComparisonStatus, summary: string): FigureComparison {
  return { figure, status, matches: 0, listLow: null, listMedian: null, listHigh: null, cheapest: null, deviation: null, summary };
}

/** A figure's value as quoted: money with at least two decimals (3.90, not 3.9), percentages as they are. */
export function figureValueText(f: Pick<ReferenceFigure, 'currency'>, d: Decimal): string {
  return f.currency ? d.toFixed(Math.max(2, d.decimalPlaces())) : d.toString();
}

function figureText(f: ReferenceFigure): string {
  const show = (d: Decimal): string => figureValueText(f, d);
  const value = f.valueHigh && !f.valueHigh.eq(f.value) ? `${show(f.value)}–${show(f.valueHigh)}` : show(f.value);
  switch (f.metric) {
    case 'PRICE_PER_GPU_HOUR':
      return `${value} ${f.currency}/GPU-h`;
    case 'EGRESS_PER_GB':
      return `${value} ${f.currency}/GB`;
    case 'DISCOUNT_PERCENT':
      return `${value}% off on-demand`;
    case 'NONE':
      return value;
  }
}

function signed(d: Decimal): string {
  const rounded = d.toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN);
  return `${rounded.gte(0) ? '+' : ''}${rounded.toFixed(0)}`;
}
