import { makeOffer } from '../compliance/testing/factories.js';
import { Decimal } from '../money/money.js';
import type { CatalogDiff } from './catalog-diff.js';
import { checkGuard, DEFAULT_GUARD } from './import-guard.js';

const offers = (n: number) => Array.from({ length: n }, (_, i) => makeOffer({ instanceType: `i${i}` }));
const diff = ({ removed = 0, repriced = 0, relabelled = 0 }): CatalogDiff => ({
  added: [],
  removed: offers(removed),
  changed: [
    ...offers(repriced).map((offer) => ({
      offer,
      oldPricePerHour: new Decimal(4),
      newPricePerHour: new Decimal(5),
      changePct: new Decimal(25),
      oldCurrency: 'USD' as const,
      otherChanges: [],
    })),
    // A changed source with the same price is not a price change.
    ...offers(relabelled).map((offer) => ({
      offer,
      oldPricePerHour: new Decimal(4),
      newPricePerHour: new Decimal(4),
      changePct: new Decimal(0),
      oldCurrency: 'USD' as const,
      otherChanges: ['sourceUrl'],
    })),
  ],
  reference: [],
  unchangedOffers: 0,
});

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
});
