// Energy and carbon of offers and estimates, against figures computed by hand (in the comments),
// and the invariants of the power model as properties.
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import type { EnergyFigure } from '../catalog/catalog.types.js';
import { estimateCarbon, indexEnergy, offerEnergy, powerShare } from './index.js';

const fig = (kind: EnergyFigure['kind'], subject: string, value: string): EnergyFigure => ({
  kind,
  subject,
  value: new Decimal(value),
  year: 2024,
  source: 'https://example.org/',
  note: null,
});
// The bundled figures for the hand-computed case (data/catalog/energy.yaml): Sweden 23 and Germany
// 341 g CO2e/kWh (Electricity Maps 2024), AWS PUE 1.135, H100 SXM 700 W, idle share 0.113.
const FIGURES = [
  fig('GRID_INTENSITY', 'SE', '23'),
  fig('GRID_INTENSITY', 'DE', '341'),
  fig('GRID_INTENSITY', 'gcp:europe-west1', '103.37'),
  fig('GRID_INTENSITY', 'BE', '153'),
  fig('PUE', 'aws', '1.135'),
  fig('PUE', 'default', '1.58'),
  fig('GPU_POWER', 'h100-sxm-80gb', '700'),
  fig('IDLE_POWER_SHARE', 'default', '0.113'),
];
const index = indexEnergy(FIGURES);
const COUNTRY: Record<string, string> = { 'aws:eu-north-1': 'SE', 'aws:eu-central-1': 'DE', 'gcp:europe-west1': 'BE', 'lambda:us-east-1': 'US' };
const countryOf = (r: string): string | null => COUNTRY[r] ?? null;

describe('offerEnergy (one GPU-hour at full load)', () => {
  it('H100 SXM on AWS: 0.7 kW × 1.135 = 0.7945 kWh; × 23 g = 18.2735 g in Stockholm, × 341 g = 270.9245 g in Frankfurt', () => {
    const se = offerEnergy({ index, gpu: 'h100-sxm-80gb', provider: 'aws', regionCode: 'aws:eu-north-1', country: 'SE' });
    const de = offerEnergy({ index, gpu: 'h100-sxm-80gb', provider: 'aws', regionCode: 'aws:eu-central-1', country: 'DE' });
    expect(se?.kwhPerGpuHour).toBeCloseTo(0.7945, 10);
    expect(se?.gCo2ePerGpuHour).toBeCloseTo(18.2735, 8);
    expect(de?.gCo2ePerGpuHour).toBeCloseTo(270.9245, 8);
    expect(se?.gridIntensity.basis).toBe('COUNTRY_FALLBACK');
  });

  it("a region's own figure wins over its country's; a provider without a PUE takes the default", () => {
    const gcp = offerEnergy({ index, gpu: 'h100-sxm-80gb', provider: 'gcp', regionCode: 'gcp:europe-west1', country: 'BE' });
    // 0.7 × 1.58 (default PUE) = 1.106 kWh; × 103.37 (Google's own Belgium figure, not BE's 153) = 114.32722 g
    expect(gcp?.kwhPerGpuHour).toBeCloseTo(1.106, 10);
    expect(gcp?.gCo2ePerGpuHour).toBeCloseTo(114.32722, 8);
    expect(gcp?.gridIntensity.basis).toBe('OWN');
    expect(gcp?.pue.basis).toBe('DEFAULT');
  });

  it('is null, never a guess, for a GPU without a sourced board power or a region without any intensity', () => {
    expect(offerEnergy({ index, gpu: 'a10-24gb', provider: 'aws', regionCode: 'aws:eu-north-1', country: 'SE' })).toBeNull();
    expect(offerEnergy({ index, gpu: 'h100-sxm-80gb', provider: 'aws', regionCode: 'aws:xx-1', country: 'XX' })).toBeNull();
  });
});

describe('estimateCarbon', () => {
  const h100Month = (region: string, planUtilization: number, utilizationOverride?: number) =>
    estimateCarbon({
      index,
      gpu: 'h100-sxm-80gb',
      tiers: [{ pricingModel: 'ON_DEMAND', provider: 'aws', region, gpuHours: 730 }],
      planUtilization,
      utilizationOverride,
      outputTokensPerMonth: 1e9,
      countryOf,
    });

  it('one H100 for a month (730 h) at full load: 730 × 0.7 × 1.135 = 579.985 kWh; 13.339655 kg CO2e in SE, 197.774885 kg in DE', () => {
    const se = h100Month('aws:eu-north-1', 1);
    const de = h100Month('aws:eu-central-1', 1);
    if (se.kind !== 'OK' || de.kind !== 'OK') throw new Error('expected figures');
    expect(se.carbon.kwhPerMonth).toBeCloseTo(579.985, 8);
    expect(se.carbon.kgCo2ePerMonth).toBeCloseTo(13.339655, 8);
    expect(de.carbon.kgCo2ePerMonth).toBeCloseTo(197.774885, 8);
    // per 1M of the 1e9 output tokens: 579.985 / 1000 = 0.579985 kWh, 197.774885 / 1000 kg
    expect(de.carbon.kwhPer1MOutputTokens).toBeCloseTo(0.579985, 10);
    expect(de.carbon.kgCo2ePer1MOutputTokens).toBeCloseTo(0.197774885, 10);
  });

  it('at the plan utilization 0.5: share 0.113 + 0.887 × 0.5 = 0.5565; 511 × 0.5565 × 1.135 = 322.7616525 kWh, × 0.341 = 110.0617235 kg in DE', () => {
    const de = h100Month('aws:eu-central-1', 0.5);
    if (de.kind !== 'OK') throw new Error('expected figures');
    expect(de.carbon.kwhPerMonth).toBeCloseTo(322.7616525, 8);
    expect(de.carbon.kgCo2ePerMonth).toBeCloseTo(110.0617235, 8);
    expect(de.carbon.utilizationBasis).toBe('PLAN');
  });

  it('an override (measured utilization) replaces the plan utilization: 0 → the idle draw, 511 × 0.113 × 1.135 = 65.538305 kWh', () => {
    const idle = h100Month('aws:eu-central-1', 0.5, 0);
    if (idle.kind !== 'OK') throw new Error('expected figures');
    expect(idle.carbon.kwhPerMonth).toBeCloseTo(65.538305, 8);
    expect(idle.carbon.utilizationBasis).toBe('OVERRIDE');
  });

  it('the total is the sum of the tiers, each in its own region', () => {
    const out = estimateCarbon({
      index,
      gpu: 'h100-sxm-80gb',
      tiers: [
        { pricingModel: 'RESERVED_1Y', provider: 'aws', region: 'aws:eu-north-1', gpuHours: 730 },
        { pricingModel: 'ON_DEMAND', provider: 'aws', region: 'aws:eu-central-1', gpuHours: 365 },
      ],
      planUtilization: 1,
      outputTokensPerMonth: 0,
      countryOf,
    });
    if (out.kind !== 'OK') throw new Error('expected figures');
    // 13.339655 (730 h in SE) + 197.774885 / 2 (365 h in DE) = 13.339655 + 98.8874425 = 112.2270975
    expect(out.carbon.kgCo2ePerMonth).toBeCloseTo(112.2270975, 8);
    expect(out.carbon.kgCo2ePer1MOutputTokens).toBeNull();
  });

  it('says why when a figure is missing', () => {
    const out = estimateCarbon({ index, gpu: 'a10-24gb', tiers: [], planUtilization: 1, outputTokensPerMonth: 1, countryOf });
    expect(out).toEqual({ kind: 'UNKNOWN', reason: 'no sourced board power (TDP) for a10-24gb' });
  });
});

describe('the power model (properties)', () => {
  const unit = fc.double({ min: 0, max: 1, noNaN: true });
  it('draws between the idle share and the full board power, growing with utilization', () => {
    fc.assert(
      fc.property(unit, unit, fc.double({ min: 0, max: 0.99, noNaN: true }), (a, b, idle) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(powerShare(lo, idle)).toBeGreaterThanOrEqual(idle - 1e-12);
        expect(powerShare(hi, idle)).toBeLessThanOrEqual(1 + 1e-12);
        expect(powerShare(hi, idle)).toBeGreaterThanOrEqual(powerShare(lo, idle) - 1e-12);
      }),
    );
  });

  it("an estimate's carbon is linear in GPU-hours and never negative", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), unit, (hours, u) => {
        const run = (gpuHours: number) =>
          estimateCarbon({
            index,
            gpu: 'h100-sxm-80gb',
            tiers: [{ pricingModel: 'ON_DEMAND', provider: 'aws', region: 'aws:eu-central-1', gpuHours }],
            planUtilization: u,
            outputTokensPerMonth: 1,
            countryOf,
          });
        const one = run(hours);
        const two = run(2 * hours);
        if (one.kind !== 'OK' || two.kind !== 'OK') throw new Error('expected figures');
        expect(one.carbon.kgCo2ePerMonth).toBeGreaterThanOrEqual(0);
        expect(two.carbon.kgCo2ePerMonth).toBeCloseTo(2 * one.carbon.kgCo2ePerMonth, 6);
      }),
    );
  });
});
