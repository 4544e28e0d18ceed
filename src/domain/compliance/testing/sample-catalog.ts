// A small catalog with the shapes that matter to compliance: US and EU operators, regions inside
// and outside the EEA, USD and EUR prices, spot and multi-GPU instances.
import type { CatalogContent } from '../../catalog/catalog.types.js';
import { Decimal } from '../../money/money.js';
import { makeCatalog, makeGpu, makeOffer, makeProvider, makeRegion } from './factories.js';

export function sampleCatalog(): CatalogContent {
  const d = (v: string) => new Decimal(v);
  return makeCatalog({
    providers: [
      makeProvider({ slug: 'aws', name: 'AWS', headquartersCountry: 'US', certifications: ['ISO27001', 'SOC2', 'BSI_C5'] }),
      makeProvider({ slug: 'lambda', name: 'Lambda', headquartersCountry: 'US', kind: 'NEOCLOUD', certifications: [], slaPercent: null }),
      makeProvider({ slug: 'ovh', name: 'OVHcloud', headquartersCountry: 'FR', certifications: ['ISO27001', 'HDS', 'SecNumCloud'] }),
      makeProvider({ slug: 'scaleway', name: 'Scaleway', headquartersCountry: 'FR', certifications: ['ISO27001', 'HDS'] }),
      makeProvider({ slug: 'exoscale', name: 'Exoscale', headquartersCountry: 'CH', certifications: ['ISO27001'] }),
    ],
    regions: [
      makeRegion({ code: 'aws:us-east-1', providerSlug: 'aws', country: 'US' }),
      makeRegion({ code: 'aws:eu-central-1', providerSlug: 'aws', country: 'DE' }),
      makeRegion({ code: 'lambda:us-tx-1', providerSlug: 'lambda', country: 'US' }),
      makeRegion({ code: 'ovh:gra', providerSlug: 'ovh', country: 'FR' }),
      makeRegion({ code: 'scaleway:fr-par-2', providerSlug: 'scaleway', country: 'FR' }),
      makeRegion({ code: 'exoscale:ch-gva-2', providerSlug: 'exoscale', country: 'CH' }),
    ],
    gpus: [makeGpu(), makeGpu({ slug: 'l4-24gb', name: 'L4', memoryGb: d('24') })],
    offers: [
      // EUR prices per GPU-hour at 0.8650: 1.2975, 2.15385, 2.73, 2.80, 3.00, 3.4016, 3.8925
      makeOffer({ providerSlug: 'aws', regionCode: 'aws:us-east-1', gpuCount: 8, instanceType: 'p5.48xlarge', pricingModel: 'SPOT', pricePerHour: d('12.00') }),
      makeOffer({ providerSlug: 'lambda', regionCode: 'lambda:us-tx-1', instanceType: 'gpu_1x_h100_sxm5', pricePerHour: d('2.49') }),
      makeOffer({ providerSlug: 'scaleway', regionCode: 'scaleway:fr-par-2', instanceType: 'H100-1-80G', pricePerHour: d('2.73'), currency: 'EUR' }),
      makeOffer({ providerSlug: 'ovh', regionCode: 'ovh:gra', instanceType: 'h100-380', pricePerHour: d('2.80'), currency: 'EUR' }),
      makeOffer({ providerSlug: 'exoscale', regionCode: 'exoscale:ch-gva-2', instanceType: 'gpu-h100', pricePerHour: d('3.00'), currency: 'EUR' }),
      makeOffer({ providerSlug: 'aws', regionCode: 'aws:us-east-1', gpuCount: 8, instanceType: 'p5.48xlarge', pricePerHour: d('31.46') }),
      makeOffer({ providerSlug: 'aws', regionCode: 'aws:eu-central-1', gpuCount: 8, instanceType: 'p5.48xlarge', pricePerHour: d('36.00') }),
    ],
  });
}
