import { parseCatalogFiles, type CatalogFile } from './catalog-files.js';
import { PRICING_MODELS } from './catalog.types.js';
import { PRICING_MODEL_TRAITS, pricingModelsWhere } from './pricing-model-traits.js';

const reference: CatalogFile = {
  path: 'ref.yaml',
  text: `catalog: { label: "t1", source: test, fx: { base: USD, rates: { EUR: "0.8650" }, date: "2026-11-27", source: ECB } }
providers:
  - { slug: aws, name: AWS, kind: HYPERSCALER, headquartersCountry: US }
regions:
  - { code: "aws:eu-central-1", provider: aws, name: Frankfurt, country: DE }
gpus:
  - { slug: h100-sxm-80gb, vendor: NVIDIA, name: H100, memoryGb: "80", memoryBandwidthGbps: "3350", fp16Tflops: "989", int8Tops: "1979", fp8Support: true }
`,
};

const offerErrors = (pricingModel: string, extra: Record<string, string | number>): { field: string; message: string }[] => {
  const fields = Object.entries(extra)
    .map(([k, v]) => `, ${k}: ${JSON.stringify(v)}`)
    .join('');
  const file: CatalogFile = {
    path: 'offers.yaml',
    text: `offers:
  - { provider: aws, region: eu-central-1, gpu: h100-sxm-80gb, gpuCount: 8, instanceType: p5.48xlarge, pricingModel: ${pricingModel}, pricePerHour: "31.2", \
currency: USD, priceKind: LIST, sourceKind: PROVIDER_API, source: "https://example.com", observedAt: "2026-03-27"${fields} }
`,
  };
  return parseCatalogFiles([reference, file]).errors.map((e) => ({ field: e.field, message: e.message }));
};

describe('PRICING_MODEL_TRAITS', () => {
  it('gives each reservation the term its name states, and nothing else a term or an upfront', () => {
    expect(pricingModelsWhere((t) => t.isReserved)).toEqual(['RESERVED_1Y', 'RESERVED_3Y']);
    expect(PRICING_MODEL_TRAITS.RESERVED_1Y.termMonths).toBe(12);
    expect(PRICING_MODEL_TRAITS.RESERVED_3Y.termMonths).toBe(36);
    expect(pricingModelsWhere((t) => t.upfront !== 'NOT_ALLOWED')).toEqual(['RESERVED_1Y', 'RESERVED_3Y']);
  });

  it('puts each model in the plan slot its other traits imply', () => {
    for (const model of PRICING_MODELS) {
      const t = PRICING_MODEL_TRAITS[model];
      expect([model, t.planSlot === 'RESERVED']).toEqual([model, t.isReserved]);
      expect([model, t.planSlot === 'SPOT']).toEqual([model, t.interruptible]);
      expect([model, t.planSlot === 'SERVERLESS']).toEqual([model, t.billedByBusyTime]);
      expect([model, t.comparablePrice === 'HOURLY_PLUS_UPFRONT_OVER_TERM']).toEqual([model, t.isReserved]);
    }
    // Discounts are measured against exactly one list price, and it is neither reserved nor interruptible.
    expect(pricingModelsWhere((t) => t.isDiscountBase)).toEqual(['ON_DEMAND']);
  });

  it('names the FOCUS pricing category of each model (Committed for reservations, Dynamic for spot)', () => {
    expect(Object.fromEntries(PRICING_MODELS.map((m) => [m, PRICING_MODEL_TRAITS[m].csvPricingCategory]))).toEqual({
      ON_DEMAND: 'Standard',
      SPOT: 'Dynamic',
      RESERVED_1Y: 'Committed',
      RESERVED_3Y: 'Committed',
      SERVERLESS: 'Standard',
    });
  });
});

describe('catalog rows follow the traits', () => {
  it('accepts every model with the fields its traits call for', () => {
    for (const model of PRICING_MODELS) {
      const t = PRICING_MODEL_TRAITS[model];
      const extra = {
        ...(t.isReserved ? { termMonths: t.termMonths, upfront: '1000' } : {}),
        ...(t.billedByBusyTime ? { serverlessUnitPrice: '0.000305', serverlessUnit: 'GPU_SECOND' } : {}),
        ...(t.interruptible ? { interruptionNoticeSeconds: 120 } : {}),
      };
      expect([model, offerErrors(model, extra)]).toEqual([model, []]);
    }
  });

  it('refuses a reservation with another term, and a term, upfront or notice where the model has none', () => {
    expect(offerErrors('RESERVED_3Y', { termMonths: 12 })).toEqual([{ field: 'termMonths', message: 'must be 36 for RESERVED_3Y' }]);
    expect(offerErrors('RESERVED_1Y', {})).toEqual([{ field: 'termMonths', message: 'must be 12 for RESERVED_1Y' }]);
    expect(offerErrors('ON_DEMAND', { upfront: '1000' })).toEqual([{ field: 'upfront', message: 'only reserved offers have an upfront payment or a term' }]);
    expect(offerErrors('SPOT', { termMonths: 12 })).toEqual([{ field: 'termMonths', message: 'only reserved offers have an upfront payment or a term' }]);
    expect(offerErrors('ON_DEMAND', { interruptionNoticeSeconds: 120 })).toEqual([
      { field: 'interruptionNoticeSeconds', message: 'only spot offers have an interruption notice' },
    ]);
  });
});
