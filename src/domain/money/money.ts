// Money is decimal (decimal.js) with its currency. Floats are for quantities (hours, requests),
// never for stored prices.
import { Decimal } from 'decimal.js';
import type { Currency, FxRates } from '../catalog/catalog.types.js';

export { Decimal };

export interface Money {
  amount: Decimal;
  currency: Currency;
}

export const AMOUNT_DECIMALS = 4;

export function money(amount: Decimal.Value, currency: Currency): Money {
  return { amount: new Decimal(amount), currency };
}

/** The wire form used by REST and GraphQL: a decimal string with 4 places. */
export function formatAmount(amount: Decimal): string {
  return amount.toFixed(AMOUNT_DECIMALS, Decimal.ROUND_HALF_EVEN);
}

/** Decimals of a total on the wire: cents. */
export const TOTAL_DECIMALS = 2;

/** The wire form of a total (a month's cost): a decimal string in cents, half to even. */
export function formatTotal(amount: Decimal): string {
  return amount.toFixed(TOTAL_DECIMALS, Decimal.ROUND_HALF_EVEN);
}

/** Each catalog Decimal's wire form, kept while the Decimal lives. */
const formatted = new WeakMap<Decimal, string>();

/**
 * formatAmount for a Decimal the catalog holds for as long as a version is loaded (an offer's list
 * price, a price the version's index computed per currency): these are the same objects in every
 * answer of a version, and a Decimal never changes, so each is rounded once. Amounts made for one
 * request (an estimate's) go to formatAmount: keeping each here would cost more than rounding it
 * (a WeakMap entry, about 0.5 µs more per amount, measured).
 */
export function formatCatalogAmount(amount: Decimal): string {
  let text = formatted.get(amount);
  if (text === undefined) {
    text = formatAmount(amount);
    formatted.set(amount, text);
  }
  return text;
}

export class MissingFxRateError extends Error {
  constructor(
    readonly from: Currency,
    readonly to: Currency,
  ) {
    super(`no FX rate from ${from} to ${to} in this catalog version`);
  }
}

/** Units of `to` that one unit of `from` buys, from the version's rates. */
export function fxRate(rates: FxRates, from: Currency, to: Currency): Decimal {
  if (from === to) return new Decimal(1);
  const perBase = (c: Currency): Decimal => {
    if (c === rates.base) return new Decimal(1);
    const r = rates.rates[c];
    if (r === undefined) throw new MissingFxRateError(from, to);
    return new Decimal(r);
  };
  return perBase(to).div(perBase(from));
}

/** Converts at full precision; round only when formatting. */
export function convert(amount: Decimal, from: Currency, to: Currency, rates: FxRates): Decimal {
  return from === to ? amount : amount.mul(fxRate(rates, from, to));
}
