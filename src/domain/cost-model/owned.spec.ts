// Rent or buy (docs/cost-model.md#rent-or-buy): one 8-GPU server worked out by hand, and the
// invariants on random terms.
import fc from 'fast-check';
import { Decimal } from '../money/money.js';
import { ownedCost, type OwnedLoad, type OwnedTerms } from './owned.js';

// One server of 8 H100 SXM (700 W each): 240,000 USD over 4 years, power at 0.10 USD/kWh,
// colocation 150 USD per kW-month, operations 5 % of the price a year; PUE 1.5, idle share 0.1,
// busy half the hours of a 730-hour month; reserved at 2.00 and on demand at 4.00 USD per GPU-hour.
const terms: OwnedTerms = {
  serverPrice: new Decimal(240_000),
  gpusPerServer: 8,
  depreciationYears: 4,
  costOfCapitalPercent: 0,
  electricityPerKwh: new Decimal('0.10'),
  colocationPerKwMonth: new Decimal(150),
  operationsSharePercent: 5,
};
const load: OwnedLoad = {
  baseGpus: 8,
  tdpWatts: 700,
  pue: 1.5,
  idleShare: 0.1,
  utilization: 0.5,
  hoursPerMonth: 730,
  reservedPerGpuMonth: new Decimal(2 * 730),
  onDemandPerGpuHour: new Decimal(4),
};

describe('ownedCost, one server by hand', () => {
  it('prices purchase, depreciation, power, colocation and operations', () => {
    const c = ownedCost(terms, load);
    expect([c.servers, c.gpus]).toEqual([1, 8]);
    // 240,000 / (4 × 12) = 5,000 a month; no cost of capital.
    expect(c.depreciation.toNumber()).toBe(5000);
    expect(c.capital.toNumber()).toBe(0);
    // 8 × 700 W = 5.6 kW of board power; colocation 5.6 × 150 = 840.
    expect(c.itKw).toBeCloseTo(5.6, 9);
    expect(c.colocation.toNumber()).toBeCloseTo(840, 9);
    // 5.6 kW × PUE 1.5 × (0.1 + 0.9 × 0.5 = 0.55) × 730 h = 3,372.6 kWh; × 0.10 = 337.26.
    expect(c.kwhPerMonth).toBeCloseTo(3372.6, 6);
    expect(c.power.toNumber()).toBeCloseTo(337.26, 6);
    // 240,000 × 5 % / 12 = 1,000.
    expect(c.operations.toNumber()).toBe(1000);
    // 5,000 + 0 + 337.26 + 840 + 1,000.
    expect(c.monthlyCost.toNumber()).toBeCloseTo(7177.26, 6);
  });

  it('compares with renting: reserved cost, crossover utilization and payback', () => {
    const c = ownedCost(terms, load);
    // Reserved: 8 GPUs × 2.00 × 730 = 11,680; on demand every hour: 8 × 4.00 × 730 = 23,360.
    expect(c.reservedMonthlyCost?.toNumber()).toBe(11_680);
    expect(c.onDemandMonthlyCost?.toNumber()).toBe(23_360);
    // owned(u) = A + B·u: A = 6,840 fixed + 5.6 × 1.5 × 0.1 × 730 × 0.10 = 6,901.32 (idle power),
    // B = 5.6 × 1.5 × 0.9 × 730 × 0.10 = 551.88; u* = 6,901.32 / (23,360 − 551.88) = 0.302582.
    expect(c.crossoverUtilization).toBeCloseTo(0.302582, 5);
    // Payback against the reservation: 240,000 / (11,680 − 337.26 − 840 − 1,000 = 9,502.74) = 25.2559 months.
    expect(c.paybackAgainst).toBe('RESERVED');
    expect(c.paybackMonths).toBeCloseTo(25.2559, 3);
  });

  it('charges capital as an annuity at the cost of capital', () => {
    const c = ownedCost({ ...terms, costOfCapitalPercent: 6 }, load);
    // i = 0.005 a month, n = 48: 240,000 × 0.005 / (1 − 1.005^−48) = 240,000 × 0.0234850 = 5,636.40
    // (2,348.50 per 100,000, the textbook 6 %, 48-month payment); interest 636.40 over depreciation.
    expect(c.depreciation.toNumber()).toBe(5000);
    expect(c.capital.toNumber()).toBeCloseTo(636.4, 1);
    // Discounted payback: −ln(1 − 240,000 × 0.005 / 9,502.74) / ln(1.005) = 0.134994 / 0.0049875 = 27.07.
    expect(c.paybackMonths).toBeCloseTo(27.07, 1);
  });

  it('buys whole servers and says when owning never wins', () => {
    expect(ownedCost(terms, { ...load, baseGpus: 9 }).servers).toBe(2);
    const dear = ownedCost({ ...terms, serverPrice: new Decimal(2_000_000) }, load);
    // 2,000,000 / 48 = 41,667 a month, above on demand every hour (23,360): no crossover at or below 1.
    expect(dear.crossoverUtilization).toBeNull();
    const noRent = ownedCost(terms, { ...load, reservedPerGpuMonth: null, onDemandPerGpuHour: null });
    expect([noRent.paybackAgainst, noRent.paybackMonths, noRent.crossoverUtilization]).toEqual([null, null, null]);
  });
});

describe('ownedCost, invariants', () => {
  const money = (max: number) => fc.integer({ min: 0, max: max * 100 }).map((c) => new Decimal(c).div(100));
  const termsArb = fc.record({
    serverPrice: money(1_000_000),
    gpusPerServer: fc.integer({ min: 1, max: 16 }),
    depreciationYears: fc.integer({ min: 1, max: 15 }),
    costOfCapitalPercent: fc.integer({ min: 0, max: 30 }),
    electricityPerKwh: money(2),
    colocationPerKwMonth: money(1000),
    operationsSharePercent: fc.integer({ min: 0, max: 30 }),
  });
  const loadArb = fc.record({
    baseGpus: fc.integer({ min: 1, max: 64 }),
    tdpWatts: fc.integer({ min: 50, max: 1000 }),
    pue: fc.double({ min: 1, max: 2, noNaN: true }),
    idleShare: fc.double({ min: 0, max: 0.5, noNaN: true }),
    utilization: fc.double({ min: 0, max: 1, noNaN: true }),
    hoursPerMonth: fc.constant(730),
    reservedPerGpuMonth: money(5000),
    onDemandPerGpuHour: money(20),
  });
  const bump = money(1000).map((d) => d.add('0.01'));

  it('never costs less when the server, electricity or colocation costs more', () => {
    fc.assert(
      fc.property(termsArb, loadArb, bump, (t, l, more) => {
        const base = ownedCost(t, l).monthlyCost;
        for (const dearer of [
          { ...t, serverPrice: t.serverPrice.add(more) },
          { ...t, electricityPerKwh: t.electricityPerKwh.add(more) },
          { ...t, colocationPerKwMonth: t.colocationPerKwMonth.add(more) },
        ]) {
          expect(ownedCost(dearer, l).monthlyCost.gte(base)).toBe(true);
        }
      }),
    );
  });

  it('a cheaper server never raises the crossover utilization', () => {
    fc.assert(
      fc.property(termsArb, loadArb, bump, (t, l, more) => {
        const cheap = ownedCost(t, l).crossoverUtilization;
        const dear = ownedCost({ ...t, serverPrice: t.serverPrice.add(more) }, l).crossoverUtilization;
        // null: owning never wins at or below full use.
        if (dear !== null) expect(cheap).not.toBeNull();
        if (dear !== null && cheap !== null) expect(cheap).toBeLessThanOrEqual(dear + 1e-12);
      }),
    );
  });

  it('pays back within the depreciation period exactly when owning costs less than the reservation', () => {
    fc.assert(
      fc.property(termsArb, loadArb, (t, l) => {
        const c = ownedCost(t, l);
        const reserved = c.reservedMonthlyCost;
        if (reserved === null) throw new Error('a reserved price was given');
        const n = 12 * t.depreciationYears;
        // Both sides are the same annuity equation; skip the knife edge where float and Decimal disagree.
        fc.pre(c.monthlyCost.sub(reserved).abs().gt('0.01'));
        expect(c.paybackMonths !== null && c.paybackMonths <= n).toBe(c.monthlyCost.lt(reserved));
      }),
    );
  });
});
