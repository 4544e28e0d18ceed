// The catalog's response models, built from domain objects: what REST and GraphQL send for
// versions, diffs, offers, reference figures and reference data. Inputs are written by hand.
import type { CatalogVersionInfo } from '../../../domain/catalog/catalog.types.js';
import type { CatalogDiff } from '../../../domain/catalog/catalog-diff.js';
import type { FigureComparison } from '../../../domain/catalog/reference-figures.js';
import type { OfferQuote } from '../../../domain/compliance/index.js';
import { makeGpu, makeOffer, makeProvider, makeReferenceFigure, makeRegion } from '../../../domain/compliance/testing/factories.js';
import { Decimal } from '../../../domain/money/money.js';
import { CatalogDiffModel } from './catalog-diff.model.js';
import { CatalogVersionModel } from './catalog-version.model.js';
import { OfferModel } from './offer.model.js';
import { PricePointModel } from './price-history.model.js';
import { ReferenceFigureModel } from './reference-figure.model.js';
import { GpuModelModel, ProviderModel, RegionModel } from './reference.model.js';

const d = (v: string) => new Decimal(v);

function versionInfo(overrides: Partial<CatalogVersionInfo> = {}): CatalogVersionInfo {
  return {
    id: '00000000-0000-4000-8000-000000000003',
    seq: 3,
    label: '2026-11',
    source: 'catalog:import data/catalog',
    notes: null,
    checksum: 'abc',
    createdAt: new Date('2026-11-27T10:00:00Z'),
    publishedAt: new Date('2026-11-27T11:00:00Z'),
    current: true,
    offerCount: 7,
    rowsWritten: 12,
    fxRates: { base: 'USD', rates: { EUR: '0.8650' }, date: '2026-11-27', source: 'ECB' },
    providerObservations: [{ provider: 'aws', offers: 3, oldest: '2026-07-09', newest: '2026-10-10' }],
    ...overrides,
  };
}

function quote(overrides: Partial<OfferQuote> = {}): OfferQuote {
  const offer = makeOffer({ gpuCount: 8, instanceType: 'p5.48xlarge', pricePerHour: d('31.46') });
  return {
    offer,
    provider: makeProvider(),
    region: makeRegion(),
    gpu: makeGpu(),
    country: 'DE',
    currency: 'EUR',
    pricePerGpuHour: d('3.4016'),
    pricePerInstanceHour: d('27.2129'),
    instances: 2,
    totalPricePerHour: d('54.4258'),
    discountPercent: null,
    energy: null,
    energyUnknownReason: null,
    ...overrides,
  };
}

describe(CatalogVersionModel.name, () => {
  it('lists the FX rates as currency and rate pairs, and keeps a version without observations null', () => {
    const model = CatalogVersionModel.of(versionInfo());
    expect(model).toMatchObject({ id: '00000000-0000-4000-8000-000000000003', label: '2026-11', current: true, offerCount: 7, rowsWritten: 12 });
    expect(model.fxRates).toEqual({ base: 'USD', date: '2026-11-27', source: 'ECB', rates: [{ currency: 'EUR', rate: '0.8650' }] });
    expect(model.providerObservations).toEqual([{ provider: 'aws', offers: 3, oldest: '2026-07-09', newest: '2026-10-10' }]);
    expect(CatalogVersionModel.of(versionInfo({ providerObservations: null })).providerObservations).toBeNull();
  });
});

describe(CatalogDiffModel.name, () => {
  it('sends offers by key with list prices, and price changes in percent with 4 places (none across currencies)', () => {
    const eurNow = makeOffer({ instanceType: 'eur-now', pricePerHour: d('3.00'), currency: 'EUR' });
    const repriced = makeOffer({ instanceType: 'repriced', pricePerHour: d('5.00') });
    const diff: CatalogDiff = {
      added: [makeOffer({ instanceType: 'new' })],
      removed: [makeOffer({ instanceType: 'gone', pricePerHour: d('1.5') })],
      changed: [
        {
          offer: repriced,
          before: repriced,
          oldPricePerHour: d('4.00'),
          newPricePerHour: d('5.00'),
          changePct: d('25'),
          oldCurrency: 'USD',
          otherChanges: ['observedAt'],
        },
        { offer: eurNow, before: eurNow, oldPricePerHour: d('3.50'), newPricePerHour: d('3.00'), changePct: null, oldCurrency: 'USD', otherChanges: [] },
      ],
      reference: [{ kind: 'provider', key: 'aws', change: 'changed' }],
      unchangedOffers: 7,
    };
    const model = CatalogDiffModel.of(versionInfo({ label: 'from' }), versionInfo({ label: 'to' }), diff);
    expect([model.from.label, model.to.label]).toEqual(['from', 'to']);
    expect(model.removed).toEqual([
      {
        id: 'aws|aws:eu-central-1|h100-sxm-80gb|1|gone|ON_DEMAND',
        provider: 'aws',
        region: 'aws:eu-central-1',
        gpu: 'h100-sxm-80gb',
        gpuCount: 1,
        instanceType: 'gone',
        pricingModel: 'ON_DEMAND',
        pricePerHour: { amount: '1.5000', currency: 'USD' },
      },
    ]);
    expect(model.added.map((o) => o.instanceType)).toEqual(['new']);
    expect(model.changed[0]).toMatchObject({
      instanceType: 'repriced',
      oldPricePerHour: { amount: '4.0000', currency: 'USD' },
      newPricePerHour: { amount: '5.0000', currency: 'USD' },
      changePct: '25.0000',
      otherChanges: ['observedAt'],
    });
    expect(model.changed[1]).toMatchObject({
      oldPricePerHour: { amount: '3.5000', currency: 'USD' },
      newPricePerHour: { amount: '3.0000', currency: 'EUR' },
      changePct: null,
    });
    expect(model.referenceChanges).toEqual([{ kind: 'provider', key: 'aws', change: 'changed' }]);
    expect(model.unchangedOffers).toBe(7);
  });
});

describe(OfferModel.name, () => {
  it('sends the asked-currency prices next to the list price, and totals only for cheapest answers', () => {
    const listing = OfferModel.of(quote());
    expect(listing).toMatchObject({
      id: 'aws|aws:eu-central-1|h100-sxm-80gb|8|p5.48xlarge|ON_DEMAND',
      provider: 'aws',
      region: 'aws:eu-central-1',
      country: 'DE',
      gpu: 'h100-sxm-80gb',
      gpuMemoryGb: 80,
      gpuCount: 8,
      pricePerHour: { amount: '27.2129', currency: 'EUR' },
      pricePerGpuHour: { amount: '3.4016', currency: 'EUR' },
      listPricePerHour: { amount: '31.4600', currency: 'USD' },
      upfront: null,
      discountPercent: null,
      instances: null,
      totalPricePerHour: null,
      complies: null,
    });
    const cheapest = OfferModel.of(quote({ discountPercent: d('12.5') }), { withTotals: true, passes: ['region in DE, inside EEA'] });
    expect(cheapest).toMatchObject({
      instances: 2,
      totalPricePerHour: { amount: '54.4258', currency: 'EUR' },
      discountPercent: '12.5',
      complies: ['region in DE, inside EEA'],
    });
  });

  it('fills every field the API documents, in the documented order, and carries each price’s provenance from the offer', () => {
    // The fields as @ApiProperty declares them (the OpenAPI document and, field for field, GraphQL).
    const declared = (Reflect.getMetadata('swagger/apiModelPropertiesArray', OfferModel.prototype) as string[]).map((k) => k.slice(1));
    const offer = makeOffer({
      sourceUrl: 'https://example.test/prices.csv',
      sourceTitle: 'a title',
      observedAt: '2026-10-10',
      priceKind: 'ESTIMATE',
      derivation: 'a rule',
      conversion: 'a conversion',
    });
    for (const extra of [{}, { withTotals: true, passes: [] }]) {
      const model = OfferModel.of(quote({ offer }), extra);
      expect(Object.keys(model)).toEqual(declared);
      expect(Object.values(model)).not.toContain(undefined);
      expect(model).toMatchObject({
        source: 'https://example.test/prices.csv',
        sourceTitle: 'a title',
        observedAt: '2026-10-10',
        priceKind: 'ESTIMATE',
        derivation: 'a rule',
        conversion: 'a conversion',
      });
    }
  });

  it('sends a reserved offer’s upfront in its list currency, and a serverless unit price as quoted', () => {
    const reserved = makeOffer({ pricingModel: 'RESERVED_1Y', currency: 'EUR', upfront: d('10000'), termMonths: 12 });
    expect(OfferModel.of(quote({ offer: reserved }))).toMatchObject({
      upfront: { amount: '10000.0000', currency: 'EUR' },
      termMonths: 12,
      pricingModel: 'RESERVED_1Y',
    });
    const serverless = makeOffer({ pricingModel: 'SERVERLESS', serverlessUnitPrice: d('0.000305'), serverlessUnit: 'GPU_SECOND' });
    expect(OfferModel.of(quote({ offer: serverless }))).toMatchObject({ serverlessUnitPrice: '0.000305', serverlessUnit: 'GPU_SECOND' });
  });
});

describe(ReferenceFigureModel.name, () => {
  const comparison = (overrides: Partial<FigureComparison> = {}): FigureComparison => ({
    figure: makeReferenceFigure({ value: d('3.9'), valueHigh: d('4.5') }),
    status: 'COMPARED',
    matches: 3,
    listLow: d('5.5'),
    listMedian: d('6.88'),
    listHigh: d('8.123456'),
    cheapest: { offer: makeOffer({ instanceType: 'p5.48xlarge', regionCode: 'aws:us-east-1' }), value: d('5.5') },
    deviation: d('22.2222222'),
    summary: 'AWS H100 on-demand: ...',
    ...overrides,
  });

  it('quotes money figures with at least two decimals, list prices with four, and the deviation with two', () => {
    const model = ReferenceFigureModel.of(comparison());
    expect(model).toMatchObject({
      value: '3.90',
      valueHigh: '4.50',
      listLow: '5.5000',
      listMedian: '6.8800',
      listHigh: '8.1235',
      deviation: '22.22',
      status: 'COMPARED',
      matches: 3,
    });
    expect(model.cheapest).toEqual({
      offerId: 'aws|aws:us-east-1|h100-sxm-80gb|1|p5.48xlarge|ON_DEMAND',
      provider: 'aws',
      region: 'aws:us-east-1',
      instanceType: 'p5.48xlarge',
      value: '5.5000',
      observedAt: '2026-11-27',
      source: 'https://example.test/prices',
    });
    expect(ReferenceFigureModel.of(comparison({ deviation: d('-7.004') })).deviation).toBe('-7.00');
  });

  it('quotes percentages as they are, and leaves what was not compared null', () => {
    const discount = makeReferenceFigure({ metric: 'DISCOUNT_PERCENT', currency: null, value: d('45'), valueHigh: null });
    const model = ReferenceFigureModel.of(
      comparison({ figure: discount, status: 'NO_LIST_PRICE', matches: 0, listLow: null, listMedian: null, listHigh: null, cheapest: null, deviation: null }),
    );
    expect(model).toMatchObject({
      value: '45',
      valueHigh: null,
      currency: null,
      status: 'NO_LIST_PRICE',
      listLow: null,
      listMedian: null,
      listHigh: null,
      cheapest: null,
      deviation: null,
    });
  });
});

describe(ProviderModel.name, () => {
  it('derives the headquarters’ jurisdictions from its country, and sends decimals as strings', () => {
    const ovh = ProviderModel.of(makeProvider({ slug: 'ovh', headquartersCountry: 'FR', slaPercent: d('99.95'), egressUsdPerGb: null }));
    expect(ovh).toMatchObject({ slug: 'ovh', headquartersJurisdictions: ['EU', 'EEA', 'GDPR_ADEQUATE'], slaPercent: '99.95', egressUsdPerGb: null });
    expect(ProviderModel.of(makeProvider({ headquartersCountry: 'US' })).headquartersJurisdictions).not.toContain('EU');
  });
});

describe(RegionModel.name, () => {
  it('derives a region’s jurisdictions from its country', () => {
    expect(RegionModel.of(makeRegion({ code: 'exoscale:ch-gva-2', providerSlug: 'exoscale', country: 'CH' }))).toEqual({
      code: 'exoscale:ch-gva-2',
      provider: 'exoscale',
      name: 'Frankfurt',
      city: 'Frankfurt',
      country: 'CH',
      jurisdictions: ['GDPR_ADEQUATE'],
    });
  });
});

describe(GpuModelModel.name, () => {
  it('sends GPU figures as numbers', () => {
    expect(GpuModelModel.of(makeGpu({ fp8Tflops: null }))).toMatchObject({
      memoryGb: 80,
      memoryBandwidthGbps: 3350,
      fp16Tflops: 989,
      int8Tops: 1979,
      fp8Tflops: null,
    });
  });
});

describe(PricePointModel.name, () => {
  it('sends a price per GPU-hour in the asked currency with the version it was in', () => {
    const version = versionInfo();
    const point = PricePointModel.of({ version, offer: makeOffer(), pricePerGpuHour: d('3.46') }, 'EUR');
    expect(point).toMatchObject({
      catalogVersion: { id: version.id, label: '2026-11' },
      publishedAt: new Date('2026-11-27T11:00:00Z'),
      offer: { pricePerHour: { amount: '4.0000', currency: 'USD' } },
      pricePerGpuHour: { amount: '3.4600', currency: 'EUR' },
    });
  });
});
