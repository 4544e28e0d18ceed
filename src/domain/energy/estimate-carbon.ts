// Energy and carbon of a finished inference plan (docs/carbon.md). Takes the plan as the cost
// model answered it (tiers, hourly plan, GPU) and the utilization to apply: the plan's own average
// by default, or an override (a measured utilization), so the figures can follow the caller's data.
//   kWh per GPU-hour of a tier = TDP / 1000 × (idle + (1 − idle) × u) × PUE of the tier's region (else its provider's)
//   kWh per month of a tier    = its GPU-hours per month × kWh per GPU-hour
//   kg CO2e per month of a tier = kWh × grid intensity of the tier's region / 1000
// The totals are the sums over the tiers; per 1M output tokens divides by the month's tokens.
import type { AppliedFigure, EnergyIndex } from './energy-index.js';
import { kwhPerGpuHour, powerShare } from './power-model.js';

export interface CarbonTierInput {
  pricingModel: string;
  provider: string;
  /** Region code of the tier's offer. */
  region: string;
  gpuHours: number;
}

export interface TierCarbon {
  pricingModel: string;
  provider: string;
  region: string;
  gpuHours: number;
  kwhPerMonth: number;
  kgCo2ePerMonth: number;
  gridIntensity: AppliedFigure;
  pue: AppliedFigure;
}

export interface EstimateCarbon {
  /** The utilization the power model was applied at (0..1), and whether it is the plan's or given. */
  utilization: number;
  utilizationBasis: 'PLAN' | 'OVERRIDE';
  tdpWatts: AppliedFigure;
  idleShare: AppliedFigure;
  kwhPerMonth: number;
  kgCo2ePerMonth: number;
  kwhPer1MOutputTokens: number | null;
  kgCo2ePer1MOutputTokens: number | null;
  tiers: TierCarbon[];
}

export type EstimateCarbonOutcome = { kind: 'OK'; carbon: EstimateCarbon } | { kind: 'UNKNOWN'; reason: string };

export function estimateCarbon({
  index,
  gpu,
  tiers,
  planUtilization,
  utilizationOverride,
  outputTokensPerMonth,
  countryOf,
}: {
  index: EnergyIndex;
  gpu: string;
  tiers: readonly CarbonTierInput[];
  /** The plan's average utilization (busy / paid replica-hours). */
  planUtilization: number;
  /** A utilization to apply instead (0..1), e.g. measured. */
  utilizationOverride?: number;
  outputTokensPerMonth: number;
  /** The country of a region code (for the country fallback of the grid intensity). */
  countryOf: (region: string) => string | null;
}): EstimateCarbonOutcome {
  const tdpWatts = index.gpuPowerWatts(gpu);
  if (!tdpWatts) return { kind: 'UNKNOWN', reason: `no sourced board power (TDP) for ${gpu}` };
  const idleShare = index.idleShare();
  if (!idleShare) return { kind: 'UNKNOWN', reason: 'no idle power share in this catalog version' };
  const utilization = utilizationOverride ?? planUtilization;
  const share = powerShare(utilization, idleShare.value);
  const out: TierCarbon[] = [];
  for (const t of tiers) {
    const pue = index.pue(t.region, t.provider);
    const gridIntensity = index.gridIntensity(t.region, countryOf(t.region) ?? '');
    if (!pue) return { kind: 'UNKNOWN', reason: `no PUE for ${t.region}, ${t.provider} or default` };
    if (!gridIntensity) return { kind: 'UNKNOWN', reason: `no grid intensity for ${t.region} or its country` };
    const kwhPerMonth = t.gpuHours * kwhPerGpuHour({ tdpWatts: tdpWatts.value, pue: pue.value, share });
    out.push({ ...t, kwhPerMonth, kgCo2ePerMonth: (kwhPerMonth * gridIntensity.value) / 1000, gridIntensity, pue });
  }
  const kwhPerMonth = out.reduce((s, t) => s + t.kwhPerMonth, 0);
  const kgCo2ePerMonth = out.reduce((s, t) => s + t.kgCo2ePerMonth, 0);
  const perMillion = (v: number): number | null => (outputTokensPerMonth > 0 ? (v / outputTokensPerMonth) * 1e6 : null);
  return {
    kind: 'OK',
    carbon: {
      utilization: Math.min(1, Math.max(0, utilization)),
      utilizationBasis: utilizationOverride === undefined ? 'PLAN' : 'OVERRIDE',
      tdpWatts,
      idleShare,
      kwhPerMonth,
      kgCo2ePerMonth,
      kwhPer1MOutputTokens: perMillion(kwhPerMonth),
      kgCo2ePer1MOutputTokens: perMillion(kgCo2ePerMonth),
      tiers: out,
    },
  };
}
