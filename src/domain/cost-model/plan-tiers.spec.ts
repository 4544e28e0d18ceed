import fc from 'fast-check';
import { INTERRUPTION_RATES, type InterruptionRate } from '../catalog/catalog.types.js';
import { offer } from './estimate.factories.js';
import {
  advisorBandInterruptionsPerHour,
  DEFAULT_SPOT_INTERRUPTIONS_PER_HOUR,
  planTierChoices,
  spotInterruptionBasis,
  spotInterruptionsPerHour,
  type PlanTiers,
} from './plan-tiers.js';

// ln(1 / (1 − p)) = p + p²/2 + p³/3 + … written out to 16 digits (the series, not the code's
// Math.log1p): p = 0.05 → 0.05 + 0.00125 + 0.0000416667 + 0.0000015625 + … = 0.0512932943875506.
const LN = { '<5%': 0.0512932943875506, '5-10%': 0.1053605156578263, '10-15%': 0.1625189294977749, '15-20%': 0.2231435513142098 } as const;

describe(advisorBandInterruptionsPerHour.name, () => {
  it('reads a band as its upper bound p over a 730-hour month of running: λ = −ln(1 − p) / 730', () => {
    // −ln(0.95) / 730 = 0.0512932943875506 / 730 = 0.0000702647868323…
    expect(advisorBandInterruptionsPerHour('<5%')).toBeCloseTo(0.0000702647868323, 15);
    // −ln(0.9) / 730 = 0.1053605156578263 / 730 = 0.000144329473…
    expect(advisorBandInterruptionsPerHour('5-10%')).toBeCloseTo(LN['5-10%'] / 730, 15);
    // −ln(0.85) / 730 = 0.1625189294977749 / 730 = 0.000222628670…
    expect(advisorBandInterruptionsPerHour('10-15%')).toBeCloseTo(LN['10-15%'] / 730, 15);
    // −ln(0.8) / 730 = 0.2231435513142098 / 730 = 0.000305676097690698…
    expect(advisorBandInterruptionsPerHour('15-20%')).toBeCloseTo(0.000305676097690698, 15);
  });

  it('has no rate for >20%, which has no upper bound', () => {
    expect(advisorBandInterruptionsPerHour('>20%')).toBeNull();
  });

  it('turns each rate back into the band’s upper bound: 1 − exp(−λ × 730) = p', () => {
    const bounds: [InterruptionRate, number][] = [
      ['<5%', 0.05],
      ['5-10%', 0.1],
      ['10-15%', 0.15],
      ['15-20%', 0.2],
    ];
    for (const [band, p] of bounds) expect(1 - Math.exp(-(advisorBandInterruptionsPerHour(band) ?? NaN) * 730)).toBeCloseTo(p, 14);
  });
});

describe(spotInterruptionsPerHour.name, () => {
  it('takes the band where it has an upper bound, else the flat default', () => {
    expect(spotInterruptionsPerHour(undefined, '<5%')).toBeCloseTo(LN['<5%'] / 730, 15);
    expect(spotInterruptionBasis(undefined, '<5%')).toBe('ADVISOR_BAND');
    expect([spotInterruptionsPerHour(undefined, '>20%'), spotInterruptionBasis(undefined, '>20%')]).toEqual([0.05, 'DEFAULT']);
    expect([spotInterruptionsPerHour(undefined, undefined), spotInterruptionBasis(undefined, undefined)]).toEqual([0.05, 'DEFAULT']);
    expect([spotInterruptionsPerHour(undefined, null), spotInterruptionBasis(undefined, null)]).toEqual([0.05, 'DEFAULT']);
  });

  it("lets the caller's rate win over the band and the default, 0 included", () => {
    expect([spotInterruptionsPerHour(0.2, '<5%'), spotInterruptionBasis(0.2, '<5%')]).toEqual([0.2, 'REQUEST']);
    expect([spotInterruptionsPerHour(0, '15-20%'), spotInterruptionBasis(0, '15-20%')]).toEqual([0, 'REQUEST']);
    expect([spotInterruptionsPerHour(0.01, '>20%'), spotInterruptionBasis(0.01, '>20%')]).toEqual([0.01, 'REQUEST']);
    expect([spotInterruptionsPerHour(0.01, undefined), spotInterruptionBasis(0.01, undefined)]).toEqual([0.01, 'REQUEST']);
  });

  it("takes a marketplace offer's own rate before its band, and the caller's rate before both", () => {
    expect([spotInterruptionsPerHour(undefined, '<5%', 0.02), spotInterruptionBasis(undefined, '<5%', 0.02)]).toEqual([0.02, 'MARKET']);
    expect([spotInterruptionsPerHour(undefined, undefined, 0), spotInterruptionBasis(undefined, undefined, 0)]).toEqual([0, 'MARKET']);
    expect([spotInterruptionsPerHour(0.2, undefined, 0.02), spotInterruptionBasis(0.2, undefined, 0.02)]).toEqual([0.2, 'REQUEST']);
    expect(spotInterruptionsPerHour(undefined, '<5%', null)).toBeCloseTo(LN['<5%'] / 730, 15);
    expect(spotInterruptionBasis(undefined, '<5%', null)).toBe('ADVISOR_BAND');
  });

  it('is monotone in the band and never above the flat default', () => {
    const band = fc.option(fc.constantFrom(...INTERRUPTION_RATES), { nil: undefined });
    fc.assert(
      fc.property(band, band, (a, b) => {
        // No band is read as the worst case: the default, like >20%.
        const rank = (x: InterruptionRate | undefined): number => (x === undefined ? INTERRUPTION_RATES.length - 1 : INTERRUPTION_RATES.indexOf(x));
        const [ra, rb] = [spotInterruptionsPerHour(undefined, a), spotInterruptionsPerHour(undefined, b)];
        if (rank(a) < rank(b)) expect(ra).toBeLessThan(rb);
        if (rank(a) === rank(b)) expect(ra).toBe(rb);
        expect(ra).toBeLessThanOrEqual(DEFAULT_SPOT_INTERRUPTIONS_PER_HOUR);
        expect(ra).toBeGreaterThan(0);
      }),
    );
  });
});

describe(planTierChoices.name, () => {
  const restart = { modelLoadHours: 0.05, lostWorkHours: 0.1, objective: 'COST', egressPriceOf: () => null } as const;
  /** With one offer per slot there is one combination. */
  const only = (choices: PlanTiers[]): PlanTiers => {
    expect(choices).toHaveLength(1);
    return choices[0] as PlanTiers;
  };

  it("prices a marketplace spot offer with the market's own interruption rate", () => {
    const tiers = only(
      planTierChoices({
        offers: [offer('SPOT', '2', { marketInterruptionsPerHour: 0.02 })],
        tensorParallel: 1,
        tolerance: 'TOLERANT',
        interruptionsPerHour: undefined,
        ...restart,
      }),
    );
    // By hand: 1 + 0.02 × (0.05 + 0.1) h = 1.003; × 2 = 2.006 per instance-hour.
    expect(tiers.spot).toMatchObject({ interruptionBasis: 'MARKET', interruptionsPerHour: 0.02 });
    expect(tiers.spot?.overhead).toBeCloseTo(1.003, 15);
    expect(tiers.spot?.pricePerInstanceHour).toBeCloseTo(2.006, 14);
  });

  it("prices each spot offer with its own band's rate and leaves other tiers at their list price", () => {
    const tiers = only(
      planTierChoices({
        offers: [offer('ON_DEMAND', '4'), offer('SPOT', '2', { interruptionRate: '<5%' })],
        tensorParallel: 1,
        tolerance: 'TOLERANT',
        interruptionsPerHour: undefined,
        ...restart,
      }),
    );
    // 1 + 0.0512932943875506 / 730 × (0.05 + 0.1) h = 1.0000105397…; × 2 = 2.0000210794…
    const overhead = 1 + (LN['<5%'] / 730) * 0.15;
    expect(tiers.spot).toMatchObject({ interruptionBasis: 'ADVISOR_BAND' });
    expect(tiers.spot?.overhead).toBeCloseTo(overhead, 15);
    expect(tiers.spot?.interruptionsPerHour).toBeCloseTo(LN['<5%'] / 730, 15);
    expect(tiers.spot?.pricePerInstanceHour).toBeCloseTo(2 * overhead, 14);
    expect(tiers.onDemand).toMatchObject({ overhead: 1, pricePerInstanceHour: 4, interruptionsPerHour: null, interruptionBasis: null });
  });

  it("uses the caller's rate over the band, and the default for >20%", () => {
    const spot = (band: InterruptionRate, requested: number | undefined) =>
      only(
        planTierChoices({
          offers: [offer('SPOT', '2', { interruptionRate: band })],
          tensorParallel: 1,
          tolerance: 'TOLERANT',
          interruptionsPerHour: requested,
          ...restart,
        }),
      ).spot;
    // 1 + 0.1 × 0.15 = 1.015
    expect(spot('<5%', 0.1)).toMatchObject({ interruptionsPerHour: 0.1, interruptionBasis: 'REQUEST' });
    expect(spot('<5%', 0.1)?.overhead).toBeCloseTo(1.015, 15);
    // 1 + 0.05 × 0.15 = 1.0075
    expect(spot('>20%', undefined)).toMatchObject({ interruptionsPerHour: 0.05, interruptionBasis: 'DEFAULT' });
    expect(spot('>20%', undefined)?.overhead).toBeCloseTo(1.0075, 15);
  });
});
