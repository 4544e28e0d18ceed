import { discountInput, ESTIMATE_DEFAULTS, measuredInput, ownedInput } from './forms';

describe('forms: the tables inside the forms as GraphQL input', () => {
  it('turns discount rows into DiscountInput, in the order shown', () => {
    expect(discountInput(['aws:15', ' gcp : 7.5 '])).toEqual({
      value: [
        { provider: 'aws', percent: 15 },
        { provider: 'gcp', percent: 7.5 },
      ],
      errors: [],
    });
  });

  it('names the part of a discount that cannot be sent, by its row, as the API names its own', () => {
    expect(discountInput(['aws:15', ':', 'azure:ten']).errors).toEqual([
      { field: 'discounts[1].provider', message: 'is required' },
      { field: 'discounts[1].percent', message: 'is required' },
      { field: 'discounts[2].percent', message: 'must be a number' },
    ]);
  });

  it('leaves the empty parts of a measured throughput out, and names a rate that is not a number', () => {
    expect(measuredInput(['l4-24gb:FP16:1500:', '::2500:', ':INT8::x'])).toEqual({
      value: [{ gpu: 'l4-24gb', precision: 'FP16', outputTokensPerSecond: 1500 }, { outputTokensPerSecond: 2500 }, { precision: 'INT8' }],
      errors: [{ field: 'measuredThroughput[2].requestsPerSecond', message: 'must be a number' }],
    });
  });

  it('sends rent or buy once an electricity price or a site is given, without the empty fields', () => {
    expect(ownedInput({ ...ESTIMATE_DEFAULTS, serverPrice: '240000', colocation: '150' })).toEqual({ value: undefined, errors: [] });
    expect(ownedInput({ ...ESTIMATE_DEFAULTS, site: ' de ', gpusPerServer: '' })).toEqual({ value: { site: 'DE' }, errors: [] });
    const f = { ...ESTIMATE_DEFAULTS, serverPrice: ' 240000 ', electricity: '0.10', colocation: '' };
    expect(ownedInput(f)).toEqual({ value: { serverPriceUsd: '240000', electricityUsdPerKwh: '0.10', gpusPerServer: 8 }, errors: [] });
    expect(ownedInput({ ...f, colocation: '150', operationsShare: '5' })).toEqual({
      value: { serverPriceUsd: '240000', electricityUsdPerKwh: '0.10', colocationUsdPerKwMonth: '150', gpusPerServer: 8, operationsSharePercent: 5 },
      errors: [],
    });
    expect(ownedInput({ ...f, colocation: '150', gpusPerServer: '', costOfCapital: 'six' })).toEqual({
      value: { serverPriceUsd: '240000', electricityUsdPerKwh: '0.10', colocationUsdPerKwMonth: '150' },
      errors: [{ field: 'owned.costOfCapitalPercent', message: 'must be a number' }],
    });
  });
});
