// The offer listing as CSV for spreadsheets: FOCUS-style columns, CRLF rows, quoting, and text
// that a spreadsheet would run as a formula defused.
import type { CatalogVersionInfo, Offer } from '../../domain/catalog/catalog.types.js';
import type { OfferQuote } from '../../domain/compliance/index.js';
import { makeGpu, makeOffer, makeProvider, makeRegion } from '../../domain/compliance/testing/factories.js';
import { Decimal } from '../../domain/money/money.js';
import { OfferConnectionModel } from './models/offers-result.model.js';
import { offersCsv } from './offers-csv.js';

const version = { id: '00000000-0000-4000-8000-000000000002', label: 'v2' } as CatalogVersionInfo;

function quote(overrides: Partial<Offer> = {}, price = '2.5'): OfferQuote {
  const p = new Decimal(price);
  return { offer: makeOffer(overrides), provider: makeProvider(), region: makeRegion(), gpu: makeGpu(), country: 'DE', currency: 'USD', pricePerGpuHour: p, pricePerInstanceHour: p, instances: 1, totalPricePerHour: p, discountPercent: null };
}

describe(offersCsv.name, () => {
  const csv = (...items: OfferQuote[]) => offersCsv(OfferConnectionModel.of(version, { currency: 'USD', items, nextAfter: null }, null));

  it('writes a FOCUS-style header and one CRLF-ended row per offer', () => {
    const lines = csv(quote({ pricingModel: 'SPOT', gpuCount: 8, instanceType: 'p5.48xlarge' }, '1.5')).split('\r\n');
    expect(lines[0]).toBe(
      'SkuPriceId,ProviderName,RegionId,RegionCountry,SkuId,GpuModel,GpuCount,GpuMemoryGb,PricingCategory,PricingModel,CommitmentTermMonths,ListUnitPrice,ListCurrency,PricingUnit,' +
        'PricePerHour,PricePerGpuHour,BillingCurrency,Source,ObservedAt,PriceKind,Derivation,Conversion,CatalogVersion',
    );
    expect(lines[1]).toBe(
      'aws|aws:eu-central-1|h100-sxm-80gb|8|p5.48xlarge|SPOT,aws,aws:eu-central-1,DE,p5.48xlarge,h100-sxm-80gb,8,80,Dynamic,SPOT,,4.0000,USD,Hours,1.5000,1.5000,USD,https://example.test/prices,2026-11-27,LIST,,,v2',
    );
    expect(lines).toHaveLength(3); // the last line ends with CRLF too
    expect(lines[2]).toBe('');
  });

  it('names reserved offers Committed with their term', () => {
    const row = csv(quote({ pricingModel: 'RESERVED_3Y', termMonths: 36 })).split('\r\n')[1]!.split(',');
    expect([row[8], row[9], row[10]]).toEqual(['Committed', 'RESERVED_3Y', '36']);
  });

  it('quotes cells with commas, quotes or line breaks, and defuses text a spreadsheet would run as a formula', () => {
    const row = csv(quote({ instanceType: '=HYPERLINK("http://x","y")', derivation: 'median of 3,\nrounded' })).split('\r\n').slice(1).join('\r\n');
    expect(row).toContain(`,"'=HYPERLINK(""http://x"",""y"")",`);
    expect(row).toContain(',"median of 3,\nrounded",');
    // A negative number is data, not a formula.
    expect(offersCsv({ ...OfferConnectionModel.of(version, { currency: 'USD', items: [quote()], nextAfter: null }, null), catalogVersion: { id: 'x', label: '-12.5' } })).toMatch(/,-12\.5\r\n$/);
  });
});
