// The freshness rule a catalog must pass (docs/price-sources.md#freshness-rule): no offer in a
// GPU's overall or EEA top five on demand, under the default policy, read more than
// MAX_TOP_OFFER_AGE_DAYS before the catalog's label, and an FX rate at most MAX_FX_AGE_DAYS
// older than the label. Answers warn from STALE_PRICE_DAYS (90) on; this is the line a bundled
// catalog may not cross, since the first answers a buyer reads come from these rows.
import type { CatalogContent } from '../catalog/catalog.types.js';
import { daysBetween } from '../iso-date.js';
import { findCheapestCompliant } from './cheapest.js';
import { indexCatalog } from './catalog-index.js';
import { resolvePolicy } from './policy.js';
import { resolveRequirement } from './requirement.js';

export const MAX_TOP_OFFER_AGE_DAYS = 180;
export const MAX_FX_AGE_DAYS = 30;
/** How many of a GPU's first offers the rule reads, overall and in the EEA. */
export const TOP_OFFERS = 5;

/**
 * Every breach of the rule, one line each, naming the row (provider, instance type, region,
 * pricing model, observedAt) and where it ranks; empty when the catalog passes. `label` is the
 * catalog's label, an ISO date (data/catalog/catalog.yaml).
 */
export function topOfferFreshnessBreaches({ content, label }: { content: CatalogContent; label: string }): string[] {
  const index = indexCatalog(content);
  const scopes = [
    { name: 'overall', policy: resolvePolicy({ pricingModels: ['ON_DEMAND'], referenceDate: label }) },
    { name: 'EEA', policy: resolvePolicy({ residency: 'EEA', pricingModels: ['ON_DEMAND'], referenceDate: label }) },
  ];
  // By row: its line, and the top fives it is in ("h100-sxm-80gb overall #1").
  const stale = new Map<string, { row: string; ranks: string[] }>();
  for (const gpu of content.gpus) {
    for (const { name, policy } of scopes) {
      const { items } = findCheapestCompliant({
        catalog: index,
        requirement: resolveRequirement({ gpus: [gpu.slug] }),
        policy,
        currency: 'USD',
        limit: TOP_OFFERS,
      });
      items.forEach(({ offer }, i) => {
        const age = daysBetween(offer.observedAt, label);
        if (age <= MAX_TOP_OFFER_AGE_DAYS) return;
        const entry = stale.get(offer.keyHash) ?? {
          row: `${offer.providerSlug} ${offer.instanceType} ${offer.regionCode} ${offer.pricingModel} observed ${offer.observedAt}, ${age} days before the label ${label} (limit ${MAX_TOP_OFFER_AGE_DAYS})`,
          ranks: [],
        };
        entry.ranks.push(`${gpu.slug} ${name} #${i + 1}`);
        stale.set(offer.keyHash, entry);
      });
    }
  }
  const breaches = [...stale.values()].map(({ row, ranks }) => `${row}: in the top ${TOP_OFFERS} of ${ranks.join(', ')}`);
  const fxAge = daysBetween(content.fxRates.date, label);
  if (fxAge > MAX_FX_AGE_DAYS) {
    const pairs = Object.keys(content.fxRates.rates).map((c) => `${content.fxRates.base}/${c}`);
    breaches.push(`FX rate ${pairs.join(', ')} of ${content.fxRates.date}: ${fxAge} days before the label ${label} (limit ${MAX_FX_AGE_DAYS})`);
  }
  return breaches.sort();
}
