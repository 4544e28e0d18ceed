// Which FX rate an answer converted prices with, and whether it is too old to trust. An answer in
// EUR built from USD list prices is only as good as its rate, so the answer names it (rate, date,
// source) and warns when it is older than the operator allows (STALE_FX_DAYS).
import type { Currency, FxRates } from '../catalog/catalog.types.js';
import { daysBetween } from '../iso-date.js';

/** Default of STALE_FX_DAYS: a rate older than this is flagged in the answers that use it. */
export const DEFAULT_STALE_FX_DAYS = 14;

export interface ExchangeRateUsed {
  /** One unit of `base` buys `rate` units of `currency`. */
  base: Currency;
  currency: Currency;
  rate: string;
  /** ISO date of the rate. */
  date: string;
  source: string;
  /** Days from the rate's date to the answer's reference date (today, or asOf). */
  ageDays: number;
}

/**
 * The rate an answer in `currency` used: named whenever the answer is not in the rates' base
 * currency, or any of its prices was listed in another currency than the answer's; null when
 * nothing was converted.
 */
export function exchangeRateUsed({
  fxRates,
  currency,
  priceCurrencies,
  referenceDate,
}: {
  fxRates: FxRates;
  currency: Currency;
  /** The list currencies of the prices the answer shows. */
  priceCurrencies: Iterable<Currency>;
  referenceDate: string;
}): ExchangeRateUsed | null {
  let other: Currency | null = currency === fxRates.base ? null : currency;
  if (other === null) {
    for (const c of priceCurrencies) {
      if (c !== currency) {
        other = c;
        break;
      }
    }
  }
  if (other === null) return null;
  const rate = fxRates.rates[other];
  if (rate === undefined) return null;
  return { base: fxRates.base, currency: other, rate, date: fxRates.date, source: fxRates.source, ageDays: daysBetween(fxRates.date, referenceDate) };
}

/** A warning when the rate an answer used is older than `staleAfterDays`; null otherwise. */
export function staleExchangeRateWarning(used: ExchangeRateUsed | null, staleAfterDays: number): string | null {
  if (used === null || used.ageDays <= staleAfterDays) return null;
  return (
    `prices converted at 1 ${used.base} = ${used.rate} ${used.currency}, the rate of ${used.date}: ${used.ageDays} days old ` +
    `(older than ${staleAfterDays} days); amounts in the other currency may be off by the rate's move since`
  );
}
