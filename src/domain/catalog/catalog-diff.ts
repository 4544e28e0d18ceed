// What changed between two catalog versions, compared by natural keys.
import type { Decimal } from 'decimal.js';
import { changedFields, cmp, offerNaturalKey, rowContentHash, type CatalogRow } from './catalog-hash.js';
import { energyFigureKey, type CatalogContent, type Offer } from './catalog.types.js';
import { availabilityKey } from './availability.js';

export interface OfferPriceChange {
  offer: Offer; // the new row
  before: Offer;
  oldPricePerHour: Decimal;
  newPricePerHour: Decimal;
  /** (new − old) / old × 100; null when the old price was zero or the currency changed. */
  changePct: Decimal | null;
  oldCurrency: Offer['currency'];
  /** Every field other than the price that changed (currency, source, observedAt, ...). */
  otherChanges: string[];
}

export interface CatalogDiff {
  added: Offer[];
  removed: Offer[];
  changed: OfferPriceChange[];
  /** Reference data whose content changed, by kind and key. */
  reference: { kind: 'provider' | 'region' | 'gpu' | 'referenceFigure' | 'availability' | 'energy'; key: string; change: 'added' | 'removed' | 'changed' }[];
  unchangedOffers: number;
}

export function diffCatalogs({ from, to }: { from: CatalogContent; to: CatalogContent }): CatalogDiff {
  const before = new Map(from.offers.map((o) => [o.keyHash, o]));
  const after = new Map(to.offers.map((o) => [o.keyHash, o]));
  const added: Offer[] = [];
  const changed: OfferPriceChange[] = [];
  let unchangedOffers = 0;
  for (const [key, offer] of after) {
    const old = before.get(key);
    if (!old) {
      added.push(offer);
      continue;
    }
    // The same test as the storage's: equal content hashes, equal rows.
    if (rowContentHash(old) === rowContentHash(offer)) {
      unchangedOffers++;
      continue;
    }
    const otherChanges = changedFields(old, offer).filter((f) => f !== 'pricePerHour');
    const comparable = old.currency === offer.currency && !old.pricePerHour.isZero();
    changed.push({
      offer,
      before: old,
      oldPricePerHour: old.pricePerHour,
      newPricePerHour: offer.pricePerHour,
      changePct: comparable ? offer.pricePerHour.minus(old.pricePerHour).div(old.pricePerHour).mul(100) : null,
      oldCurrency: old.currency,
      otherChanges,
    });
  }
  const removed = from.offers.filter((o) => !after.has(o.keyHash));
  const byKey = (a: Offer, b: Offer): number => cmp(offerNaturalKey(a), offerNaturalKey(b));
  return {
    added: added.sort(byKey),
    removed: removed.sort(byKey),
    changed: changed.sort((a, b) => byKey(a.offer, b.offer)),
    reference: [
      ...diffReference('provider', from.providers, to.providers, (p) => p.slug),
      ...diffReference('region', from.regions, to.regions, (r) => r.code),
      ...diffReference('gpu', from.gpus, to.gpus, (g) => g.slug),
      ...diffReference('referenceFigure', from.referenceFigures ?? [], to.referenceFigures ?? [], (f) => f.key),
      ...diffReference('availability', from.availability ?? [], to.availability ?? [], (a) => availabilityKey(a.provider, a.instanceType)),
      ...diffReference('energy', from.energy ?? [], to.energy ?? [], energyFigureKey),
    ],
    unchangedOffers,
  };
}

function diffReference<T extends CatalogRow>(
  kind: CatalogDiff['reference'][number]['kind'],
  from: T[],
  to: T[],
  keyOf: (row: T) => string,
): CatalogDiff['reference'] {
  const before = new Map(from.map((r) => [keyOf(r), rowContentHash(r)]));
  const after = new Map(to.map((r) => [keyOf(r), rowContentHash(r)]));
  const out: CatalogDiff['reference'] = [];
  for (const [key, hash] of after) {
    const old = before.get(key);
    if (old === undefined) out.push({ kind, key, change: 'added' });
    else if (old !== hash) out.push({ kind, key, change: 'changed' });
  }
  for (const key of before.keys()) if (!after.has(key)) out.push({ kind, key, change: 'removed' });
  return out.sort((a, b) => cmp(a.key, b.key));
}
