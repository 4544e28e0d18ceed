// What an offer's own record decides: its validity window, the kind of source its price was read
// from, and whether the provider's own data confirms it can be ordered there.
import { Decimal } from '../money/money.js';
import { findCheapestCompliant } from './cheapest.js';
import { filterOffers } from './filter-offers.js';
import { PolicyError, resolvePolicy, type PolicyInput } from './policy.js';
import { priceQualityWarnings } from './price-quality.js';
import { ANY_REQUIREMENT } from './requirement.js';
import { makeCatalog, makeOffer, makeProvider, makeRegion } from './testing/factories.js';

// Cheapest first: a promotion (1.00) that ended 2026-09-30, a price announced from 2026-12-15
// (1.50), a mirror's copy (2.00), an unconfirmed provider page (2.50), the provider's API (3.00).
const promotion = makeOffer({ instanceType: 'promo', pricePerHour: new Decimal('1.00'), validUntil: '2026-09-30' });
const announced = makeOffer({ instanceType: 'next', pricePerHour: new Decimal('1.50'), validFrom: '2026-12-15' });
const mirror = makeOffer({ instanceType: 'mirror', pricePerHour: new Decimal('2.00'), sourceKind: 'MIRROR' });
const unconfirmed = makeOffer({
  instanceType: 'unconfirmed',
  pricePerHour: new Decimal('2.50'),
  sourceKind: 'PROVIDER_PAGE',
  availability: 'UNCONFIRMED',
  availabilityNote: 'stock per data centre not published',
});
const api = makeOffer({ instanceType: 'api', pricePerHour: new Decimal('3.00'), sourceKind: 'PROVIDER_API' });
const legacy = makeOffer({ instanceType: 'legacy', pricePerHour: new Decimal('3.50'), sourceKind: null });
const catalog = makeCatalog({ providers: [makeProvider()], regions: [makeRegion()], offers: [promotion, announced, mirror, unconfirmed, api, legacy] });

const cheapest = (policy: PolicyInput, referenceDate = '2026-12-02') =>
  findCheapestCompliant({
    catalog,
    requirement: ANY_REQUIREMENT,
    policy: resolvePolicy({ referenceDate, ...policy }),
    currency: 'USD',
    explain: true,
    limit: 10,
  });
const types = (items: { offer: { instanceType: string } }[]) => items.map((i) => i.offer.instanceType);

describe('validity windows', () => {
  it('never ranks an offer outside its window, counted from the reference date, and says why in excluded', () => {
    const r = cheapest({});
    // The unconfirmed page price ranks after every confirmed one (orderability.spec.ts).
    expect(types(r.items)).toEqual(['mirror', 'api', 'legacy', 'unconfirmed']);
    expect(r.excluded.map((e) => [e.offer.instanceType, e.reasons.map((x) => `${x.rule}: ${x.message}`)])).toEqual([
      ['promo', ['VALIDITY: price valid until 2026-09-30, before 2026-12-02']],
      ['next', ['VALIDITY: price valid from 2026-12-15, after 2026-12-02']],
    ]);
  });

  it('is inclusive on both ends and follows asOf: the promotion ranks on its last day, the announced price from its first', () => {
    expect(types(cheapest({}, '2026-09-30').items)[0]).toBe('promo');
    expect(types(cheapest({}, '2026-10-01').items)[0]).toBe('mirror');
    expect(types(cheapest({}, '2026-12-15').items)[0]).toBe('next');
    expect(at0(cheapest({}, '2026-09-30').items).passes).toContain('price valid … to 2026-09-30, which includes 2026-09-30');
    // The listing applies the same rule.
    const page = filterOffers({ catalog, policy: resolvePolicy({ referenceDate: '2026-12-02' }), currency: 'USD', limit: 10 });
    expect(types(page.items)).toEqual(['mirror', 'api', 'legacy', 'unconfirmed']);
  });
});

describe('minSourceKind', () => {
  it('ranks only prices read from a source at least that good, best first PROVIDER_API, PROVIDER_PAGE, MIRROR', () => {
    expect(types(cheapest({ minSourceKind: 'PROVIDER_PAGE' }).items)).toEqual(['api', 'unconfirmed']);
    expect(types(cheapest({ minSourceKind: 'PROVIDER_API' }).items)).toEqual(['api']);
    expect(types(cheapest({ minSourceKind: 'MIRROR' }).items)).toEqual(['mirror', 'api', 'unconfirmed']);
    const excluded = cheapest({ minSourceKind: 'PROVIDER_API' }).excluded.find((e) => e.offer.instanceType === 'mirror');
    expect(excluded?.reasons).toEqual([{ rule: 'SOURCE', message: 'price read from a MIRROR source, below the required PROVIDER_API' }]);
  });

  it('ranks an offer whose source kind was never recorded below every kind', () => {
    expect(types(cheapest({ minSourceKind: 'ANNOUNCEMENT' }).items)).not.toContain('legacy');
    expect(cheapest({ minSourceKind: 'ANNOUNCEMENT' }).nearestMisses).toEqual([]);
  });

  it('names the field and the values for an unknown kind, and never loosens a preset', () => {
    expect(() => resolvePolicy({ minSourceKind: 'BLOG' })).toThrow(
      expect.objectContaining({
        field: 'minSourceKind',
        message: 'minSourceKind must be one of PROVIDER_API, PROVIDER_PAGE, MIRROR, TRANSCRIPTION, ANNOUNCEMENT; got BLOG',
      }),
    );
    const presets = { STRICT: { description: 'x', policy: { minSourceKind: 'PROVIDER_PAGE', requireConfirmedAvailability: false } } };
    expect(() => resolvePolicy({ presets, preset: 'STRICT', minSourceKind: 'MIRROR' })).toThrow(PolicyError);
    expect(resolvePolicy({ presets, preset: 'STRICT', minSourceKind: 'PROVIDER_API' }).minSourceKind).toBe('PROVIDER_API');
  });
});

describe('requireConfirmedAvailability', () => {
  it('excludes offers the provider’s data does not confirm, with the note as the reason', () => {
    expect(types(cheapest({ requireConfirmedAvailability: true }).items)).toEqual(['mirror', 'api', 'legacy']);
    // With the provider's own data only, the first item is the API price; the unconfirmed page price is cheaper and excluded.
    const r = cheapest({ requireConfirmedAvailability: true, minSourceKind: 'PROVIDER_PAGE' });
    expect(types(r.items)).toEqual(['api']);
    expect(r.excluded.find((e) => e.offer.instanceType === 'unconfirmed')?.reasons).toEqual([
      { rule: 'AVAILABILITY', message: 'availability UNCONFIRMED: stock per data centre not published' },
    ]);
  });

  it('warns when an answer picks an unconfirmed offer, and not otherwise', () => {
    const warnings = priceQualityWarnings([mirror, unconfirmed], { referenceDate: '2026-12-02', staleAfterDays: 90 });
    expect(warnings).toEqual([
      'aws unconfirmed aws:eu-central-1 ON_DEMAND: availability UNCONFIRMED (stock per data centre not published); check that it can be ordered there before buying',
    ]);
  });
});

function at0<T>(items: T[]): T {
  const first = items[0];
  if (first === undefined) throw new Error('no item');
  return first;
}
