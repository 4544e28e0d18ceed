import { formatAmount } from '../money/money.js';
import { indexCatalog } from './catalog-index.js';
import { filterOffers } from './filter-offers.js';
import { resolvePolicy } from './policy.js';
import { resolveDiscounts } from './ranking.js';
import { resolveRequirement } from './requirement.js';
import { sampleCatalog } from './testing/sample-catalog.js';

const index = indexCatalog(sampleCatalog());

describe(filterOffers.name, () => {
  it('lists every offer by price per GPU-hour when nothing is filtered', () => {
    const page = filterOffers({ catalog: index, currency: 'USD', limit: 50 });
    expect(page.items.map((i) => formatAmount(i.pricePerGpuHour))).toEqual(['1.5000', '2.4900', '3.1561', '3.2370', '3.4682', '3.9325', '4.5000']);
    expect(page.nextAfter).toBeNull();
  });

  it('filters by country, residency, provider, pricing model and instance size like the cheapest answer', () => {
    const names = (policy: Parameters<typeof resolvePolicy>[0], requirement = {}) =>
      filterOffers({ catalog: index, currency: 'EUR', limit: 50, policy: resolvePolicy(policy), requirement: resolveRequirement(requirement) }).items.map(
        (i) => i.provider.slug,
      );
    expect(names({ countries: ['FR'] })).toEqual(['scaleway', 'ovh']);
    expect(names({ residency: 'GDPR_ADEQUATE' })).toEqual(['scaleway', 'ovh', 'exoscale', 'aws']);
    expect(names({ providers: ['aws'], pricingModels: ['ON_DEMAND'] })).toEqual(['aws', 'aws']);
    expect(names({ maxPricePerGpuHour: '2.2' })).toEqual(['aws', 'lambda']);
    expect(names({}, { gpuCount: 8 })).toEqual(['aws', 'aws', 'aws']);
    expect(names({}, { minGpuMemoryGb: 100 })).toEqual([]);
  });

  it('pages with a cursor that resumes right after the last item, also with discounts', () => {
    for (const discounts of [undefined, resolveDiscounts([{ provider: 'aws', percent: 40 }])]) {
      const all = filterOffers({ catalog: index, currency: 'EUR', limit: 50, discounts }).items.map((i) => i.offer.keyHash);
      const paged: string[] = [];
      let after: string | null = null;
      do {
        const page = filterOffers({ catalog: index, currency: 'EUR', limit: 3, after, discounts });
        paged.push(...page.items.map((i) => i.offer.keyHash));
        after = page.nextAfter;
      } while (after);
      expect(paged).toEqual(all);
    }
  });

  it('rejects a cursor from another catalog naming the field', () => {
    expect(() => filterOffers({ catalog: index, currency: 'EUR', limit: 3, after: 'nope' })).toThrow(expect.objectContaining({ field: 'after' }));
  });
});
