// Public surface of the energy core (docs/carbon.md): the version's energy figures indexed, the
// utilization-to-power model, an offer's energy and carbon per GPU-hour, and a plan's per month.
export { indexEnergy, type AppliedFigure, type EnergyIndex } from './energy-index.js';
export { powerShare } from './power-model.js';
export { offerEnergy, type OfferEnergy, type OfferEnergyOutcome } from './offer-energy.js';
export { estimateCarbon, type EstimateCarbon, type TierCarbon } from './estimate-carbon.js';
export { carbonOfPlan } from './plan-carbon.js';
