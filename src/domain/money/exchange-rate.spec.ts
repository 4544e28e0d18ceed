import type { FxRates } from '../catalog/catalog.types.js';
import { exchangeRateUsed, staleExchangeRateWarning } from './exchange-rate.js';

const fx: FxRates = { base: 'USD', rates: { EUR: '0.854774' }, date: '2026-08-21', source: 'ECB, 2026-08-21' };

describe(exchangeRateUsed.name, () => {
  it('names the rate of every answer in another currency than the base, with its age on the reference date', () => {
    // 2026-08-21 to 2026-12-02: 10 days of August, 30 + 31 + 30 of September to November, 2 of December = 103.
    expect(exchangeRateUsed({ fxRates: fx, currency: 'EUR', priceCurrencies: ['EUR'], referenceDate: '2026-12-02' })).toEqual({
      base: 'USD',
      currency: 'EUR',
      rate: '0.854774',
      date: '2026-08-21',
      source: 'ECB, 2026-08-21',
      ageDays: 103,
    });
  });

  it('names it for a base-currency answer only when one of its prices was listed in another currency', () => {
    expect(exchangeRateUsed({ fxRates: fx, currency: 'USD', priceCurrencies: ['USD', 'USD'], referenceDate: '2026-12-02' })).toBeNull();
    expect(exchangeRateUsed({ fxRates: fx, currency: 'USD', priceCurrencies: ['USD', 'EUR'], referenceDate: '2026-12-02' })?.currency).toBe('EUR');
  });
});

describe(staleExchangeRateWarning.name, () => {
  it('warns only past the limit', () => {
    const used = exchangeRateUsed({ fxRates: fx, currency: 'EUR', priceCurrencies: [], referenceDate: '2026-09-04' });
    expect(used?.ageDays).toBe(14);
    expect(staleExchangeRateWarning(used, 14)).toBeNull();
    expect(staleExchangeRateWarning(used, 13)).toBe(
      "prices converted at 1 USD = 0.854774 EUR, the rate of 2026-08-21: 14 days old (older than 13 days); amounts in the other currency may be off by the rate's move since",
    );
    expect(staleExchangeRateWarning(null, 0)).toBeNull();
  });
});
