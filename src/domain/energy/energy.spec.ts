// Energy and carbon of offers and estimates, against figures computed by hand (in the comments),
// the figures' basis, method, source and year, and the invariants of the power model as properties.
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import type { EnergyFigure } from '../catalog/catalog.types.js';
import { estimateCarbon, indexEnergy, offerEnergy, powerShare, type OfferEnergy, type OfferEnergyOutcome } from './index.js';

const fig = (kind: EnergyFigure['kind'], subject: string, value: string, gridSource?: EnergyFigure['gridSource']): EnergyFigure => ({
  kind,
  subject,
  value: new Decimal(value),
  year: 2025,
  source: `https://example.org/${subject}`,
  note: null,
  ...(gridSource ? { gridSource } : {}),
});
// The bundled figures for the hand-computed cases (data/catalog/energy.yaml): Sweden 21 and Germany
// 342 g CO2e/kWh (Electricity Maps 2025 national averages), SE-SE3 20 for AWS Stockholm, AWS PUE
// 1.14, Scaleway fr-par-2's own PUE 1.16, the default PUE 1.58, H100 SXM 700 W, idle share 0.113.
const FIGURES = [
  fig('GRID_INTENSITY', 'SE', '21', 'ELECTRICITY_MAPS'),
  fig('GRID_INTENSITY', 'aws:eu-north-1', '20', 'ELECTRICITY_MAPS'),
  fig('GRID_INTENSITY', 'DE', '342', 'ELECTRICITY_MAPS'),
  fig('GRID_INTENSITY', 'gcp:europe-west1', '126.43', 'PROVIDER'),
  fig('GRID_INTENSITY', 'BE', '180', 'ELECTRICITY_MAPS'),
  fig('GRID_INTENSITY', 'FR', '31', 'ELECTRICITY_MAPS'),
  fig('PUE', 'aws', '1.14'),
  fig('PUE', 'scaleway:fr-par-2', '1.16'),
  fig('PUE', 'default', '1.58'),
  fig('GPU_POWER', 'h100-sxm-80gb', '700'),
  fig('GPU_POWER', 'l40s-48gb', '350'),
  fig('IDLE_POWER_SHARE', 'default', '0.113'),
];
const index = indexEnergy(FIGURES);
const COUNTRY: Record<string, string> = { 'aws:eu-north-1': 'SE', 'aws:eu-central-1': 'DE', 'gcp:europe-west1': 'BE', 'lambda:us-east-1': 'US' };
const countryOf = (r: string): string | null => COUNTRY[r] ?? null;
const ok = (o: OfferEnergyOutcome): OfferEnergy => {
  if (o.kind !== 'OK') throw new Error(`expected figures, got: ${o.reason}`);
  return o.energy;
};

describe('offerEnergy (one GPU-hour at full load)', () => {
  it('H100 SXM on AWS: 0.7 kW × 1.14 = 0.798 kWh; × 20 g (SE-SE3) = 15.96 g in Stockholm, × 342 g = 272.916 g in Frankfurt', () => {
    const se = ok(offerEnergy({ index, gpu: 'h100-sxm-80gb', provider: 'aws', regionCode: 'aws:eu-north-1', country: 'SE' }));
    const de = ok(offerEnergy({ index, gpu: 'h100-sxm-80gb', provider: 'aws', regionCode: 'aws:eu-central-1', country: 'DE' }));
    expect(se.kwhPerGpuHour).toBeCloseTo(0.798, 10);
    expect(se.gCo2ePerGpuHour).toBeCloseTo(15.96, 8);
    expect(de.gCo2ePerGpuHour).toBeCloseTo(272.916, 8);
    // Stockholm's own zone wins over Sweden's 21; Frankfurt has none and takes Germany's.
    expect([se.gridIntensity.basis, se.gridIntensity.subject, se.gridIntensity.value]).toEqual(['OWN', 'aws:eu-north-1', 20]);
    expect([de.gridIntensity.basis, de.gridIntensity.subject]).toEqual(['COUNTRY_FALLBACK', 'DE']);
    expect([se.pue.basis, se.pue.subject]).toEqual(['PROVIDER_FALLBACK', 'aws']);
  });

  it('names the method, source and year of every figure it applied', () => {
    const gcp = ok(offerEnergy({ index, gpu: 'h100-sxm-80gb', provider: 'gcp', regionCode: 'gcp:europe-west1', country: 'BE' }));
    expect(gcp.gridIntensity).toMatchObject({ gridSource: 'PROVIDER', source: 'https://example.org/gcp:europe-west1', year: 2025 });
    const de = ok(offerEnergy({ index, gpu: 'h100-sxm-80gb', provider: 'aws', regionCode: 'aws:eu-central-1', country: 'DE' }));
    expect(de.gridIntensity).toMatchObject({ gridSource: 'ELECTRICITY_MAPS', source: 'https://example.org/DE' });
    expect([de.pue.gridSource, de.tdpWatts.gridSource]).toEqual([null, null]);
    expect(de.tdpWatts).toMatchObject({ subject: 'h100-sxm-80gb', source: 'https://example.org/h100-sxm-80gb', year: 2025 });
  });

  it("a region's own grid figure wins over its country's; a provider without a PUE takes the default, flagged DEFAULT", () => {
    const gcp = ok(offerEnergy({ index, gpu: 'h100-sxm-80gb', provider: 'gcp', regionCode: 'gcp:europe-west1', country: 'BE' }));
    // 0.7 × 1.58 (default PUE) = 1.106 kWh; × 126.43 (Google's own Belgium figure, not BE's 180) = 139.83158 g
    expect(gcp.kwhPerGpuHour).toBeCloseTo(1.106, 10);
    expect(gcp.gCo2ePerGpuHour).toBeCloseTo(139.83158, 8);
    expect(gcp.gridIntensity.basis).toBe('OWN');
    expect([gcp.pue.basis, gcp.pue.subject, gcp.pue.value]).toEqual(['DEFAULT', 'default', 1.58]);
  });

  it("a region's own PUE wins over its provider's and the default: L40S in Scaleway fr-par-2, 0.35 × 1.16 = 0.406 kWh × 31 g = 12.586 g", () => {
    const scw = ok(offerEnergy({ index, gpu: 'l40s-48gb', provider: 'scaleway', regionCode: 'scaleway:fr-par-2', country: 'FR' }));
    expect(scw.kwhPerGpuHour).toBeCloseTo(0.406, 10);
    expect(scw.gCo2ePerGpuHour).toBeCloseTo(12.586, 8);
    expect([scw.pue.basis, scw.pue.subject]).toEqual(['OWN', 'scaleway:fr-par-2']);
    // fr-par-1 has no row of its own in these figures: Scaleway has no fleet row either, so the default applies.
    expect(ok(offerEnergy({ index, gpu: 'l40s-48gb', provider: 'scaleway', regionCode: 'scaleway:fr-par-1', country: 'FR' })).pue.basis).toBe('DEFAULT');
  });

  it('says why, never a guess, for a GPU without a sourced board power or a region without any intensity', () => {
    expect(offerEnergy({ index, gpu: 'rtx-4000-sff-ada-20gb', provider: 'aws', regionCode: 'aws:eu-north-1', country: 'SE' })).toEqual({
      kind: 'UNKNOWN',
      reason: 'no sourced board power (TDP) for rtx-4000-sff-ada-20gb',
    });
    expect(offerEnergy({ index, gpu: 'rtx-4000-sff-ada-20gb', provider: 'aws', regionCode: 'aws:xx-1', country: 'XX' })).toEqual({
      kind: 'UNKNOWN',
      reason: 'no sourced board power (TDP) for rtx-4000-sff-ada-20gb; no grid intensity for aws:xx-1 or its country XX',
    });
    const noDefault = indexEnergy(FIGURES.filter((f) => f.subject !== 'default' || f.kind !== 'PUE'));
    expect(offerEnergy({ index: noDefault, gpu: 'h100-sxm-80gb', provider: 'gcp', regionCode: 'gcp:europe-west1', country: 'BE' })).toEqual({
      kind: 'UNKNOWN',
      reason: 'no PUE for gcp:europe-west1, gcp or default',
    });
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

  it('one H100 for a month (730 h) at full load: 730 × 0.7 × 1.14 = 582.54 kWh; 11.6508 kg CO2e in Stockholm (20 g), 199.22868 kg in DE (342 g)', () => {
    const se = h100Month('aws:eu-north-1', 1);
    const de = h100Month('aws:eu-central-1', 1);
    if (se.kind !== 'OK' || de.kind !== 'OK') throw new Error('expected figures');
    expect(se.carbon.kwhPerMonth).toBeCloseTo(582.54, 8);
    expect(se.carbon.kgCo2ePerMonth).toBeCloseTo(11.6508, 8);
    expect(de.carbon.kgCo2ePerMonth).toBeCloseTo(199.22868, 8);
    // per 1M of the 1e9 output tokens: 582.54 / 1000 = 0.58254 kWh, 199.22868 / 1000 kg
    expect(de.carbon.kwhPer1MOutputTokens).toBeCloseTo(0.58254, 10);
    expect(de.carbon.kgCo2ePer1MOutputTokens).toBeCloseTo(0.19922868, 10);
    expect(se.carbon.tiers[0]?.gridIntensity).toMatchObject({ subject: 'aws:eu-north-1', gridSource: 'ELECTRICITY_MAPS', basis: 'OWN' });
  });

  it('at the plan utilization 0.5: share 0.113 + 0.887 × 0.5 = 0.5565; 511 × 0.5565 × 1.14 = 324.18351 kWh, × 0.342 = 110.87076042 kg in DE', () => {
    const de = h100Month('aws:eu-central-1', 0.5);
    if (de.kind !== 'OK') throw new Error('expected figures');
    expect(de.carbon.kwhPerMonth).toBeCloseTo(324.18351, 8);
    expect(de.carbon.kgCo2ePerMonth).toBeCloseTo(110.87076042, 8);
    expect(de.carbon.utilizationBasis).toBe('PLAN');
  });

  it('an override (measured utilization) replaces the plan utilization: 0 → the idle draw, 511 × 0.113 × 1.14 = 65.82702 kWh', () => {
    const idle = h100Month('aws:eu-central-1', 0.5, 0);
    if (idle.kind !== 'OK') throw new Error('expected figures');
    expect(idle.carbon.kwhPerMonth).toBeCloseTo(65.82702, 8);
    expect(idle.carbon.utilizationBasis).toBe('OVERRIDE');
  });

  it('the total is the sum of the tiers, each in its own region with its own PUE', () => {
    const out = estimateCarbon({
      index,
      gpu: 'l40s-48gb',
      tiers: [
        { pricingModel: 'RESERVED_1Y', provider: 'aws', region: 'aws:eu-north-1', gpuHours: 730 },
        { pricingModel: 'ON_DEMAND', provider: 'scaleway', region: 'scaleway:fr-par-2', gpuHours: 365 },
      ],
      planUtilization: 1,
      outputTokensPerMonth: 0,
      countryOf: (r) => (r.startsWith('scaleway:') ? 'FR' : countryOf(r)),
    });
    if (out.kind !== 'OK') throw new Error('expected figures');
    // 730 × 0.35 × 1.14 × 20 / 1000 = 5.8254 kg; 365 × 0.35 × 1.16 × 31 / 1000 = 4.59389 kg; total 10.41929 kg
    expect(out.carbon.kgCo2ePerMonth).toBeCloseTo(10.41929, 8);
    expect(out.carbon.tiers.map((t) => t.pue.basis)).toEqual(['PROVIDER_FALLBACK', 'OWN']);
    expect(out.carbon.kgCo2ePer1MOutputTokens).toBeNull();
  });

  it('says why when a figure is missing', () => {
    const out = estimateCarbon({ index, gpu: 'rtx-4000-sff-ada-20gb', tiers: [], planUtilization: 1, outputTokensPerMonth: 1, countryOf });
    expect(out).toEqual({ kind: 'UNKNOWN', reason: 'no sourced board power (TDP) for rtx-4000-sff-ada-20gb' });
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
