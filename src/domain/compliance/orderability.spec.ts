// Orderability (docs/api.md#orderability): confirmed offers rank first, unconfirmed ones follow
// with their flag, not-orderable ones never rank and explain says why, in every answer that
// selects offers: the cheapest answer, the listing, the carbon order and the estimate's selection.
import { Decimal } from '../money/money.js';
import { cheapestPerGpuModelAndSize, cleanestPerGpuModelAndSize, findCheapestCompliant } from './cheapest.js';
import { filterOffers } from './filter-offers.js';
import { resolvePolicy, type PolicyInput } from './policy.js';
import { POLICY_PRESETS } from './policy-presets.js';
import { noConfirmedOfferWarning } from './price-quality.js';
import { resolveDiscounts } from './ranking.js';
import { ANY_REQUIREMENT } from './requirement.js';
import { makeCatalog, makeOffer, makeProvider, makeRegion } from './testing/factories.js';

const NOT_ORDERABLE_NOTE = "catalogue tags it 'coming_soon': https://example.test/catalogue";
// H100 on demand, USD per GPU-hour = pricePerHour / gpuCount:
//   aws-1x   aws DE      4.00 / 1 = 4.00  CONFIRMED
//   aws-8x   aws DE     40.00 / 8 = 5.00  CONFIRMED
//   rp-1x    runpod RO   2.00 / 1 = 2.00  UNCONFIRMED
//   rp-2x    runpod RO   5.00 / 2 = 2.50  UNCONFIRMED
//   ovh-1x   ovhcloud FR 1.50 / 1 = 1.50  LISTED_NOT_ORDERABLE
// Rank order: the confirmed by price (aws-1x, aws-8x), then the unconfirmed by price (rp-1x,
// rp-2x); ovh-1x, the cheapest of all, never.
const offers = [
  makeOffer({ instanceType: 'aws-1x', pricePerHour: new Decimal('4.00') }),
  makeOffer({ instanceType: 'aws-8x', gpuCount: 8, pricePerHour: new Decimal('40.00') }),
  makeOffer({
    providerSlug: 'runpod',
    regionCode: 'runpod:eu-ro-1',
    instanceType: 'rp-1x',
    pricePerHour: new Decimal('2.00'),
    availability: 'UNCONFIRMED',
    availabilityNote: 'one price list for every data centre',
  }),
  makeOffer({
    providerSlug: 'runpod',
    regionCode: 'runpod:eu-ro-1',
    instanceType: 'rp-2x',
    gpuCount: 2,
    pricePerHour: new Decimal('5.00'),
    availability: 'UNCONFIRMED',
    availabilityNote: 'one price list for every data centre',
  }),
  makeOffer({
    providerSlug: 'ovhcloud',
    regionCode: 'ovhcloud:gra',
    instanceType: 'ovh-1x',
    pricePerHour: new Decimal('1.50'),
    availability: 'LISTED_NOT_ORDERABLE',
    availabilityNote: NOT_ORDERABLE_NOTE,
  }),
];
const catalog = makeCatalog({
  providers: [makeProvider(), makeProvider({ slug: 'runpod' }), makeProvider({ slug: 'ovhcloud', headquartersCountry: 'FR' })],
  regions: [
    makeRegion(),
    makeRegion({ providerSlug: 'runpod', code: 'runpod:eu-ro-1', country: 'RO' }),
    makeRegion({ providerSlug: 'ovhcloud', code: 'ovhcloud:gra', country: 'FR' }),
  ],
  offers,
});

const cheapest = (policy: PolicyInput = {}) =>
  findCheapestCompliant({
    catalog,
    requirement: ANY_REQUIREMENT,
    policy: resolvePolicy({ referenceDate: '2026-12-02', ...policy }),
    currency: 'USD',
    explain: true,
  });
const types = (items: readonly { offer: { instanceType: string } }[]) => items.map((i) => i.offer.instanceType);

describe('orderability', () => {
  it('ranks confirmed offers first by price, then unconfirmed ones by price, never a not-orderable one', () => {
    const r = cheapest();
    expect(types(r.items)).toEqual(['aws-1x', 'aws-8x', 'rp-1x', 'rp-2x']);
    expect(r.items.map((i) => [i.offer.availability, i.pricePerGpuHour.toString()])).toEqual([
      ['CONFIRMED', '4'],
      ['CONFIRMED', '5'],
      ['UNCONFIRMED', '2'],
      ['UNCONFIRMED', '2.5'],
    ]);
  });

  it('ranks the same way under every preset', () => {
    // Every region here (DE, RO, FR) is in the EEA.
    expect(types(cheapest({ preset: 'GDPR_PERSONAL_DATA' }).items)).toEqual(['aws-1x', 'aws-8x', 'rp-1x', 'rp-2x']);
    // Germany and BSI C5 (the factory's aws holds it): aws only.
    expect(types(cheapest({ preset: 'DE_BSI_C5' }).items)).toEqual(['aws-1x', 'aws-8x']);
    // An EU-headquartered operator: ovhcloud only, whose one offer cannot be ordered.
    const sovereign = cheapest({ preset: 'EU_SOVEREIGN' });
    expect(sovereign.items).toEqual([]);
    // Nearest misses: one failing rule each, cheapest first: ovh-1x 1.50 (AVAILABILITY), rp-1x 2.00 and rp-2x 2.50 (OPERATOR).
    expect(sovereign.nearestMisses.map((m) => [m.offer.instanceType, m.reasons.map((x) => x.rule)])).toEqual([
      ['ovh-1x', ['AVAILABILITY']],
      ['rp-1x', ['OPERATOR']],
      ['rp-2x', ['OPERATOR']],
    ]);
    expect(Object.keys(POLICY_PRESETS)).toEqual(['GDPR_PERSONAL_DATA', 'EU_SOVEREIGN', 'DE_BSI_C5']);
  });

  it('shows a cheaper not-orderable offer in explain with the provider’s words, never as an item', () => {
    const r = cheapest();
    // Cheaper than the first item (4.00) and failing: ovh-1x (1.50) only; rp-1x and rp-2x comply.
    expect(r.excludedCount).toBe(1);
    expect(r.excluded.map((e) => [e.offer.instanceType, e.reasons])).toEqual([
      ['ovh-1x', [{ rule: 'AVAILABILITY', message: `availability LISTED_NOT_ORDERABLE: ${NOT_ORDERABLE_NOTE}` }]],
    ]);
    // Nothing else is on offer from ovhcloud: no item, and the nearest miss (one rule failed, the
    // cheapest at 1.50) names the reason.
    const only = cheapest({ providers: ['ovhcloud'] });
    expect(only.items).toEqual([]);
    expect(only.nearestMisses.map((m) => [m.offer.instanceType, m.reasons.map((x) => x.rule)])[0]).toEqual(['ovh-1x', ['AVAILABILITY']]);
  });

  it('leaves unconfirmed offers out when the caller requires confirmation, and says why in explain', () => {
    const r = cheapest({ requireConfirmedAvailability: true });
    expect(types(r.items)).toEqual(['aws-1x', 'aws-8x']);
    // Cheaper than 4.00 and failing, cheapest first: ovh-1x 1.50, rp-1x 2.00, rp-2x 2.50.
    expect(r.excluded.map((e) => [e.offer.instanceType, e.reasons.map((x) => x.message)])).toEqual([
      ['ovh-1x', [`availability LISTED_NOT_ORDERABLE: ${NOT_ORDERABLE_NOTE}`]],
      ['rp-1x', ['availability UNCONFIRMED: one price list for every data centre']],
      ['rp-2x', ['availability UNCONFIRMED: one price list for every data centre']],
    ]);
  });

  it('says so when no confirmed offer meets the query, and not otherwise', () => {
    const r = cheapest({ providers: ['runpod', 'ovhcloud'] });
    expect(types(r.items)).toEqual(['rp-1x', 'rp-2x']);
    expect(noConfirmedOfferWarning(r.items[0]?.offer)).toMatch(/^no offer meeting this query has CONFIRMED availability/);
    expect(noConfirmedOfferWarning(cheapest().items[0]?.offer)).toBeNull();
    expect(noConfirmedOfferWarning(undefined)).toBeNull();
  });

  it('lists in the same order, page after page across the step from confirmed to unconfirmed', () => {
    const policy = resolvePolicy({ referenceDate: '2026-12-02' });
    const paged: string[] = [];
    let after: string | null = null;
    do {
      const page = filterOffers({ catalog, policy, currency: 'USD', limit: 1, after });
      paged.push(...types(page.items));
      after = page.nextAfter;
    } while (after !== null);
    expect(paged).toEqual(['aws-1x', 'aws-8x', 'rp-1x', 'rp-2x']);
    // Without energy figures every offer has the same (unknown) carbon: the carbon order is the price ranking's.
    expect(types(filterOffers({ catalog, policy, currency: 'USD', limit: 10, sort: 'CARBON' }).items)).toEqual(['aws-1x', 'aws-8x', 'rp-1x', 'rp-2x']);
  });

  it('plans an estimate on the same offers the cheapest answer ranks first, for each instance size', () => {
    const policy = resolvePolicy({ referenceDate: '2026-12-02' });
    // ON_DEMAND by size: 1 GPU: aws-1x (confirmed, 4.00) over rp-1x (2.00) and never ovh-1x (1.50);
    // 2 GPUs: only rp-2x (unconfirmed, so it is planned, flagged); 8 GPUs: aws-8x.
    const expected = ['aws-1x', 'rp-2x', 'aws-8x'];
    const plain = cheapestPerGpuModelAndSize({ catalog, gpus: ['h100-sxm-80gb'], policy, currency: 'USD' }).get('h100-sxm-80gb') ?? [];
    expect(types(plain)).toEqual(expected);
    // A discount ranks off the index's own order (another path): runpod at half price (1.00) still ranks after aws.
    const discounts = resolveDiscounts([{ provider: 'runpod', percent: 50 }]);
    const discounted = cheapestPerGpuModelAndSize({ catalog, gpus: ['h100-sxm-80gb'], policy, currency: 'USD', discounts }).get('h100-sxm-80gb') ?? [];
    expect(types(discounted)).toEqual(expected);
    const cleanest = cleanestPerGpuModelAndSize({ catalog, gpus: ['h100-sxm-80gb'], policy, currency: 'USD' }).get('h100-sxm-80gb') ?? [];
    expect(types(cleanest)).toEqual(expected);
    // Requiring confirmation leaves the 2-GPU size unplanned.
    const strict = resolvePolicy({ referenceDate: '2026-12-02', requireConfirmedAvailability: true });
    expect(types(cheapestPerGpuModelAndSize({ catalog, gpus: ['h100-sxm-80gb'], policy: strict, currency: 'USD' }).get('h100-sxm-80gb') ?? [])).toEqual([
      'aws-1x',
      'aws-8x',
    ]);
  });
});
