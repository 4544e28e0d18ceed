// A marketplace offer's price spread as the database keeps it: one JSON value, decimals as text so
// that no figure passes through a float on the way in or out.
import { Decimal } from 'decimal.js';
import type { MarketPrices } from './catalog.types.js';

/** The JSON text stored in offers.market: keys in a fixed order, decimals as strings. */
export function marketToJson(m: MarketPrices): string {
  return JSON.stringify({
    p10: m.p10.toString(),
    median: m.median.toString(),
    p90: m.p90.toString(),
    sampleSize: m.sampleSize,
    hostReliability: m.hostReliability?.toString() ?? null,
    interruptionsPerHour: m.interruptionsPerHour?.toString() ?? null,
    basis: m.basis,
  });
}

/** offers.market as pg returns it (parsed JSON) or as text, back to MarketPrices. */
export function marketFromJson(value: unknown): MarketPrices {
  const v = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
  const dec = (x: unknown): Decimal => new Decimal(String(x));
  const decOrNull = (x: unknown): Decimal | null => (x === null || x === undefined ? null : dec(x));
  return {
    p10: dec(v.p10),
    median: dec(v.median),
    p90: dec(v.p90),
    sampleSize: Number(v.sampleSize),
    hostReliability: decOrNull(v.hostReliability),
    interruptionsPerHour: decOrNull(v.interruptionsPerHour),
    basis: String(v.basis),
  };
}
