// The offer listing as CSV for spreadsheets: FOCUS-style columns, CRLF rows, quoting, and text
// that a spreadsheet would run as a formula defused.
import type { OfferModel } from '../catalog/models/offer.model.js';
import type { OfferConnectionModel } from './models/offers-result.model.js';
import { offersCsv } from './offers-csv.js';
import { at } from '../../domain/checked.js';

/** An offer as the listing sends it (plain data: the model classes only add schema decorators). */
function offer(overrides: Partial<OfferModel> = {}): OfferModel {
  return {
    id: 'k1',
    provider: 'aws',
    region: 'aws:us-east-1',
    country: 'US',
    gpu: 'h100-sxm-80gb',
    gpuMemoryGb: 80,
    gpuCount: 8,
    instanceType: 'p5.48xlarge',
    pricingModel: 'SPOT',
    pricePerHour: { amount: '12.0000', currency: 'USD' },
    pricePerGpuHour: { amount: '1.5000', currency: 'USD' },
    listPricePerHour: { amount: '12.0000', currency: 'USD' },
    upfront: null,
    termMonths: null,
    monthlyPrice: null,
    serverlessUnitPrice: null,
    serverlessUnit: null,
    interruptionNoticeSeconds: 120,
    interruptionRate: null,
    market: null,
    source: 'https://example.test/prices',
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
    energy: 0.7945,
    carbon: 320.184,
    gridIntensity: 403,
    gridSource: 'ELECTRICITY_MAPS',
    energyFigures: null,
    carbonUnknownReason: null,
    discountPercent: null,
    instances: null,
    totalPricePerHour: null,
    complies: null,
    ...overrides,
  };
}

const page = (items: OfferModel[], label = 'v2', exchangeRate: OfferConnectionModel['exchangeRate'] = null): OfferConnectionModel => ({
  catalogVersion: { id: 'x', label },
  currency: 'USD',
  items,
  nextCursor: null,
  exchangeRate,
});

describe(offersCsv.name, () => {
  it('writes a FOCUS-style header and one CRLF-ended row per offer', () => {
    const lines = offersCsv(page([offer()])).split('\r\n');
    expect(lines[0]).toBe(
      'SkuPriceId,ProviderName,RegionId,RegionCountry,SkuId,GpuModel,GpuCount,GpuMemoryGb,PricingCategory,PricingModel,' +
        'CommitmentTermMonths,ListUnitPrice,ListCurrency,PricingUnit,' +
        'PricePerHour,PricePerGpuHour,BillingCurrency,Source,ObservedAt,PriceKind,Derivation,Conversion,' +
        'SourceKind,Availability,ValidFrom,ValidUntil,FxRate,FxRatePair,FxRateDate,CatalogVersion,' +
        'EnergyKwhPerGpuHour,CarbonGCo2ePerGpuHour,GridIntensityGCo2ePerKwh,GridSource,CarbonUnknownReason',
    );
    expect(lines[1]).toBe(
      'k1,aws,aws:us-east-1,US,p5.48xlarge,h100-sxm-80gb,8,80,Dynamic,SPOT,,12.0000,USD,Hours,12.0000,1.5000,USD,' +
        'https://example.test/prices,2026-11-27,LIST,,,PROVIDER_API,CONFIRMED,,,,,,v2,0.7945,320.184,403,ELECTRICITY_MAPS,',
    );
    expect(lines.slice(2)).toEqual(['']); // the last row ends with CRLF too
  });

  it('names the FOCUS pricing category of each pricing model, with a reserved offer’s term', () => {
    const category = (o: OfferModel) =>
      at(offersCsv(page([o])).split('\r\n'), 1)
        .split(',')
        .slice(8, 11);
    expect(category(offer({ pricingModel: 'RESERVED_3Y', termMonths: 36 }))).toEqual(['Committed', 'RESERVED_3Y', '36']);
    expect(category(offer({ pricingModel: 'RESERVED_1Y', termMonths: 12 }))).toEqual(['Committed', 'RESERVED_1Y', '12']);
    expect(category(offer({ pricingModel: 'ON_DEMAND' }))).toEqual(['Standard', 'ON_DEMAND', '']);
    expect(category(offer({ pricingModel: 'SERVERLESS' }))).toEqual(['Standard', 'SERVERLESS', '']);
  });

  it('sends the listed price in its own currency next to the asked one, and the FX rate and its date on every row', () => {
    const eur = offer({ listPricePerHour: { amount: '2.8000', currency: 'EUR' }, pricePerHour: { amount: '3.2370', currency: 'USD' } });
    const fx = { base: 'USD' as const, currency: 'EUR' as const, rate: '0.854774', date: '2026-08-21', source: 'ECB', ageDays: 103 };
    const rows = offersCsv(page([eur, offer({ validFrom: '2026-10-01', validUntil: '2026-12-31', availability: 'UNCONFIRMED' })], 'v2', fx)).split('\r\n');
    const cells = at(rows, 1).split(',');
    expect([cells[11], cells[12], cells[14], cells[16]]).toEqual(['2.8000', 'EUR', '3.2370', 'USD']);
    expect(cells.slice(22, 30)).toEqual(['PROVIDER_API', 'CONFIRMED', '', '', '0.854774', 'USD/EUR', '2026-08-21', 'v2']);
    expect(at(rows, 2).split(',').slice(22, 29)).toEqual(['PROVIDER_API', 'UNCONFIRMED', '2026-10-01', '2026-12-31', '0.854774', 'USD/EUR', '2026-08-21']);
  });

  it('quotes cells with commas, quotes or line breaks, and defuses text a spreadsheet would run as a formula', () => {
    const csv = offersCsv(page([offer({ instanceType: '=HYPERLINK("http://x","y")', derivation: 'median of 3,\nrounded', conversion: '@SUM(A1)' })]));
    expect(csv).toContain(`,"'=HYPERLINK(""http://x"",""y"")",`);
    expect(csv).toContain(',"median of 3,\nrounded",');
    expect(csv).toContain(",'@SUM(A1),");
    // A negative number is data, not a formula.
    const unknown = {
      energy: null,
      carbon: null,
      gridIntensity: null,
      gridSource: null,
      carbonUnknownReason: 'no sourced board power (TDP) for rtx-4000-sff-ada-20gb',
    };
    expect(offersCsv(page([offer(unknown)], '-12.5'))).toMatch(/,-12\.5,,,,,no sourced board power \(TDP\) for rtx-4000-sff-ada-20gb\r\n$/);
  });
});
