// Test factories: whole catalog objects from defaults plus Partial overrides, so a test states
// only what it is about. Reusable by any test of the catalog, compliance or cost model.
import type { AvailabilityRecord, CatalogContent, FxRates, GpuModel, Offer, Provider, ReferenceFigure, Region } from '../../catalog/catalog.types.js';
import { Decimal } from '../../money/money.js';

export const TEST_FX_RATES: FxRates = { base: 'USD', rates: { EUR: '0.8650' }, date: '2026-11-27', source: 'test' };

export function makeProvider(overrides: Partial<Provider> = {}): Provider {
  const slug = overrides.slug ?? 'aws';
  return {
    slug,
    name: slug.toUpperCase(),
    kind: 'HYPERSCALER',
    headquartersCountry: 'US',
    slaPercent: new Decimal('99.99'),
    certifications: ['ISO27001', 'SOC2', 'BSI_C5'],
    egressUsdPerGb: new Decimal('0.09'),
    website: null,
    source: null,
    ...overrides,
  };
}

/** `code` defaults to '<providerSlug>:<local code>'. */
export function makeRegion(overrides: Partial<Region> = {}): Region {
  const providerSlug = overrides.providerSlug ?? 'aws';
  return {
    code: `${providerSlug}:eu-central-1`,
    providerSlug,
    name: 'Frankfurt',
    city: 'Frankfurt',
    country: 'DE',
    ...overrides,
  };
}

export function makeGpu(overrides: Partial<GpuModel> = {}): GpuModel {
  return {
    slug: 'h100-sxm-80gb',
    vendor: 'NVIDIA',
    name: 'H100 SXM 80GB',
    memoryGb: new Decimal(80),
    memoryBandwidthGbps: new Decimal(3350),
    fp16Tflops: new Decimal(989),
    int8Tops: new Decimal(1979),
    fp8Tflops: new Decimal(1979),
    fp8Support: true,
    source: null,
    ...overrides,
  };
}

/** keyHash defaults to the natural key joined (readable in failures; md5 in real catalogs). */
export function makeOffer(overrides: Partial<Offer> = {}): Offer {
  const base: Offer = {
    keyHash: '',
    providerSlug: 'aws',
    regionCode: 'aws:eu-central-1',
    gpuSlug: 'h100-sxm-80gb',
    gpuCount: 1,
    instanceType: 'gpu-1x',
    pricingModel: 'ON_DEMAND',
    pricePerHour: new Decimal('4.00'),
    currency: 'USD',
    upfront: null,
    termMonths: null,
    serverlessUnitPrice: null,
    serverlessUnit: null,
    interruptionNoticeSeconds: null,
    sourceUrl: 'https://example.test/prices',
    sourceTitle: null,
    observedAt: '2026-11-27',
    priceKind: 'LIST',
    derivation: null,
    conversion: null,
    sourceKind: 'PROVIDER_API',
    availability: 'CONFIRMED',
    availabilityNote: null,
    validFrom: null,
    validUntil: null,
    ...overrides,
  };
  if (!overrides.keyHash) {
    base.keyHash = [base.providerSlug, base.regionCode, base.gpuSlug, base.gpuCount, base.instanceType, base.pricingModel].join('|');
  }
  return base;
}

export function makeCatalog(overrides: Partial<CatalogContent> = {}): CatalogContent {
  return { providers: [], regions: [], gpus: [makeGpu()], offers: [], referenceFigures: [], availability: [], fxRates: TEST_FX_RATES, ...overrides };
}

export function makeReferenceFigure(overrides: Partial<ReferenceFigure> = {}): ReferenceFigure {
  return {
    key: 'figure',
    claim: 'AWS H100 on-demand',
    metric: 'PRICE_PER_GPU_HOUR',
    value: new Decimal('3.90'),
    valueHigh: null,
    currency: 'USD',
    provider: 'aws',
    gpus: ['h100-sxm-80gb'],
    pricingModel: 'ON_DEMAND',
    source: 'test article',
    publishedOn: '2026-03-27',
    note: null,
    ...overrides,
  };
}

export function makeAvailabilityRecord(overrides: Partial<AvailabilityRecord> = {}): AvailabilityRecord {
  return {
    provider: 'aws',
    instanceType: 'gpu-1x',
    regions: ['aws:eu-central-1'],
    listsEveryRegion: true,
    pricingModels: null,
    source: 'https://example.test/availability',
    observedAt: '2026-11-27',
    note: null,
    ...overrides,
  };
}
