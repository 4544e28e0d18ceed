// Energy and carbon of one GPU-hour of an offer at full load (docs/carbon.md):
//   kWh per GPU-hour   = TDP (W) / 1000 × PUE
//   g CO2e per GPU-hour = kWh per GPU-hour × grid intensity (g CO2e per kWh)
// Null where the GPU has no sourced board power, or no PUE or intensity row applies: never a guess.
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
}): OfferEnergy | null {
  const tdpWatts = index.gpuPowerWatts(gpu);
  const pue = index.pue(provider);
  const gridIntensity = index.gridIntensity(regionCode, country);
  if (!tdpWatts || !pue || !gridIntensity) return null;
  const kwh = kwhPerGpuHour({ tdpWatts: tdpWatts.value, pue: pue.value, share: 1 });
  return { kwhPerGpuHour: kwh, gCo2ePerGpuHour: kwh * gridIntensity.value, gridIntensity, pue, tdpWatts };
}
