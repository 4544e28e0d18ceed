// A deterministic synthetic catalog of any size (seeded), for benchmarks and load tests: many
// providers, regions in and outside the EEA, USD and EUR prices, every pricing model.
import { PRICING_MODELS, type CatalogContent } from '../../catalog/catalog.types.js';
import { PRICING_MODEL_TRAITS } from '../../catalog/pricing-model-traits.js';
import { Decimal } from '../../money/money.js';
import { makeCatalog, makeGpu, makeOffer, makeProvider, makeRegion } from './factories.js';
import { at } from '../../checked.js';

const COUNTRIES = ['US', 'US', 'US', 'DE', 'FR', 'NO', 'CH', 'GB', 'JP', 'SG', 'IN', 'CA', 'BR', 'NL', 'SE', 'FI', 'PL', 'ES', 'IT', 'IE'];

export function generateCatalog({
  offerCount,
  providerCount = 40,
  regionsPerProvider = 10,
  gpuCount = 20,
  seed = 42,
}: {
  offerCount: number;
  providerCount?: number;
  regionsPerProvider?: number;
  gpuCount?: number;
  seed?: number;
}): CatalogContent {
  let state = seed;
  // A small LCG: reproducible across runs and Node versions, unlike Math.random.
  const random = (): number => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T extends NonNullable<unknown>>(items: readonly T[]): T => at(items, Math.floor(random() * items.length));

  const providers = Array.from({ length: providerCount }, (_, i) =>
    makeProvider({
      slug: `p${i}`,
      headquartersCountry: at(COUNTRIES, i % COUNTRIES.length),
      certifications: i % 3 ? ['ISO27001'] : ['ISO27001', 'BSI_C5'],
      slaPercent: i % 4 ? new Decimal('99.9') : null,
    }),
  );
  const regions = providers.flatMap((p, i) =>
    Array.from({ length: regionsPerProvider }, (_, j) =>
      makeRegion({ code: `${p.slug}:r${j}`, providerSlug: p.slug, country: at(COUNTRIES, (i + j * 7) % COUNTRIES.length) }),
    ),
  );
  const gpus = Array.from({ length: gpuCount }, (_, i) => makeGpu(i === 0 ? {} : { slug: `gpu-${i}`, name: `GPU ${i}`, memoryGb: new Decimal(16 + i * 8) }));
  const offers = Array.from({ length: offerCount }, (_, i) => {
    const region = pick(regions);
    const pricingModel = pick(PRICING_MODELS);
    const perInstance = pick([1, 2, 4, 8]);
    return makeOffer({
      providerSlug: region.providerSlug,
      regionCode: region.code,
      gpuSlug: pick(gpus).slug,
      gpuCount: perInstance,
      instanceType: `i${i}`,
      pricingModel,
      pricePerHour: new Decimal(Math.floor(100 + random() * 900)).div(100).mul(perInstance),
      currency: random() < 0.3 ? 'EUR' : 'USD',
      upfront: PRICING_MODEL_TRAITS[pricingModel].upfront === 'SPREAD_OVER_TERM' ? new Decimal(Math.floor(random() * 20000)) : null,
    });
  });
  return makeCatalog({ providers, regions, gpus, offers });
}
