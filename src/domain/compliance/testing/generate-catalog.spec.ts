import { indexCatalog } from '../catalog-index.js';
import { findCheapestCompliant } from '../cheapest.js';
import { resolvePolicy } from '../policy.js';
import { resolveRequirement } from '../requirement.js';
import { generateCatalog } from './generate-catalog.js';

describe(generateCatalog.name, () => {
  it('builds the same valid catalog for the same seed', () => {
    const a = generateCatalog({ offerCount: 500 });
    expect(new Set(a.offers.map((o) => o.keyHash)).size).toBe(500);
    expect(generateCatalog({ offerCount: 500 }).offers.map((o) => o.pricePerHour.toString())).toEqual(a.offers.map((o) => o.pricePerHour.toString()));
    const result = findCheapestCompliant({
      catalog: indexCatalog(a),
      requirement: resolveRequirement({ gpus: ['h100-sxm-80gb'] }),
      policy: resolvePolicy({ preset: 'GDPR_PERSONAL_DATA' }),
      currency: 'EUR',
    });
    expect(result.items.length).toBeGreaterThan(0);
  });
});
