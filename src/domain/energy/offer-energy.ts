// Energy and carbon of one GPU-hour of an offer at full load (docs/carbon.md):
//   kWh per GPU-hour   = TDP (W) / 1000 × PUE
//   g CO2e per GPU-hour = kWh per GPU-hour × grid intensity (g CO2e per kWh)
// Where a figure is missing the answer is a reason, never a guess.
import type { AppliedFigure, EnergyIndex } from './energy-index.js';
import { kwhPerGpuHour } from './power-model.js';

export interface OfferEnergy {
  /** kWh per GPU-hour at full load, PUE included. */
  kwhPerGpuHour: number;
  /** g CO2e per GPU-hour at full load (location-based). */
  gCo2ePerGpuHour: number;
  gridIntensity: AppliedFigure;
  pue: AppliedFigure;
  tdpWatts: AppliedFigure;
}

export type OfferEnergyOutcome = { kind: 'OK'; energy: OfferEnergy } | { kind: 'UNKNOWN'; reason: string };

export function offerEnergy({
  index,
  gpu,
  provider,
  regionCode,
  country,
}: {
  index: EnergyIndex;
  gpu: string;
  provider: string;
  regionCode: string;
  country: string;
}): OfferEnergyOutcome {
  const tdpWatts = index.gpuPowerWatts(gpu);
  const pue = index.pue(regionCode, provider);
  const gridIntensity = index.gridIntensity(regionCode, country);
  if (!tdpWatts || !pue || !gridIntensity) {
    const missing = [
      tdpWatts ? null : `no sourced board power (TDP) for ${gpu}`,
      pue ? null : `no PUE for ${regionCode}, ${provider} or default`,
      gridIntensity ? null : `no grid intensity for ${regionCode} or its country ${country}`,
    ];
    return { kind: 'UNKNOWN', reason: missing.filter((m) => m !== null).join('; ') };
  }
  const kwh = kwhPerGpuHour({ tdpWatts: tdpWatts.value, pue: pue.value, share: 1 });
  return { kind: 'OK', energy: { kwhPerGpuHour: kwh, gCo2ePerGpuHour: kwh * gridIntensity.value, gridIntensity, pue, tdpWatts } };
}
