// The forms' fields with their defaults (what url-state.ts writes to and reads from the address),
// and the small tables inside them (discounts, measured throughput) turned into GraphQL input. A
// part that cannot be sent at all (a discount without provider or percent, a rate that is not a
// number) is named here, next to its field, as the API names its own refusals; every other rule
// is the API's.
import type { FieldError } from './graphql';
import { profileOf } from './profiles';
import { itemsToRows, rowsToItems } from './url-state';

export const OFFER_DEFAULTS = {
  gpus: [] as string[],
  gpuCount: '',
  providers: [] as string[],
  excludeProviders: '',
  countries: '',
  regions: '',
  pricingModels: [] as string[],
  currency: 'USD',
  preset: '',
  residency: '',
  partialAdequacy: false,
  operator: '',
  certifications: '',
  tolerance: '',
  minSla: '',
  maxPrice: '',
  maxGrid: '',
  maxPriceAge: '',
  estimates: false,
  minSource: '',
  confirmed: false,
  discounts: [] as string[],
  limit: '50',
  explain: false,
};
export type OfferForm = typeof OFFER_DEFAULTS;

/**
 * The first estimate a visitor sees: Llama-3-8B as a chat assistant on the GPUs an 8B model is
 * usually served on (L4, L40S, A10G), an average diurnal day peaking at 40 requests/s, a tenth of
 * the requests deferrable batch work, and recoverable from spot interruptions.
 */
export const ESTIMATE_DEFAULTS = {
  model: 'llama-3-8b',
  params: '',
  precisions: [] as string[],
  period: 'day',
  shape: 'diurnal',
  peak: '40',
  profile: profileOf('diurnal', 40),
  input: '500',
  output: '200',
  batch: '0.1',
  tolerance: 'RECOVERABLE',
  preset: '',
  gpus: ['l4-24gb', 'l40s-48gb', 'a10g-24gb'],
  currency: 'USD',
  discounts: [] as string[],
  apiPrice: '',
  measured: [] as string[],
  optimizeFor: 'COST',
  version: '',
  // Rent or buy (OwnedInput): sent once an electricity price or a site is given; the API fills sourced defaults.
  site: '',
  serverPrice: '',
  gpusPerServer: '8',
  electricity: '',
  colocation: '',
  depreciationYears: '',
  costOfCapital: '',
  operationsShare: '',
};
export type EstimateForm = typeof ESTIMATE_DEFAULTS;

export const DISCOUNT_KEYS = ['provider', 'percent'] as const;
export type DiscountRow = Record<(typeof DISCOUNT_KEYS)[number], string>;
export const MEASURED_KEYS = ['gpu', 'precision', 'tokens', 'requests'] as const;
export type MeasuredRow = Record<(typeof MEASURED_KEYS)[number], string>;

export const discountRows = (items: readonly string[]): DiscountRow[] => itemsToRows(items, DISCOUNT_KEYS);
export const discountItems = (rows: readonly DiscountRow[]): string[] => rowsToItems(rows, DISCOUNT_KEYS);
export const measuredRows = (items: readonly string[]): MeasuredRow[] => itemsToRows(items, MEASURED_KEYS);
export const measuredItems = (rows: readonly MeasuredRow[]): string[] => rowsToItems(rows, MEASURED_KEYS);

export interface Built<T> {
  value: T;
  errors: FieldError[];
}

/** A number as typed, or undefined for an empty field; NaN when it is not a number. */
function numberOf(text: string): number | undefined {
  const t = text.trim();
  return t === '' ? undefined : Number(t);
}

/** Discount rows as DiscountInput, in the order shown (the API names them discounts[i]). */
export function discountInput(items: readonly string[]): Built<{ provider: string; percent: number }[]> {
  const errors: FieldError[] = [];
  const value = discountRows(items).map((row, i) => {
    const provider = row.provider.trim();
    const percent = numberOf(row.percent);
    if (!provider) errors.push({ field: `discounts[${i}].provider`, message: 'is required' });
    if (percent === undefined) errors.push({ field: `discounts[${i}].percent`, message: 'is required' });
    else if (!Number.isFinite(percent)) errors.push({ field: `discounts[${i}].percent`, message: 'must be a number' });
    return { provider, percent: percent ?? 0 };
  });
  return { value, errors };
}

export interface MeasuredThroughput {
  gpu?: string;
  precision?: string;
  outputTokensPerSecond?: number;
  requestsPerSecond?: number;
}

/** Measured throughput rows as MeasuredThroughputInput: empty parts are left out (every GPU, every precision). */
export function measuredInput(items: readonly string[]): Built<MeasuredThroughput[]> {
  const errors: FieldError[] = [];
  const value = measuredRows(items).map((row, i) => {
    const out: MeasuredThroughput = {};
    if (row.gpu.trim()) out.gpu = row.gpu.trim();
    if (row.precision.trim()) out.precision = row.precision.trim();
    for (const [key, field] of [
      ['tokens', 'outputTokensPerSecond'],
      ['requests', 'requestsPerSecond'],
    ] as const) {
      const n = numberOf(row[key]);
      if (n === undefined) continue;
      if (Number.isFinite(n)) out[field] = n;
      else errors.push({ field: `measuredThroughput[${i}].${field}`, message: 'must be a number' });
    }
    return out;
  });
  return { value, errors };
}

export interface Owned {
  site?: string;
  serverPriceUsd?: string;
  electricityUsdPerKwh?: string;
  colocationUsdPerKwMonth?: string;
  gpusPerServer?: number;
  depreciationYears?: number;
  costOfCapitalPercent?: number;
  operationsSharePercent?: number;
}

/**
 * The rent-or-buy fields as OwnedInput: undefined until an electricity price or a site is given
 * (the API needs one of them; server price and colocation have sourced defaults there). Prices go
 * as typed, decimal strings the API checks; empty fields are left out (the API's defaults).
 */
export function ownedInput(f: EstimateForm): Built<Owned | undefined> {
  const [site, serverPriceUsd, electricityUsdPerKwh, colocationUsdPerKwMonth] = [f.site.toUpperCase(), f.serverPrice, f.electricity, f.colocation].map((t) =>
    t.trim(),
  );
  if (!site && !electricityUsdPerKwh) return { value: undefined, errors: [] };
  const errors: FieldError[] = [];
  const given = Object.entries({ site, serverPriceUsd, electricityUsdPerKwh, colocationUsdPerKwMonth }).filter(([, v]) => v !== '');
  const value: Owned = Object.fromEntries(given);
  for (const [key, field] of [
    ['gpusPerServer', 'gpusPerServer'],
    ['depreciationYears', 'depreciationYears'],
    ['costOfCapital', 'costOfCapitalPercent'],
    ['operationsShare', 'operationsSharePercent'],
  ] as const) {
    const n = numberOf(f[key]);
    if (n === undefined) continue;
    if (Number.isFinite(n)) value[field] = n;
    else errors.push({ field: `owned.${field}`, message: 'must be a number' });
  }
  return { value, errors };
}

/** The names the API may give a part of the i-th row of a list: discounts[0].percent (the rules) or discounts.0.percent (validation). */
export const rowField = (list: string, i: number, part: string): string[] => [`${list}[${i}].${part}`, `${list}.${i}.${part}`];
