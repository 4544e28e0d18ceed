// The list price of a fleet a team runs today (an estimate's measurements.fleet): the cheapest
// per-GPU-hour LIST offer of that GPU, provider, region and pricing model in the catalog version,
// valid on the reference date. No policy applies: today's fleet is priced where it is.
import type { PricingModel } from '../catalog/catalog.types.js';
import { unknownIdentifierMessage } from '../closest-names.js';
import type { Currency } from '../catalog/catalog.types.js';
import type { Decimal } from '../money/money.js';
import type { CatalogIndex } from './catalog-index.js';
import { localRegionCode } from './evaluate.js';
import { PolicyError } from './policy.js';

export interface FleetSpec {
  gpu: string;
  provider: string;
  region: string;
  pricingModel: PricingModel;
}

export interface FleetOffer {
  offerRef: string;
  /** The region's full code (provider:region). */
  region: string;
  pricePerGpuHour: Decimal;
}

/** Throws PolicyError (field gpu, provider, region or pricingModel) for what the version does not know or sell. */
export function fleetOffer(index: CatalogIndex, fleet: FleetSpec, currency: Currency, referenceDate: string): FleetOffer {
  const gpu = index.gpuBySlug.get(fleet.gpu.toLowerCase());
  if (gpu === undefined) throw new PolicyError('gpu', unknownIdentifierMessage('GPU model', fleet.gpu, index.gpuBySlug.keys()));
  const provider = index.providerBySlug.get(fleet.provider.toLowerCase());
  if (provider === undefined) throw new PolicyError('provider', unknownIdentifierMessage('provider', fleet.provider, index.providerBySlug.keys()));
  const providerSlug = index.providers[provider]?.slug ?? '';
  const wanted = fleet.region.toLowerCase();
  const regions = index.regions.filter((r) => r.code.startsWith(`${providerSlug}:`));
  const region = regions.find((r) => r.code.toLowerCase() === wanted || localRegionCode(r.code).toLowerCase() === wanted);
  if (!region)
    throw new PolicyError(
      'region',
      unknownIdentifierMessage(
        `region of ${providerSlug}`,
        fleet.region,
        regions.map((r) => r.code),
      ),
    );
  const prices = index.pricesIn(currency);
  let best: { i: number; price: Decimal } | null = null;
  index.offers.forEach((o, i) => {
    if (index.offerGpu[i] !== gpu || o.regionCode !== region.code || o.pricingModel !== fleet.pricingModel || o.priceKind !== 'LIST') return;
    if ((o.validFrom && o.validFrom > referenceDate) || (o.validUntil && o.validUntil < referenceDate)) return;
    const price = prices.perGpuHour[i];
    if (price && (!best || price.lt(best.price))) best = { i, price };
  });
  const found = best as { i: number; price: Decimal } | null;
  if (!found) {
    throw new PolicyError(
      'pricingModel',
      `the catalog version lists no ${fleet.pricingModel} price for ${fleet.gpu} at ${region.code}; name the pricing model the fleet is bought under`,
    );
  }
  return { offerRef: index.offers[found.i]?.keyHash ?? '', region: region.code, pricePerGpuHour: found.price };
}
