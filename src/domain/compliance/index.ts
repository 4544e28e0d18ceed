// Public surface of the compliance core: jurisdictions, policies, requirement, evaluation,
// ranking, and the cheapest-compliant and listing queries over an indexed catalog version.
export * from './jurisdictions.js';
export * from './policy.js';
export * from './policy-presets.js';
export * from './requirement.js';
export * from './evaluate.js';
export * from './ranking.js';
export * from './catalog-index.js';
export {
  findCheapestCompliant,
  cheapestPerGpuModelAndSize,
  cleanestPerGpuModelAndSize,
  DEFAULT_LIMIT,
  type CheapestResult,
  type CleanestOffer,
  type OfferQuote,
  type ExcludedOffer,
} from './cheapest.js';
export { filterOffers, OFFER_SORTS, type OfferPage, type OfferSort } from './filter-offers.js';
export * from './price-quality.js';
export * from './known-identifiers.js';
export { fleetOffer } from './fleet-offer.js';
