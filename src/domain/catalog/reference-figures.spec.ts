import { makeCatalog, makeOffer, makeProvider, makeReferenceFigure } from '../compliance/testing/factories.js';
import { Decimal } from '../money/money.js';
import { compareReferenceFigure, relativeDeviation } from './reference-figures.js';

// Expected numbers are worked out by hand in the comments, not taken from the code.
const p5 = makeOffer({ gpuCount: 8, instanceType: 'p5.48xlarge', regionCode: 'aws:us-east-1', pricePerHour: new Decimal('55.04') }); // 6.88 per GPU-hour

describe(compareReferenceFigure.name, () => {
  it('compares a price figure with the cheapest matching LIST price: (6.88 − 3.90) / 3.90 = +76.41%', () => {
    const catalog = makeCatalog({
      offers: [
        p5,
        // Ignored: an ESTIMATE, another provider, another pricing model, another GPU.
        makeOffer({ instanceType: 'est', priceKind: 'ESTIMATE', derivation: 'rule', pricePerHour: new Decimal('2.00') }),
        makeOffer({ providerSlug: 'lambda', regionCode: 'lambda:us', pricePerHour: new Decimal('2.99') }),
        makeOffer({ instanceType: 'p5-spot', pricingModel: 'SPOT', pricePerHour: new Decimal('1.00') }),
        makeOffer({ instanceType: 'a100', gpuSlug: 'a100-sxm-80gb', pricePerHour: new Decimal('1.00') }),
      ],
    });
    const c = compareReferenceFigure(makeReferenceFigure(), catalog);
    expect(c.status).toBe('COMPARED');
    expect(c.matches).toBe(1);
    expect(c.cheapest?.offer.instanceType).toBe('p5.48xlarge');
    expect(c.cheapest?.value.toString()).toBe('6.88');
    expect(c.deviation?.toDecimalPlaces(2).toString()).toBe('76.41');
    expect(c.summary).toBe('AWS H100 on-demand: figure 3.90 USD/GPU-h; cheapest list p5.48xlarge aws:us-east-1 6.8800 USD/GPU-h (+76%) of 1 list price(s)');
  });

  it('converts list prices into the figure currency at the version rates', () => {
    // 2.80 EUR per GPU-hour at 0.8650 EUR per USD = 3.2370 USD; against a 3.90 USD figure: (3.2370 − 3.90) / 3.90 = −17.00%.
    const ovh = makeOffer({ providerSlug: 'ovh', regionCode: 'ovh:gra', currency: 'EUR', pricePerHour: new Decimal('2.80') });
    const c = compareReferenceFigure(makeReferenceFigure({ provider: 'ovh' }), makeCatalog({ offers: [ovh] }));
    expect(c.cheapest?.value.toDecimalPlaces(4).toString()).toBe('3.237');
    expect(c.deviation?.toDecimalPlaces(2).toString()).toBe('-17');
  });

  it('says when nothing in the version can be compared', () => {
    expect(compareReferenceFigure(makeReferenceFigure({ provider: 'vastai' }), makeCatalog({ offers: [p5] }))).toEqual(
      expect.objectContaining({ status: 'NO_LIST_PRICE', matches: 0, deviation: null }),
    );
    expect(compareReferenceFigure(makeReferenceFigure({ metric: 'NONE', currency: null, provider: null }), makeCatalog({ offers: [p5] })).status).toBe(
      'NOT_COMPARABLE',
    );
  });

  it('compares a discount range with the median discount of LIST pairs of the same instance', () => {
    // Pairs: 10.00 → 3.00 is 70% off; 4.00 → 2.00 is 50% off; median 60. A lone spot offer has no pair.
    const offers = [
      makeOffer({ instanceType: 'a', pricePerHour: new Decimal('10.00') }),
      makeOffer({ instanceType: 'a', pricingModel: 'SPOT', pricePerHour: new Decimal('3.00') }),
      makeOffer({ instanceType: 'b', pricePerHour: new Decimal('4.00') }),
      makeOffer({ instanceType: 'b', pricingModel: 'SPOT', pricePerHour: new Decimal('2.00') }),
      makeOffer({ instanceType: 'c', pricingModel: 'SPOT', pricePerHour: new Decimal('0.10') }),
    ];
    const figure = (low: string, high: string) =>
      makeReferenceFigure({
        metric: 'DISCOUNT_PERCENT',
        currency: null,
        provider: null,
        gpus: [],
        pricingModel: 'SPOT',
        value: new Decimal(low),
        valueHigh: new Decimal(high),
      });
    const inside = compareReferenceFigure(figure('60', '70'), makeCatalog({ offers }));
    expect([inside.matches, inside.listLow?.toString(), inside.listMedian?.toString(), inside.listHigh?.toString(), inside.deviation?.toString()]).toEqual([
      2,
      '50',
      '60',
      '70',
      '0',
    ]);
    // Figure 65–80: the median 60 is 5 points below the low end.
    expect(compareReferenceFigure(figure('65', '80'), makeCatalog({ offers })).deviation?.toString()).toBe('-5');
    // Figure 40–55: 5 points above the high end.
    expect(compareReferenceFigure(figure('40', '55'), makeCatalog({ offers })).deviation?.toString()).toBe('5');
  });

  it('pairs an all-upfront reservation with the on-demand price of the same machine, its upfront spread over the term', () => {
    // 43,800 USD upfront for 12 months of 730 h = 8,760 h is 5.00 USD/h; against 10.00 on-demand that is 50% off.
    const offers = [
      makeOffer({ instanceType: 'x', pricePerHour: new Decimal('10.00') }),
      makeOffer({
        instanceType: 'x (All Upfront)',
        pricingModel: 'RESERVED_1Y',
        termMonths: 12,
        pricePerHour: new Decimal('0'),
        upfront: new Decimal('43800'),
      }),
    ];
    const figure = makeReferenceFigure({
      metric: 'DISCOUNT_PERCENT',
      currency: null,
      provider: null,
      gpus: [],
      pricingModel: 'RESERVED_1Y',
      value: new Decimal('40'),
      valueHigh: new Decimal('72'),
    });
    const c = compareReferenceFigure(figure, makeCatalog({ offers }));
    expect([c.matches, c.listMedian?.toString(), c.deviation?.toString()]).toEqual([1, '50', '0']);
  });

  it('compares an egress figure with the provider egress price', () => {
    // 0.1118 against 0.12: (0.1118 − 0.12) / 0.12 = −6.83%.
    const catalog = makeCatalog({
      providers: [makeProvider({ slug: 'gcp', egressUsdPerGb: new Decimal('0.1118') }), makeProvider({ slug: 'x', egressUsdPerGb: null })],
    });
    const egress = (provider: string) => makeReferenceFigure({ metric: 'EGRESS_PER_GB', provider, value: new Decimal('0.12'), gpus: [], pricingModel: null });
    expect(compareReferenceFigure(egress('gcp'), catalog).deviation?.toDecimalPlaces(2).toString()).toBe('-6.83');
    expect(compareReferenceFigure(egress('x'), catalog).status).toBe('NO_LIST_PRICE');
  });
});

describe(relativeDeviation.name, () => {
  const range = { value: new Decimal('2.10'), valueHigh: new Decimal('2.99') };
  it('is zero inside a range and measured from the nearer end outside it', () => {
    expect(relativeDeviation(new Decimal('2.50'), range).toString()).toBe('0');
    // (2.00 − 2.10) / 2.10 = −4.76%; (3.99 − 2.99) / 2.99 = +33.44%.
    expect(relativeDeviation(new Decimal('2.00'), range).toDecimalPlaces(2).toString()).toBe('-4.76');
    expect(relativeDeviation(new Decimal('3.99'), range).toDecimalPlaces(2).toString()).toBe('33.44');
  });
});
