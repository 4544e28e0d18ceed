import fc from 'fast-check';
import { makeOffer } from '../compliance/testing/factories.js';
import { Decimal } from '../money/money.js';
import { catalogChecksum, offerKeyHash } from './catalog-hash.js';
import { diffCatalogs } from './catalog-diff.js';
import type { CatalogContent, Offer } from './catalog.types.js';
import { at } from '../checked.js';

// The shared test factory, with the real key hash (the diff compares offers by it).
const offer = (over: Partial<Offer> = {}): Offer => {
  const o = makeOffer({ regionCode: 'aws:us-east-1', gpuCount: 8, instanceType: 'p5.48xlarge', pricePerHour: new Decimal('31.20'), ...over });
  return { ...o, keyHash: offerKeyHash(o) };
};

const content = (offers: Offer[]): CatalogContent => ({
  providers: [],
  regions: [],
  gpus: [],
  offers,
  referenceFigures: [],
  availability: [],
  fxRates: { base: 'USD', rates: { EUR: '0.8650' }, date: '2026-11-27', source: 'test' },
});

describe(diffCatalogs.name, () => {
  it('finds added, removed and changed offers by natural key, with the change in percent', () => {
    const a = offer();
    const b = offer({ instanceType: 'p5e.48xlarge' });
    const c = offer({ pricingModel: 'SPOT' });
    const diff = diffCatalogs({ from: content([a, b]), to: content([{ ...a, pricePerHour: new Decimal('27.30') }, c]) });
    expect(diff.added.map((o) => o.keyHash)).toEqual([c.keyHash]);
    expect(diff.removed.map((o) => o.keyHash)).toEqual([b.keyHash]);
    expect(diff.changed).toHaveLength(1);
    expect(at(diff.changed, 0).changePct?.toFixed(4)).toBe('-12.5000');
    expect(diff.unchangedOffers).toBe(0);
  });

  it('reports a changed source without a price change as a change, naming the field', () => {
    const a = offer();
    const diff = diffCatalogs({ from: content([a]), to: content([{ ...a, observedAt: '2026-11-01' }]) });
    expect(at(diff.changed, 0).otherChanges).toEqual(['observedAt']);
    expect(at(diff.changed, 0).changePct?.toNumber()).toBe(0);
  });

  it('finds nothing between a catalog and itself, in any order (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 64 }), { maxLength: 30 }), fc.integer({ min: 0, max: 1000 }), (counts, seed) => {
        const offers = counts.map((n) => offer({ gpuCount: n, pricePerHour: new Decimal(n).mul(3.9) }));
        const shuffled = [...offers].sort((x, y) => ((x.gpuCount * seed) % 7) - ((y.gpuCount * seed) % 7));
        const diff = diffCatalogs({ from: content(offers), to: content(shuffled) });
        expect(diff.added.length + diff.removed.length + diff.changed.length).toBe(0);
        expect(catalogChecksum(content(shuffled))).toBe(catalogChecksum(content(offers)));
      }),
    );
  });

  it('gives "3.90" and "3.9" the same checksum, and any real price change a different one', () => {
    const a = content([offer({ pricePerHour: new Decimal('3.90') })]);
    const b = content([offer({ pricePerHour: new Decimal('3.9') })]);
    const c = content([offer({ pricePerHour: new Decimal('3.91') })]);
    expect(catalogChecksum(a)).toBe(catalogChecksum(b));
    expect(catalogChecksum(c)).not.toBe(catalogChecksum(a));
  });
});
