import { formatAmount } from '../money/money.js';
import { indexCatalog, CatalogIndexError } from './catalog-index.js';
import { findCheapestCompliant, type CheapestQuery, type OfferQuote } from './cheapest.js';
import { resolvePolicy, type PolicyInput } from './policy.js';
import { resolveDiscounts } from './ranking.js';
import { resolveRequirement, type GpuRequirementInput } from './requirement.js';
import { makeCatalog, makeOffer, makeProvider, makeRegion } from './testing/factories.js';
import { sampleCatalog } from './testing/sample-catalog.js';
import { at } from '../checked.js';

const index = indexCatalog(sampleCatalog());
const h100 = { gpus: ['h100-sxm-80gb'] };

function cheapest(requirement: GpuRequirementInput, policy: PolicyInput, options: Partial<Omit<CheapestQuery, 'requirement' | 'policy'>> = {}) {
  return findCheapestCompliant({
    catalog: index,
    requirement: resolveRequirement(requirement),
    policy: resolvePolicy(policy),
    currency: 'EUR',
    ...options,
  });
}

const who = (items: OfferQuote[]) => items.map((i) => `${i.provider.slug}:${i.offer.pricingModel}:${i.offer.gpuCount}`);

describe(findCheapestCompliant.name, () => {
  it('ranks every candidate cheapest first when the policy allows all', () => {
    const result = cheapest(h100, {});
    expect(who(result.items)).toEqual([
      'aws:SPOT:8',
      'lambda:ON_DEMAND:1',
      'scaleway:ON_DEMAND:1',
      'ovh:ON_DEMAND:1',
      'exoscale:ON_DEMAND:1',
      'aws:ON_DEMAND:8',
      'aws:ON_DEMAND:8',
    ]);
    expect(result.items.map((i) => formatAmount(i.pricePerGpuHour))).toEqual(['1.2975', '2.1538', '2.7300', '2.8000', '3.0000', '3.4016', '3.8925']);
    expect(result.nearestMisses).toEqual([]);
  });

  it('returns only EEA offers under GDPR_PERSONAL_DATA and explains the cheaper ones it excluded', () => {
    const result = cheapest(h100, { preset: 'GDPR_PERSONAL_DATA' }, { explain: true });
    expect(who(result.items)).toEqual(['scaleway:ON_DEMAND:1', 'ovh:ON_DEMAND:1', 'aws:ON_DEMAND:8']);
    expect(result.items.every((i) => ['FR', 'DE'].includes(i.country))).toBe(true);
    expect(at(result.items, 0).passes).toEqual(['region fr-par-2 is in FR, inside EEA']);
    expect(at(result.items, 2).passes).toEqual(['region eu-central-1 is in DE, inside EEA']);
    expect(result.excluded.map((e) => [e.provider.slug, e.reasons.map((r) => r.message)])).toEqual([
      ['aws', ['region us-east-1 is in US, outside EEA']],
      ['lambda', ['region us-tx-1 is in US, outside EEA']],
    ]);
    expect(result.excludedCount).toBe(2);
    expect(result.nearestMisses).toEqual([]);
  });

  it('returns only EU/EEA-headquartered operators under EU_SOVEREIGN', () => {
    const result = cheapest(h100, { preset: 'EU_SOVEREIGN' }, { explain: true });
    expect(who(result.items)).toEqual(['scaleway:ON_DEMAND:1', 'ovh:ON_DEMAND:1']);
    expect(at(result.items, 1).passes).toEqual(['region gra is in FR, inside EEA', 'operator OVHcloud headquartered in FR (EU)']);
    expect(at(result.excluded, 0).reasons.map((r) => r.message)).toEqual([
      'region us-east-1 is in US, outside EEA',
      'operator AWS headquartered in US, outside the EU/EEA',
    ]);
  });

  it('never answers spot for an INTOLERANT workload and says so', () => {
    const result = cheapest(h100, { tolerance: 'INTOLERANT' }, { explain: true, limit: 1 });
    expect(who(result.items)).toEqual(['lambda:ON_DEMAND:1']);
    expect(result.excluded.map((e) => e.reasons.map((r) => r.message))).toEqual([['spot not allowed for INTOLERANT']]);
  });

  it('answers an empty list plus the nearest misses when nothing complies', () => {
    const result = cheapest(h100, { preset: 'EU_SOVEREIGN', certifications: ['BSI_C5'] });
    expect(result.items).toEqual([]);
    expect(result.excluded).toEqual([]);
    // Each fails one rule; exoscale (three) and the US offers (two or more) are further away.
    expect(result.nearestMisses.map((m) => [m.provider.slug, m.reasons.map((r) => r.message)])).toEqual([
      ['scaleway', ['provider lacks certification BSI_C5']],
      ['ovh', ['provider lacks certification BSI_C5']],
      ['aws', ['operator AWS headquartered in US, outside the EU/EEA']],
    ]);
  });

  it('lists every failing candidate as excluded when nothing complies and explain is on', () => {
    const result = cheapest(h100, { preset: 'EU_SOVEREIGN', certifications: ['BSI_C5'] }, { explain: true, excludedLimit: 3 });
    expect(result.items).toEqual([]);
    expect(result.excludedCount).toBe(7);
    expect(who(result.excluded)).toEqual(['aws:SPOT:8', 'lambda:ON_DEMAND:1', 'scaleway:ON_DEMAND:1']);
    expect(result.nearestMisses.map((m) => m.provider.slug)).toEqual(['scaleway', 'ovh', 'aws']);
  });

  it('answers empty, without misses, when no offer matches the requirement', () => {
    const result = cheapest({ gpus: ['l4-24gb'] }, {}, { explain: true });
    expect(result).toMatchObject({ items: [], excluded: [], excludedCount: 0, nearestMisses: [] });
  });

  it('rejects an unknown GPU model naming the field', () => {
    expect(() => cheapest({ gpus: ['h200-141gb'] }, {})).toThrow(expect.objectContaining({ field: 'gpus' }));
  });

  it('rejects a non-positive limit naming the field', () => {
    expect(() => cheapest(h100, {}, { limit: 0 })).toThrow(expect.objectContaining({ field: 'limit' }));
  });

  it('stops at the limit and lists no excluded offers without explain', () => {
    const result = cheapest(h100, { preset: 'GDPR_PERSONAL_DATA' }, { limit: 1 });
    expect(who(result.items)).toEqual(['scaleway:ON_DEMAND:1']);
    expect(result).toMatchObject({ excluded: [], excludedCount: 0, nearestMisses: [] });
  });

  it('matches an exact instance size per instance', () => {
    expect(who(cheapest({ ...h100, gpuCount: 8 }, {}).items)).toEqual(['aws:SPOT:8', 'aws:ON_DEMAND:8', 'aws:ON_DEMAND:8']);
  });

  it('pools GPUs across instances in TOTAL mode and ranks by what the pool costs', () => {
    const result = cheapest({ ...h100, gpuCount: 3, gpuCountMode: 'TOTAL' }, { preset: 'GDPR_PERSONAL_DATA' });
    expect(result.items.map((i) => [i.provider.slug, i.instances, formatAmount(i.totalPricePerHour)])).toEqual([
      ['scaleway', 3, '8.1900'],
      ['ovh', 3, '8.4000'],
      ['aws', 1, '31.1400'], // an 8-GPU instance for 3 GPUs: 5 idle GPUs are paid for
    ]);
  });

  it('applies negotiated discounts before ranking and says so', () => {
    const result = cheapest(h100, { preset: 'GDPR_PERSONAL_DATA' }, { discounts: resolveDiscounts([{ provider: 'aws', percent: 50 }]) });
    const top = at(result.items, 0);
    expect([top.provider.slug, formatAmount(top.pricePerGpuHour), top.discountPercent?.toString()]).toEqual(['aws', '1.9462', '50']);
    expect(top.passes).toContain('negotiated discount of 50% for aws applied before ranking');
  });

  it('checks the maximum price after conversion', () => {
    const result = cheapest(h100, { preset: 'GDPR_PERSONAL_DATA', maxPricePerGpuHour: '2.75' }, { explain: true });
    expect(who(result.items)).toEqual(['scaleway:ON_DEMAND:1']);
    expect(at(result.items, 0).passes).toContain('price 2.7300 EUR per GPU-hour within the maximum 2.7500 EUR');
  });

  it('answers in USD with the same order', () => {
    const result = cheapest(h100, { preset: 'GDPR_PERSONAL_DATA' }, { currency: 'USD' });
    expect(result.items.map((i) => [i.provider.slug, formatAmount(i.pricePerGpuHour), i.currency])).toEqual([
      ['scaleway', '3.1561', 'USD'],
      ['ovh', '3.2370', 'USD'],
      ['aws', '4.5000', 'USD'],
    ]);
  });

  it('does not count an excluded offer at the same price as the first item as cheaper', () => {
    const catalog = makeCatalog({
      providers: [makeProvider({ slug: 'aaa', headquartersCountry: 'US' }), makeProvider({ slug: 'zzz', headquartersCountry: 'FR' })],
      regions: [makeRegion({ code: 'aaa:x', providerSlug: 'aaa', country: 'US' }), makeRegion({ code: 'zzz:y', providerSlug: 'zzz', country: 'FR' })],
      offers: [
        makeOffer({ providerSlug: 'aaa', regionCode: 'aaa:x', pricePerHour: makeOffer().pricePerHour.minus(1) }),
        makeOffer({ providerSlug: 'aaa', regionCode: 'aaa:x', instanceType: 'same-price' }),
        makeOffer({ providerSlug: 'zzz', regionCode: 'zzz:y' }),
      ],
    });
    const result = findCheapestCompliant({
      catalog,
      requirement: resolveRequirement({}),
      policy: resolvePolicy({ residency: 'EEA' }),
      currency: 'USD',
      explain: true,
    });
    expect(result.items.map((i) => i.provider.slug)).toEqual(['zzz']);
    expect(result.excluded.map((e) => e.offer.instanceType)).toEqual(['gpu-1x']);
    expect(result.excludedCount).toBe(1);
  });
});

describe(indexCatalog.name, () => {
  it('refuses an offer whose region the version lacks', () => {
    const catalog = makeCatalog({ providers: [makeProvider()], offers: [makeOffer()] });
    expect(() => indexCatalog(catalog)).toThrow(CatalogIndexError);
  });
});
