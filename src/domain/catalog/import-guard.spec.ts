import { makeOffer, TEST_FX_RATES } from '../compliance/testing/factories.js';
import { Decimal } from '../money/money.js';
import type { CatalogDiff } from './catalog-diff.js';
import type { FxRates, Offer } from './catalog.types.js';
import { checkGuard, DEFAULT_GUARD } from './import-guard.js';

const offers = (n: number) => Array.from({ length: n }, (_, i) => makeOffer({ instanceType: `i${i}` }));
const change = (before: Offer, after: Offer, otherChanges: string[] = []): CatalogDiff['changed'][number] => ({
  offer: after,
  before,
  oldPricePerHour: before.pricePerHour,
  newPricePerHour: after.pricePerHour,
  changePct: null,
  oldCurrency: before.currency,
  otherChanges,
});
const diff = ({ removed = 0, repriced = 0, relabelled = 0, changed = [] as CatalogDiff['changed'], added = [] as Offer[] }): CatalogDiff => ({
  added,
  removed: offers(removed),
  changed: [
    // 4.00 -> 5.00: +25%, inside the ±50% a price may move.
    ...offers(repriced).map((o) => change(o, { ...o, pricePerHour: new Decimal(5) })),
    // A changed source with the same price is not a price change.
    ...offers(relabelled).map((o) => change(o, { ...o, sourceUrl: 'https://other.test' }, ['sourceUrl'])),
    ...changed,
  ],
  reference: [],
  unchangedOffers: 0,
});
const fx = TEST_FX_RATES;

describe(checkGuard.name, () => {
  it('passes at the limits and refuses above them, with the counts', () => {
    // 10 of 100 removed is exactly 10%: allowed; 11 is 11%: refused. 30 of 100 re-priced: allowed; 31: refused.
    expect(checkGuard({ diff: diff({ removed: 10, repriced: 30, relabelled: 50 }), inScopeBefore: 100, limits: DEFAULT_GUARD }).violations).toEqual([]);
    const over = checkGuard({ diff: diff({ removed: 11, repriced: 31 }), inScopeBefore: 100, limits: DEFAULT_GUARD });
    expect(over).toMatchObject({ removed: 11, priceChanged: 31, inScopeBefore: 100 });
    expect(over.violations).toEqual([
      'would remove 11 of 100 offers in scope (11.0%, limit 10%)',
      'would change the price of 31 of 100 offers in scope (31.0%, limit 30%)',
    ]);
  });

  it('lets a large change through when it is allowed, and never guards a scope that was empty', () => {
    expect(checkGuard({ diff: diff({ removed: 40 }), inScopeBefore: 100, limits: { ...DEFAULT_GUARD, allowLargeChange: true } }).violations).toEqual([]);
    expect(checkGuard({ diff: diff({}), inScopeBefore: 0, limits: DEFAULT_GUARD }).violations).toEqual([]);
    expect(checkGuard({ diff: diff({ removed: 40 }), inScopeBefore: 100, limits: { ...DEFAULT_GUARD, maxRemovedPercent: 50 } }).violations).toEqual([]);
  });

  it('refuses one offer whose price moves more than the limit, however few offers change, and names both prices', () => {
    const h100 = makeOffer({ providerSlug: 'azure', regionCode: 'azure:eastus', instanceType: 'NC40ads', pricePerHour: new Decimal('6.98') });
    // (0.01 − 6.98) / 6.98 = −99.857…%: one changed offer of 500, far under the count limits.
    const outcome = checkGuard({
      diff: diff({ changed: [change(h100, { ...h100, pricePerHour: new Decimal('0.01') })] }),
      inScopeBefore: 500,
      limits: DEFAULT_GUARD,
      fxBefore: fx,
      fxAfter: fx,
    });
    expect(outcome.priceMoves).toHaveLength(1);
    expect(outcome.violations).toEqual([
      'would move the price of azure|azure:eastus|h100-sxm-80gb|1|NC40ads|ON_DEMAND from 6.98 to 0.01 USD per instance-hour (-99.86%, limit ±50%)',
    ]);
    // Exactly −50% (4.00 → 2.00) and exactly +50% (4.00 → 6.00) pass; +50.01% does not.
    const base = makeOffer();
    const moved = (price: string) =>
      checkGuard({
        diff: diff({ changed: [change(base, { ...base, pricePerHour: new Decimal(price) })] }),
        inScopeBefore: 500,
        limits: DEFAULT_GUARD,
        fxBefore: fx,
        fxAfter: fx,
      });
    expect([moved('2.00').violations, moved('6.00').violations]).toEqual([[], []]);
    expect(moved('6.0004').violations).toHaveLength(1);
    expect(
      checkGuard({
        ...{ diff: diff({ changed: [change(base, { ...base, pricePerHour: new Decimal('0.01') })] }) },
        inScopeBefore: 500,
        limits: { ...DEFAULT_GUARD, allowLargeChange: true },
        fxBefore: fx,
        fxAfter: fx,
      }).violations,
    ).toEqual([]);
  });

  it('compares prices across a currency change and a reserved upfront in the base currency', () => {
    // 4.00 USD -> 3.40 EUR at 0.85 EUR per USD is 4.00 USD: no move at all.
    const usd = makeOffer({ pricePerHour: new Decimal('4.00') });
    const eur = { ...usd, pricePerHour: new Decimal('3.40'), currency: 'EUR' as const };
    const rates: FxRates = { ...fx, rates: { EUR: '0.85' } };
    expect(
      checkGuard({ diff: diff({ changed: [change(usd, eur)] }), inScopeBefore: 10, limits: DEFAULT_GUARD, fxBefore: rates, fxAfter: rates }).priceMoves,
    ).toEqual([]);
    // A reservation paid upfront: 0 per hour + 8,760 over 12 × 730 h = 1.00 per hour; 0 + 17,520 = 2.00: +100%.
    const reserved = makeOffer({ pricingModel: 'RESERVED_1Y', termMonths: 12, pricePerHour: new Decimal(0), upfront: new Decimal(8760) });
    const doubled = { ...reserved, upfront: new Decimal(17520) };
    const outcome = checkGuard({ diff: diff({ changed: [change(reserved, doubled)] }), inScopeBefore: 10, limits: DEFAULT_GUARD, fxBefore: fx, fxAfter: fx });
    expect(outcome.priceMoves.map((m) => [m.before.toString(), m.after.toString(), m.movePercent.toString()])).toEqual([['1', '2', '100']]);
  });

  it('refuses a new or changed offer priced at 0, but not a reservation paid upfront', () => {
    const free = makeOffer({ instanceType: 'free', pricePerHour: new Decimal(0) });
    const upfrontOnly = makeOffer({
      instanceType: 'upfront',
      pricingModel: 'RESERVED_3Y',
      termMonths: 36,
      pricePerHour: new Decimal(0),
      upfront: new Decimal(1000),
    });
    const outcome = checkGuard({ diff: diff({ added: [free, upfrontOnly] }), inScopeBefore: 0, limits: DEFAULT_GUARD });
    expect(outcome.nonPositive).toEqual([free]);
    expect(outcome.violations).toEqual([
      'would price aws|aws:eu-central-1|h100-sxm-80gb|1|free|ON_DEMAND at 0 USD per instance-hour (a price must be above 0)',
    ]);
  });

  it('refuses an FX rate that moves more than 20%: an ECB rate of 0.0000001 USD per EUR is 10,000,000 EUR per USD', () => {
    const before: FxRates = { ...fx, rates: { EUR: '0.854774' } };
    const broken: FxRates = { ...fx, rates: { EUR: '10000000' } };
    const outcome = checkGuard({ diff: diff({}), inScopeBefore: 10, limits: DEFAULT_GUARD, fxBefore: before, fxAfter: broken });
    expect(outcome.fxMoves).toHaveLength(1);
    expect(outcome.violations).toEqual([
      // (10,000,000 − 0.854774) / 0.854774 × 100 = 1,169,899,779.968…%
      'would move the FX rate of EUR from 0.854774 to 10000000 per USD (+1169899779.97%, limit ±20%)',
    ]);
    // 20% exactly passes: 0.854774 × 1.2 = 1.0257288.
    expect(
      checkGuard({ diff: diff({}), inScopeBefore: 10, limits: DEFAULT_GUARD, fxBefore: before, fxAfter: { ...fx, rates: { EUR: '1.0257288' } } }).violations,
    ).toEqual([]);
  });
});
