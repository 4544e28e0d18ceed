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

/** The errors of one offer row: pricePerHour "31.2" unless `extra` gives pricePerMonth (or sets pricePerHour to null). */
const offerErrors = (pricingModel: string, extra: Record<string, unknown>): { field: string; message: string }[] => {
  const all = { pricePerHour: 'pricePerMonth' in extra ? null : '31.2', ...extra };
  const fields = Object.entries(all)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `, ${k}: ${JSON.stringify(v)}`)
    .join('');
  const file: CatalogFile = {
    path: 'offers.yaml',
    text: `offers:
  - { provider: aws, region: eu-central-1, gpu: h100-sxm-80gb, gpuCount: 8, instanceType: p5.48xlarge, pricingModel: ${pricingModel}, \
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
    // A monthly server's setup fee is its upfront, spread over the minimum term the offer states.
    expect(pricingModelsWhere((t) => t.upfront !== 'NOT_ALLOWED')).toEqual(['RESERVED_1Y', 'RESERVED_3Y', 'MONTHLY']);
    expect(pricingModelsWhere((t) => t.term === 'MINIMUM')).toEqual(['MONTHLY']);
  });

  it('puts each model in the plan slot its other traits imply', () => {
    for (const model of PRICING_MODELS) {
      const t = PRICING_MODEL_TRAITS[model];
      // Reservations and monthly servers are paid every hour of their term: the base load's slot.
      expect([model, t.planSlot === 'RESERVED']).toEqual([model, t.term !== 'NONE']);
      expect([model, t.planSlot === 'SPOT']).toEqual([model, t.interruptible]);
      expect([model, t.planSlot === 'SERVERLESS']).toEqual([model, t.billedByBusyTime]);
      expect([model, t.comparablePrice === 'HOURLY_PLUS_UPFRONT_OVER_TERM']).toEqual([model, t.term !== 'NONE']);
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
      MONTHLY: 'Standard',
    });
  });
});

describe('catalog rows follow the traits', () => {
  it('accepts every model with the fields its traits call for', () => {
    for (const model of PRICING_MODELS) {
      const t = PRICING_MODEL_TRAITS[model];
      const extra = {
        ...(t.isReserved ? { termMonths: t.termMonths, upfront: '1000' } : {}),
        ...(t.term === 'MINIMUM' ? { termMonths: 1, upfront: '209', pricePerMonth: '214' } : {}),
        ...(t.billedByBusyTime ? { serverlessUnitPrice: '0.000305', serverlessUnit: 'GPU_SECOND' } : {}),
        ...(t.interruptible ? { interruptionNoticeSeconds: 120 } : {}),
      };
      expect([model, offerErrors(model, extra)]).toEqual([model, []]);
    }
  });

  it('refuses a reservation with another term, and a term, upfront or notice where the model has none', () => {
    expect(offerErrors('RESERVED_3Y', { termMonths: 12 })).toEqual([{ field: 'termMonths', message: 'must be 36 for RESERVED_3Y' }]);
    expect(offerErrors('RESERVED_1Y', {})).toEqual([{ field: 'termMonths', message: 'must be 12 for RESERVED_1Y' }]);
    const noTerm = 'only reserved and monthly offers have an upfront payment (setup fee) or a term';
    expect(offerErrors('ON_DEMAND', { upfront: '1000' })).toEqual([{ field: 'upfront', message: noTerm }]);
    expect(offerErrors('SPOT', { termMonths: 12 })).toEqual([{ field: 'termMonths', message: noTerm }]);
    expect(offerErrors('ON_DEMAND', { interruptionNoticeSeconds: 120 })).toEqual([
      { field: 'interruptionNoticeSeconds', message: 'only spot offers have an interruption notice' },
    ]);
  });

  it('asks a monthly server for its monthly price and minimum term, and nothing else for either', () => {
    expect(offerErrors('MONTHLY', { pricePerMonth: '214' })).toEqual([{ field: 'termMonths', message: 'MONTHLY offers state their minimum term in months' }]);
    expect(offerErrors('MONTHLY', { termMonths: 1 })).toEqual([
      { field: 'pricePerMonth', message: 'MONTHLY offers give pricePerMonth (the hourly price is derived: ÷ 730)' },
      { field: 'pricePerHour', message: 'MONTHLY offers give pricePerMonth, not an hourly price' },
    ]);
    expect(offerErrors('MONTHLY', { termMonths: 1, pricePerHour: null })).toEqual([
      { field: 'pricePerMonth', message: 'MONTHLY offers give pricePerMonth (the hourly price is derived: ÷ 730)' },
    ]);
    expect(offerErrors('MONTHLY', { termMonths: 1, pricePerHour: '0.29', pricePerMonth: '214' })).toEqual([
      { field: 'pricePerHour', message: 'MONTHLY offers give pricePerMonth, not an hourly price' },
    ]);
    expect(offerErrors('ON_DEMAND', { pricePerMonth: '214' })).toEqual([{ field: 'pricePerMonth', message: 'only MONTHLY offers have a monthly price' }]);
  });

  it("keeps a marketplace offer's spread ordered, priced at its median, and its interruption rate for spot", () => {
    const market = (m: Record<string, unknown>) => ({ market: { p10: '1.2', median: '31.2', p90: '40', sampleSize: 12, basis: 'verified hosts', ...m } });
    expect(offerErrors('SPOT', market({}))).toEqual([]);
    expect(offerErrors('SPOT', market({ interruptionsPerHour: '0.02' }))).toEqual([]);
    expect(offerErrors('SPOT', market({ p10: '35' }))).toEqual([{ field: 'market', message: 'must hold p10 <= median <= p90' }]);
    expect(offerErrors('SPOT', market({ median: '30', p90: '40' }))).toEqual([
      {
        field: 'market',
        message: "median must equal the row's price (pricePerHour or pricePerGpuHour, in the same unit): a marketplace offer ranks by its median",
      },
    ]);
    expect(offerErrors('ON_DEMAND', market({ interruptionsPerHour: '0.02' }))).toEqual([
      { field: 'market', message: 'only interruptible (SPOT) offers have interruptionsPerHour' },
    ]);
  });
});
