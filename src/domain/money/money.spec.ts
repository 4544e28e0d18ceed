import fc from 'fast-check';
import type { FxRates } from '../catalog/catalog.types.js';
import { Decimal, convert, formatAmount, fxRate, MissingFxRateError } from './money.js';

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
