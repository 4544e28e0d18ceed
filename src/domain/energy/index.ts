// Public surface of the energy core (docs/carbon.md): the version's energy figures indexed, the
// utilization-to-power model, an offer's energy and carbon per GPU-hour, and an estimate's per month.
export { indexEnergy, type AppliedFigure, type EnergyIndex, type FigureBasis } from './energy-index.js';
export { powerShare, kwhPerGpuHour } from './power-model.js';
export { offerEnergy, type OfferEnergy } from './offer-energy.js';
export { estimateCarbon, type CarbonTierInput, type EstimateCarbon, type EstimateCarbonOutcome, type TierCarbon } from './estimate-carbon.js';
export { carbonOfPlan, outputTokensPerMonth, type FinishedPlan } from './plan-carbon.js';
