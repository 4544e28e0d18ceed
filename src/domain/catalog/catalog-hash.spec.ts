import fc from 'fast-check';
import { makeAvailabilityRecord, makeCatalog, makeGpu, makeOffer, makeProvider, makeReferenceFigure, makeRegion } from '../compliance/testing/factories.js';
import { Decimal } from '../money/money.js';
import { diffCatalogs } from './catalog-diff.js';
import { canonicalJson, catalogChecksum, offerKeyHash, rowContentHash, type CatalogRow } from './catalog-hash.js';
import { AVAILABILITIES, CURRENCIES, INTERRUPTION_RATES, PRICE_KINDS, PRICING_MODELS, SOURCE_KINDS, type CatalogContent, type Offer } from './catalog.types.js';
import { at } from '../checked.js';

/**
 * An offer with every field set (no nulls), so each field can be changed to another value and to
 * null. The type lists every field of Offer: a new field fails the type check here until it is
 * added, and the key comparison with the shared factory below fails at run time.
 */
const FULL_OFFER: { [K in keyof Offer]-?: NonNullable<Offer[K]> } = {
  keyHash: 'k',
  providerSlug: 'aws',
  regionCode: 'aws:us-east-1',
  gpuSlug: 'h100-sxm-80gb',
  gpuCount: 8,
  instanceType: 'p5.48xlarge',
  pricingModel: 'RESERVED_1Y',
  pricePerHour: new Decimal('31.20'),
  currency: 'USD',
  upfront: new Decimal('100000'),
  termMonths: 12,
  serverlessUnitPrice: new Decimal('0.000305'),
  serverlessUnit: 'GPU_SECOND',
  interruptionNoticeSeconds: 120,
  interruptionRate: '5-10%',
  market: {
    p10: new Decimal('1.2'),
    median: new Decimal('1.49'),
    p90: new Decimal('2.1'),
    sampleSize: 40,
    hostReliability: new Decimal('0.98'),
    interruptionsPerHour: new Decimal('0.02'),
    basis: 'verified datacentre hosts',
  },
  sourceUrl: 'https://example.test/prices',
  sourceTitle: 'Prices',
  observedAt: '2026-11-27',
  priceKind: 'LIST',
  derivation: 'rule',
  conversion: 'monthly / 730 h',
  sourceKind: 'MIRROR',
  availability: 'CONFIRMED',
  availabilityNote: 'sold there',
  validFrom: '2026-10-01',
  validUntil: '2026-12-31',
};

/** Whether each field may be null; the type makes each answer match Offer. */
const NULLABLE: { [K in keyof Offer]-?: null extends Offer[K] ? true : false } = {
  keyHash: false,
  providerSlug: false,
  regionCode: false,
  gpuSlug: false,
  gpuCount: false,
  instanceType: false,
  pricingModel: false,
  pricePerHour: false,
  currency: false,
  upfront: true,
  termMonths: true,
  serverlessUnitPrice: true,
  serverlessUnit: true,
  interruptionNoticeSeconds: true,
  interruptionRate: false,
  market: false,
  sourceUrl: false,
  sourceTitle: true,
  observedAt: false,
  priceKind: false,
  derivation: true,
  conversion: true,
  sourceKind: true,
  availability: false,
  availabilityNote: true,
  validFrom: true,
  validUntil: true,
};

/** Another value of the same kind, for any field of any catalog row. */
function another(value: unknown): unknown {
  if (value === null || value === undefined) return 'x';
  if (typeof value === 'string') return `${value}-changed`;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (Array.isArray(value)) return [...(value as unknown[]), 'X'];
  if (value instanceof Decimal) return value.plus('0.001');
  if (typeof value === 'object') return { ...value, changed: true };
  throw new Error(`no other value for ${String(value)}`);
}

const content = (offers: Offer[]): CatalogContent => makeCatalog({ gpus: [], offers });

/** What the diff says about `after` replacing `before` (same key hash unless the key hash changed). */
function diffOf(before: Offer, after: Offer) {
  return diffCatalogs({ from: content([before]), to: content([after]) });
}

function expectReported(before: Offer, after: Offer, field: keyof Offer): void {
  const diff = diffOf(before, after);
  if (field === 'keyHash') {
    // The key hash is the offer's identity: another one is another offer.
    expect([diff.removed.length, diff.added.length, diff.changed.length]).toEqual([1, 1, 0]);
    return;
  }
  expect(diff.changed).toHaveLength(1);
  expect(diff.unchangedOffers).toBe(0);
  if (field === 'pricePerHour') expect(canonicalJson(at(diff.changed, 0).newPricePerHour)).toBe(canonicalJson(after.pricePerHour));
  else expect(at(diff.changed, 0).otherChanges).toContain(field);
}

describe(rowContentHash.name, () => {
  it('lists every field the shared offer factory builds, and the optional ones it leaves out', () => {
    const optional = ['interruptionRate', 'market'];
    expect(Object.keys(FULL_OFFER).sort()).toEqual([...Object.keys(makeOffer()), ...optional].sort());
    expect(Object.keys(NULLABLE).sort()).toEqual([...Object.keys(makeOffer()), ...optional].sort());
  });

  it('is the same for an offer without an interruption rate as before the field existed (absent, not null)', () => {
    const offer = makeOffer();
    expect('interruptionRate' in offer).toBe(false);
    expect(rowContentHash({ ...offer, interruptionRate: undefined })).toBe(rowContentHash({ ...offer }));
    expect(canonicalJson(offer)).not.toContain('interruptionRate');
  });

  it('changes when any one field of an offer changes, to another value or to null, and the diff names the field', () => {
    const base = { ...FULL_OFFER } as Offer;
    for (const field of Object.keys(FULL_OFFER) as (keyof Offer)[]) {
      for (const value of NULLABLE[field] ? [another(base[field]), null] : [another(base[field])]) {
        const changed = { ...base, [field]: value };
        expect([field, rowContentHash(changed)]).not.toEqual([field, rowContentHash(base)]);
        expectReported(base, changed, field);
      }
    }
  });

  it('changes with any field of any offer (property), and the catalog diff reports it', () => {
    const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
    const decimal = fc.integer({ min: 0, max: 10_000_000 }).map((n) => new Decimal(n).div(1000));
    const text = fc.string({ minLength: 1, maxLength: 12 });
    // Every field of Offer, by type: a new field is a type error here until it has an arbitrary.
    const fields: { [K in keyof Offer]-?: fc.Arbitrary<Offer[K]> } = {
      keyHash: fc.stringMatching(/^[0-9a-f]{32}$/),
      providerSlug: text,
      regionCode: text,
      gpuSlug: text,
      gpuCount: fc.integer({ min: 1, max: 64 }),
      instanceType: text,
      pricingModel: fc.constantFrom(...PRICING_MODELS),
      pricePerHour: decimal,
      currency: fc.constantFrom(...CURRENCIES),
      upfront: nullable(decimal),
      termMonths: nullable(fc.integer({ min: 1, max: 120 })),
      serverlessUnitPrice: nullable(decimal),
      serverlessUnit: nullable(text),
      interruptionNoticeSeconds: nullable(fc.integer({ min: 0, max: 86_400 })),
      interruptionRate: fc.option(fc.constantFrom(...INTERRUPTION_RATES), { nil: undefined }),
      market: fc.option(
        fc.record({
          p10: decimal,
          median: decimal,
          p90: decimal,
          sampleSize: fc.integer({ min: 1, max: 1000 }),
          hostReliability: nullable(decimal),
          interruptionsPerHour: nullable(decimal),
          basis: text,
        }),
        { nil: undefined },
      ),
      sourceUrl: text,
      sourceTitle: nullable(text),
      observedAt: text,
      priceKind: fc.constantFrom(...PRICE_KINDS),
      derivation: nullable(text),
      conversion: nullable(text),
      sourceKind: nullable(fc.constantFrom(...SOURCE_KINDS)),
      availability: fc.constantFrom(...AVAILABILITIES),
      availabilityNote: nullable(text),
      validFrom: nullable(text),
      validUntil: nullable(text),
    };
    const offer = fc.record(fields) as fc.Arbitrary<Offer>;
    const field = fc.constantFrom(...(Object.keys(fields) as (keyof Offer)[]));
    fc.assert(
      fc.property(offer, field, fc.boolean(), (before, f, toNull) => {
        const value = toNull && NULLABLE[f] && before[f] !== null ? null : another(before[f]);
        const after = { ...before, [f]: value };
        expect(rowContentHash(after)).not.toBe(rowContentHash(before));
        expectReported(before, after, f);
      }),
    );
  });

  it('hashes decimals by value and ignores the order fields were written in', () => {
    const a = makeOffer({ pricePerHour: new Decimal('3.90'), upfront: new Decimal('0') });
    const b = makeOffer({ pricePerHour: new Decimal('3.9'), upfront: new Decimal('-0') });
    expect(rowContentHash(b)).toBe(rowContentHash(a));
    const reversed = Object.fromEntries(Object.entries(a).reverse()) as unknown as Offer;
    expect(rowContentHash(reversed)).toBe(rowContentHash(a));
    expect(diffOf(a, b)).toMatchObject({ changed: [], unchangedOffers: 1 });
  });

  it('changes when any one field of a provider, region, GPU, reference figure or availability record changes, and the diff names the row', () => {
    const rows: [CatalogRow, keyof CatalogContent, string[]][] = [
      [makeProvider({ website: 'https://aws.example', source: 'x' }), 'providers', ['slug']],
      [makeRegion(), 'regions', ['code']],
      [makeGpu({ source: 'x' }), 'gpus', ['slug']],
      [makeReferenceFigure({ valueHigh: new Decimal(4), note: 'x' }), 'referenceFigures', ['key']],
      [makeAvailabilityRecord({ pricingModels: ['SPOT'], note: 'x' }), 'availability', ['provider', 'instanceType']],
    ];
    for (const [row, group, keyFields] of rows) {
      for (const field of Object.keys(row)) {
        const changed = { ...row, [field]: another((row as unknown as Record<string, unknown>)[field]) };
        expect([field, rowContentHash(changed)]).not.toEqual([field, rowContentHash(row)]);
        const diff = diffCatalogs({ from: makeCatalog({ gpus: [], [group]: [row] }), to: makeCatalog({ gpus: [], [group]: [changed] }) });
        const changes = diff.reference.map((r) => r.change).sort();
        expect([field, changes]).toEqual([field, keyFields.includes(field) ? ['added', 'removed'] : ['changed']]);
      }
    }
  });
});

describe(catalogChecksum.name, () => {
  it('changes with an upfront-only change of one offer', () => {
    const o = { ...makeOffer({ pricingModel: 'RESERVED_1Y', termMonths: 12, upfront: new Decimal(1000) }) };
    const keyed = { ...o, keyHash: offerKeyHash(o) };
    const repriced = { ...keyed, upfront: new Decimal(1200) };
    expect(catalogChecksum(content([repriced]))).not.toBe(catalogChecksum(content([keyed])));
    expect(at(diffOf(keyed, repriced).changed, 0).otherChanges).toEqual(['upfront']);
  });
});
