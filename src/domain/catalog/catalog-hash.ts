// Deterministic identity for catalog rows: an offer's key hash (its natural key) survives price
// changes; a row's content hash is the md5 of its canonical JSON, so it covers every field the row
// has and no list of fields is kept by hand. Versions carry a checksum of the whole content, so an
// unchanged re-import is recognised before anything is written.
import { createHash } from 'node:crypto';
import { availabilityKey } from './availability.js';
import {
  energyFigureKey,
  type AvailabilityRecord,
  type CatalogContent,
  type EnergyFigure,
  type GpuModel,
  type Offer,
  type Provider,
  type ReferenceFigure,
  type Region,
} from './catalog.types.js';

/**
 * JSON with every object's keys sorted, fields holding undefined left out, dates as ISO strings
 * and decimals in canonical form (decimal.js's shortest exact string: "3.90" and "3.9" alike,
 * zero unsigned). One JSON.stringify with a replacer: offers are the bulk of a catalog (a million
 * in the import benchmark) and every one is serialised once per import.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value === undefined ? null : value, canonicalReplacer);
}

function canonicalReplacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  // JSON.stringify has already called toJSON (Date, Decimal); the holder still has the original.
  const original = this[key];
  if (typeof original === 'object' && original !== null && isDecimal(original)) {
    return original.isZero() ? '0' : original.toString();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) sorted[k] = (value as Record<string, unknown>)[k];
  return sorted;
}

/** A decimal.js instance (the catalog's only class-valued fields besides dates). */
function isDecimal(value: object): value is { toString(): string; isZero(): boolean } {
  return 'toFixed' in value && 'isZero' in value && 'd' in value && 'e' in value;
}

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

export function offerNaturalKey(o: Pick<Offer, 'providerSlug' | 'regionCode' | 'gpuSlug' | 'gpuCount' | 'instanceType' | 'pricingModel'>): string {
  return [o.providerSlug, o.regionCode, o.gpuSlug, o.gpuCount, o.instanceType, o.pricingModel].join('|');
}

export function offerKeyHash(o: Parameters<typeof offerNaturalKey>[0]): string {
  return md5(offerNaturalKey(o));
}

export type CatalogRow = Provider | Region | GpuModel | Offer | ReferenceFigure | AvailabilityRecord | EnergyFigure;

/** Rows are never changed once built, so a row's hash is computed once (the checksum and the storage both need it). */
const hashes = new WeakMap<CatalogRow, string>();

/** md5 of the row's canonical JSON: any field that changes, changes it. */
export function rowContentHash(row: CatalogRow): string {
  let hash = hashes.get(row);
  if (hash === undefined) {
    hash = md5(canonicalJson(row));
    hashes.set(row, hash);
  }
  return hash;
}

/** The fields of two forms of one row whose canonical values differ, in the newer row's key order. */
export function changedFields<T extends object>(before: T, after: T): (keyof T & string)[] {
  const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])] as (keyof T & string)[];
  return keys.filter((k) => canonicalJson({ [k]: before[k] }) !== canonicalJson({ [k]: after[k] }));
}

/** sha256 over the whole content in a canonical order; equal content gives an equal checksum. */
export function catalogChecksum(content: CatalogContent): string {
  const sorted = {
    fxRates: content.fxRates,
    providers: [...content.providers].sort((a, b) => cmp(a.slug, b.slug)),
    regions: [...content.regions].sort((a, b) => cmp(a.code, b.code)),
    gpus: [...content.gpus].sort((a, b) => cmp(a.slug, b.slug)),
    referenceFigures: [...content.referenceFigures].sort((a, b) => cmp(a.key, b.key)),
    availability: [...content.availability].sort((a, b) => cmp(availabilityKey(a.provider, a.instanceType), availabilityKey(b.provider, b.instanceType))),
    offers: content.offers.map((o) => `${o.keyHash}:${rowContentHash(o)}`).sort(),
  };
  const hash = createHash('sha256');
  hash.update(canonicalJson({ fxRates: sorted.fxRates }));
  for (const group of [sorted.providers, sorted.regions, sorted.gpus, sorted.referenceFigures, sorted.availability] as unknown[][]) {
    for (const row of group) hash.update(canonicalJson(row));
    hash.update('\n');
  }
  // Versions without energy figures keep the checksum they were written with.
  const energy = [...(content.energy ?? [])].sort((a, b) => cmp(energyFigureKey(a), energyFigureKey(b)));
  if (energy.length) {
    for (const row of energy) hash.update(canonicalJson(row));
    hash.update('\n');
  }
  hash.update(sorted.offers.join('\n'));
  return hash.digest('hex');
}

export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
