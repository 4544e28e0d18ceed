import fc from 'fast-check';
import type { FxRates } from '../catalog/catalog.types.js';
import { at } from '../checked.js';
import { Decimal, convert, formatAmount, formatCatalogAmount, fxRate, MissingFxRateError } from './money.js';

const rates: FxRates = { base: 'USD', rates: { EUR: '0.8650' }, date: '2026-11-27', source: 'test' };

describe('money', () => {
  it('converts with the version rate in both directions', () => {
    expect(formatAmount(convert(new Decimal('3.90'), 'USD', 'EUR', rates))).toBe('3.3735');
    expect(fxRate(rates, 'EUR', 'USD').toFixed(6)).toBe('1.156069');
  });

  it('formats amounts with four decimals, banker-rounded', () => {
    expect(formatAmount(new Decimal('2847'))).toBe('2847.0000');
    expect(formatAmount(new Decimal('0.00005'))).toBe('0.0000');
    expect(formatAmount(new Decimal('0.00015'))).toBe('0.0002');
  });

  it('formats each amount as its own value, also when it or an equal one was formatted before', () => {
    // Independent reference: the amount as an integer count of 1e-8, rounded half-even to 1e-4 by hand
    // (a negative amount keeps its sign when it rounds to zero, as decimal.js writes it).
    const reference = (units: bigint): string => {
      const sign = units < 0n ? '-' : '';
      const abs = units < 0n ? -units : units;
      let q = abs / 10_000n;
      const r = abs % 10_000n;
      if (r > 5_000n || (r === 5_000n && q % 2n === 1n)) q += 1n;
      const text = q.toString().padStart(5, '0');
      return `${sign}${text.slice(0, -4)}.${text.slice(-4)}`;
    };
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }), { minLength: 1, maxLength: 20 }), (all) => {
        // formatCatalogAmount keeps each Decimal's text; formatAmount rounds every time.
        for (const format of [formatCatalogAmount, formatAmount]) {
          const amounts = all.map((units) => new Decimal(units.toString()).div(100_000_000));
          for (const round of [1, 2]) {
            amounts.forEach((amount, i) => expect([round, format(amount)]).toEqual([round, reference(at(all, i))]));
          }
          all.forEach((units) => expect(format(new Decimal(units.toString()).div(100_000_000))).toBe(reference(units)));
        }
      }),
    );
  });

  it('names the missing rate', () => {
    const noEur: FxRates = { ...rates, rates: {} };
    expect(() => convert(new Decimal(1), 'USD', 'EUR', noEur)).toThrow(MissingFxRateError);
  });

  it('round-trips USD -> EUR -> USD within rounding', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (cents) => {
        const amount = new Decimal(cents).div(100);
        const back = convert(convert(amount, 'USD', 'EUR', rates), 'EUR', 'USD', rates);
        expect(formatAmount(back)).toBe(formatAmount(amount));
      }),
    );
  });
});
