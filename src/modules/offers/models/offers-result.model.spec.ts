// The offers answers as sent: the listing page and the cheapest answer with its exclusions.
// Domain results are written by hand.
import type { CatalogVersionInfo, Offer } from '../../../domain/catalog/catalog.types.js';
import type { CheapestResult, ExcludedOffer, OfferPage, OfferQuote } from '../../../domain/compliance/index.js';
import { makeGpu, makeOffer, makeProvider, makeRegion } from '../../../domain/compliance/testing/factories.js';
import { Decimal } from '../../../domain/money/money.js';
import { CheapestOffersResultModel, ExcludedOfferModel, OfferConnectionModel } from './offers-result.model.js';

/** The fields @ApiProperty declares on a model (the OpenAPI document and, field for field, GraphQL). */
const declared = (model: abstract new () => unknown): string[] =>
  (Reflect.getMetadata('swagger/apiModelPropertiesArray', model.prototype) as string[]).map((k) => k.slice(1));

const d = (v: string) => new Decimal(v);
const version = { id: '00000000-0000-4000-8000-000000000002', label: 'v2' } as CatalogVersionInfo;

function quote(overrides: Partial<Offer> = {}, price = '2.5'): OfferQuote {
  return {
    offer: makeOffer(overrides),
    provider: makeProvider(),
    region: makeRegion(),
    gpu: makeGpu(),
    country: 'DE',
    currency: 'USD',
    pricePerGpuHour: d(price),
    pricePerInstanceHour: d(price),
    instances: 1,
    totalPricePerHour: d(price),
    discountPercent: null,
    energy: null,
    energyUnknownReason: null,
  };
}

describe(OfferConnectionModel.name, () => {
  it('sends a page of offers with the version, the currency and the next cursor, without cheapest-answer totals', () => {
    const page: OfferPage = { currency: 'USD', items: [quote({ instanceType: 'a' }), quote({ instanceType: 'b' })], nextAfter: 'ignored' };
    const model = OfferConnectionModel.of(version, page, 'next-page');
    expect(model).toMatchObject({ catalogVersion: { id: version.id, label: 'v2' }, currency: 'USD', nextCursor: 'next-page' });
    expect(Object.keys(model)).toEqual(declared(OfferConnectionModel));
    expect(model.items.map((o) => [o.instanceType, o.instances, o.totalPricePerHour])).toEqual([
      ['a', null, null],
      ['b', null, null],
    ]);
  });
});

describe(CheapestOffersResultModel.name, () => {
  it('sends compliant offers with totals and why they comply, and excluded ones with each reason and its rule', () => {
    const excluded: ExcludedOffer = {
      ...quote({ regionCode: 'aws:us-east-1', instanceType: 'cheap-us' }, '1.5'),
      reasons: [
        { rule: 'RESIDENCY', message: 'region aws:us-east-1 is in US, outside EEA' },
        { rule: 'OPERATOR', message: 'aws is headquartered in US' },
      ],
    };
    const result: CheapestResult = {
      currency: 'USD',
      items: [{ ...quote({ instanceType: 'ok' }), passes: ['region in DE, inside EEA'] }],
      excluded: [excluded],
      excludedCount: 4,
      nearestMisses: [],
      cleanest: null,
    };
    const model = CheapestOffersResultModel.of(version, result, ['a warning']);
    expect(model.items).toHaveLength(1);
    expect(model.items[0]).toMatchObject({
      instanceType: 'ok',
      complies: ['region in DE, inside EEA'],
      instances: 1,
      totalPricePerHour: { amount: '2.5000', currency: 'USD' },
    });
    expect(model.excluded).toHaveLength(1);
    expect(model.excluded[0]).toMatchObject({
      offer: { instanceType: 'cheap-us', region: 'aws:us-east-1', totalPricePerHour: { amount: '1.5000', currency: 'USD' } },
      reasons: ['region aws:us-east-1 is in US, outside EEA', 'aws is headquartered in US'],
      rules: ['RESIDENCY', 'OPERATOR'],
    });
    expect(model.excludedCount).toBe(4);
    expect(model.nearestMisses).toEqual([]);
    expect(model.warnings).toEqual(['a warning']);
    expect(Object.keys(model)).toEqual(declared(CheapestOffersResultModel));
    expect(Object.keys(model.excluded[0] ?? {})).toEqual(declared(ExcludedOfferModel));
  });
});
