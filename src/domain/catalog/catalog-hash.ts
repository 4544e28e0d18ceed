// Deterministic identity for catalog rows: an offer's key hash (its natural key) survives price
// changes; a content hash changes with any stored field. Versions carry a checksum of the whole
// content, so an unchanged re-import is recognised before anything is written.
import { createHash } from 'node:crypto';
import type { CatalogContent, GpuModel, Offer, Provider, ReferenceFigure, Region } from './catalog.types.js';

type Plain = string | number | boolean | null | Plain[] | { [key: string]: Plain };

/** JSON with sorted keys and decimals as normalised strings ("3.90" and "3.9" hash alike). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(toPlain(value));
}

function toPlain(value: unknown): Plain {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && 'toFixed' in value && 'isZero' in value) {
    // decimal.js instance: the shortest exact form, no trailing zeros.
    return (value as { toString(): string }).toString();
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, toPlain(v)]));
}

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

export function offerNaturalKey(o: Pick<Offer, 'providerSlug' | 'regionCode' | 'gpuSlug' | 'gpuCount' | 'instanceType' | 'pricingModel'>): string {
  return [o.providerSlug, o.regionCode, o.gpuSlug, o.gpuCount, o.instanceType, o.pricingModel].join('|');
}

export function offerKeyHash(o: Parameters<typeof offerNaturalKey>[0]): string {
  return md5(offerNaturalKey(o));
}

const offerHashes = new WeakMap<Offer, string>();

/**
 * Every field of an offer, in the order hashed. The `satisfies` makes a new Offer field a compile
 * error here until it is listed, so no stored field can change without changing the hash.
 */
export const OFFER_FIELDS = Object.keys({
  keyHash: 1, providerSlug: 1, regionCode: 1, gpuSlug: 1, gpuCount: 1, instanceType: 1, pricingModel: 1, pricePerHour: 1,
  currency: 1, upfront: 1, termMonths: 1, serverlessUnitPrice: 1, serverlessUnit: 1, interruptionNoticeSeconds: 1,
  sourceUrl: 1, sourceTitle: 1, observedAt: 1, priceKind: 1, derivation: 1, conversion: 1,
} satisfies Record<keyof Offer, 1>) as (keyof Offer)[];

/**
 * An offer's content hash: every field in a fixed order. Offers are the bulk of a catalog
 * (a million in the import benchmark), so this avoids generic canonical JSON and is computed once
 * per offer object (the checksum and the storage both need it).
 */
export function offerContentHash(o: Offer): string {
  let hash = offerHashes.get(o);
  if (hash === undefined) {
    hash = md5(OFFER_FIELDS.map((k) => { const f = o[k]; return f === null || f === undefined ? '\u0000' : String(f); }).join('\u001f'));
    offerHashes.set(o, hash);
  }
  return hash;
}

export function rowContentHash(row: Provider | Region | GpuModel | Offer | ReferenceFigure): string {
  return 'keyHash' in row ? offerContentHash(row) : md5(canonicalJson(row));
}

/** sha256 over the whole content in a canonical order; equal content gives an equal checksum. */
export function catalogChecksum(content: CatalogContent): string {
  const sorted = {
    fxRates: content.fxRates,
    providers: [...content.providers].sort((a, b) => cmp(a.slug, b.slug)),
    regions: [...content.regions].sort((a, b) => cmp(a.code, b.code)),
    gpus: [...content.gpus].sort((a, b) => cmp(a.slug, b.slug)),
    referenceFigures: [...content.referenceFigures].sort((a, b) => cmp(a.key, b.key)),
    offers: content.offers.map((o) => `${o.keyHash}:${offerContentHash(o)}`).sort(),
  };
  const hash = createHash('sha256');
  hash.update(canonicalJson({ fxRates: sorted.fxRates }));
  for (const group of [sorted.providers, sorted.regions, sorted.gpus, sorted.referenceFigures] as unknown[][]) {
    for (const row of group) hash.update(canonicalJson(row));
    hash.update('\n');
  }
  hash.update(sorted.offers.join('\n'));
  return hash.digest('hex');
}

export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
