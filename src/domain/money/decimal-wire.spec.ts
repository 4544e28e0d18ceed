import { estimateInput, diurnalProfile } from '../cost-model/estimate.factories.js';
import { estimateInferenceCost } from '../cost-model/estimate.js';
import { Decimal } from './money.js';
import { fromWire, toWire } from './decimal-wire.js';

describe('decimal wire format', () => {
  it('keeps decimals exact and non-finite numbers as they are', () => {
    const value = { price: new Decimal('0.1234567890123456789'), list: [new Decimal(-3), Infinity, -Infinity, NaN, 1.5], none: null, text: '3.90' };
    const back = fromWire<typeof value>(toWire(value));
    expect(back.price).toBeInstanceOf(Decimal);
    expect(back.price.toString()).toBe('0.1234567890123456789');
    expect(back.list.map(String)).toEqual(['-3', 'Infinity', '-Infinity', 'NaN', '1.5']);
    expect(back.text).toBe('3.90');
    expect(back.none).toBeNull();
  });

  it('carries a whole estimate input and answer through unchanged', () => {
    const input = estimateInput({ workload: { hourlyProfile: diurnalProfile(40), avgInputTokens: 500, avgOutputTokens: 200 } });
    const answer = estimateInferenceCost(input);
    expect(estimateInferenceCost(fromWire(toWire(input)))).toEqual(answer);
    expect(fromWire(toWire(answer))).toEqual(answer);
  });
});
