import { Decimal, formatAmount } from '../money/money.js';
import { applyDiscount, comparablePricePerGpuHour, comparablePricePerInstanceHour, compareTieKeys, rankOffers, resolveDiscounts } from './ranking.js';
import { makeOffer, TEST_FX_RATES } from './testing/factories.js';
import { at } from '../checked.js';

const fxRates = TEST_FX_RATES; // 1 USD = 0.8650 EUR

describe(comparablePricePerInstanceHour.name, () => {
  it.each([
    ['on-demand: the hourly price', makeOffer({ pricePerHour: new Decimal('32.00'), gpuCount: 8 }), '32.0000'],
    ['spot: the hourly price', makeOffer({ pricingModel: 'SPOT', pricePerHour: new Decimal('1.20') }), '1.2000'],
    [
      'reserved 1y: hourly plus upfront over 12 x 730 hours',
      makeOffer({ pricingModel: 'RESERVED_1Y', pricePerHour: new Decimal(2), upfront: new Decimal(8760), termMonths: 12 }),
      '3.0000',
    ],
    [
      'reserved 3y without termMonths: the term from the model name',
      makeOffer({ pricingModel: 'RESERVED_3Y', pricePerHour: new Decimal('0.5'), upfront: new Decimal(26280) }),
      '1.5000',
    ],
    ['reserved, all upfront', makeOffer({ pricingModel: 'RESERVED_1Y', pricePerHour: new Decimal(0), upfront: new Decimal(17520), termMonths: 12 }), '2.0000'],
    [
      'serverless: one instance busy a full hour',
      makeOffer({
        pricingModel: 'SERVERLESS',
        pricePerHour: new Decimal('1.098'),
        serverlessUnitPrice: new Decimal('0.000305'),
        serverlessUnit: 'GPU_SECOND',
      }),
      '1.0980',
    ],
  ])('%s', (_name, offer, expected) => {
    expect(formatAmount(comparablePricePerInstanceHour({ offer }))).toBe(expected);
  });
});

describe(comparablePricePerGpuHour.name, () => {
  it('divides by the GPUs of the instance and converts at the version rate', () => {
    const offer = makeOffer({ pricePerHour: new Decimal('32.00'), gpuCount: 8 });
    expect(formatAmount(comparablePricePerGpuHour({ offer, currency: 'USD', fxRates }))).toBe('4.0000');
    expect(formatAmount(comparablePricePerGpuHour({ offer, currency: 'EUR', fxRates }))).toBe('3.4600');
  });

  it('converts EUR offers to USD', () => {
    const offer = makeOffer({ pricePerHour: new Decimal('3.46'), currency: 'EUR' });
    expect(formatAmount(comparablePricePerGpuHour({ offer, currency: 'USD', fxRates }))).toBe('4.0000');
  });

  it('applies a negotiated discount after conversion', () => {
    const offer = makeOffer({ pricePerHour: new Decimal('4.00') });
    const price = comparablePricePerGpuHour({ offer, currency: 'USD', fxRates, discountPercent: new Decimal(12) });
    expect(formatAmount(price)).toBe('3.5200');
  });
});

describe(rankOffers.name, () => {
  const usd = makeOffer({ providerSlug: 'aws', regionCode: 'aws:eu-central-1', pricePerHour: new Decimal('4.00') }); // 3.46 EUR
  const eur = makeOffer({ providerSlug: 'ovh', regionCode: 'ovh:gra', pricePerHour: new Decimal('3.50'), currency: 'EUR' });
  const reserved = makeOffer({
    providerSlug: 'gcp',
    regionCode: 'gcp:europe-west4',
    pricingModel: 'RESERVED_1Y',
    pricePerHour: new Decimal('16.00'),
    upfront: new Decimal(87600),
    termMonths: 12,
    gpuCount: 8,
  }); // (16 + 87600 / 8760) / 8 = 3.25 USD = 2.81125 EUR

  it('ranks mixed currencies and pricing models in one currency, the same order in each', () => {
    for (const currency of ['EUR', 'USD'] as const) {
      const ranked = rankOffers({ offers: [eur, usd, reserved], currency, fxRates });
      expect(ranked.map((r) => r.offer.providerSlug)).toEqual(['gcp', 'aws', 'ovh']);
    }
    const eurRanked = rankOffers({ offers: [eur, usd, reserved], currency: 'EUR', fxRates });
    expect(eurRanked.map((r) => formatAmount(r.pricePerGpuHour))).toEqual(['2.8112', '3.4600', '3.5000']); // 2.81125, banker-rounded
  });

  it('lets a negotiated discount change the order', () => {
    const ranked = rankOffers({ offers: [eur, usd], currency: 'EUR', fxRates, discounts: resolveDiscounts([{ provider: 'OVH', percent: 12 }]) });
    expect(ranked.map((r) => [r.offer.providerSlug, formatAmount(r.pricePerGpuHour)])).toEqual([
      ['ovh', '3.0800'],
      ['aws', '3.4600'],
    ]);
  });

  it('breaks ties by provider, region, GPU, GPU count, instance type, pricing model', () => {
    const price = { pricePerHour: new Decimal('2.00') };
    const offers = [
      makeOffer({ ...price, providerSlug: 'b', regionCode: 'b:a' }),
      makeOffer({ ...price, providerSlug: 'a', regionCode: 'a:b' }),
      makeOffer({ ...price, providerSlug: 'a', regionCode: 'a:a', gpuSlug: 'l4-24gb' }),
      makeOffer({ ...price, providerSlug: 'a', regionCode: 'a:a', gpuSlug: 'h100-sxm-80gb', gpuCount: 2, pricePerHour: new Decimal(4) }),
      makeOffer({ ...price, providerSlug: 'a', regionCode: 'a:a', gpuSlug: 'h100-sxm-80gb', instanceType: 'z' }),
      makeOffer({ ...price, providerSlug: 'a', regionCode: 'a:a', gpuSlug: 'h100-sxm-80gb', instanceType: 'y', pricingModel: 'SPOT' }),
      makeOffer({ ...price, providerSlug: 'a', regionCode: 'a:a', gpuSlug: 'h100-sxm-80gb', instanceType: 'y', pricingModel: 'ON_DEMAND' }),
    ];
    const expected = [6, 5, 4, 3, 2, 1, 0].map((i) => at(offers, i).keyHash);
    const ranked = rankOffers({ offers, currency: 'USD', fxRates });
    expect(ranked.map((r) => r.offer.keyHash)).toEqual(expected);
    const reversed = rankOffers({ offers: [...offers].reverse(), currency: 'USD', fxRates });
    expect(reversed.map((r) => r.offer.keyHash)).toEqual(expected);
    expect(compareTieKeys(at(offers, 0), at(offers, 0))).toBe(0);
  });
});

describe(resolveDiscounts.name, () => {
  it('keys discounts by lower-case provider slug', () => {
    expect(
      resolveDiscounts([{ provider: 'AWS', percent: '12.5' }])
        .get('aws')
        ?.eq('12.5'),
    ).toBe(true);
    expect(resolveDiscounts(undefined).size).toBe(0);
  });

  it.each([
    [[{ provider: 'aws', percent: 100 }], 'discounts[0].percent'],
    [[{ provider: 'aws', percent: -1 }], 'discounts[0].percent'],
    [[{ provider: 'aws', percent: 'lots' }], 'discounts[0].percent'],
    [[{ provider: ' ', percent: 5 }], 'discounts[0].provider'],
    [
      [
        { provider: 'aws', percent: 5 },
        { provider: 'AWS', percent: 6 },
      ],
      'discounts[1].provider',
    ],
  ])('rejects %j naming %s', (input, field) => {
    expect(() => resolveDiscounts(input)).toThrow(expect.objectContaining({ field }));
  });

  it('leaves a price alone without a discount', () => {
    expect(applyDiscount(new Decimal(3), undefined).eq(3)).toBe(true);
    expect(applyDiscount(new Decimal(3), new Decimal(0)).eq(3)).toBe(true);
  });
});
