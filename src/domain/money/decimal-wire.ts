// Plain data with decimals, to and from text, for crossing a thread boundary (the estimate worker
// pool). Decimals and non-finite numbers survive the trip; JSON alone would turn a Decimal into a
// string and Infinity into null.
import { Decimal } from 'decimal.js';

const DECIMAL = '$decimal';
const NUMBER = '$number';

export function toWire(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    if (raw instanceof Decimal) return { [DECIMAL]: raw.toString() };
    if (typeof raw === 'number' && !Number.isFinite(raw)) return { [NUMBER]: String(raw) };
    return v;
  });
}

export function fromWire<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const keys = Object.keys(v);
    if (keys.length !== 1) return v;
    const tagged = v as Record<string, unknown>;
    if (typeof tagged[DECIMAL] === 'string') return new Decimal(tagged[DECIMAL]);
    if (typeof tagged[NUMBER] === 'string') return Number(tagged[NUMBER]);
    return v;
  }) as T;
}
