// Public API of the inference cost model (docs/cost-model.md). The service maps EstimateOutcome to
// HTTP/GraphQL: OK → 200, NO_FIT, NO_USABLE_OFFER and TOO_LARGE → 422, INVALID_INPUT → 400.
export {
  estimateInferenceCost,
  DEFAULT_HOURS_PER_MONTH,
  DEFAULT_MAX_ALTERNATIVES,
  DEFAULT_RECOVERABLE_SPOT_SHARE,
  DEFAULT_SPOT_INTERRUPTIONS_PER_HOUR,
} from './estimate.js';
export type * from './estimate.types.js';
export { gpuSpecFromCatalog } from './gpu-spec.js';
export { DEFAULT_INTER_TOKEN_LATENCY_MS } from './calibration.js';
export { DEFAULT_MIN_REPLICAS, DEFAULT_TARGET_UTILIZATION } from './demand.js';
export { SPOT_INTERRUPTION_BASES } from './plan-tiers.js';
export {
  ownedCost,
  DEFAULT_COST_OF_CAPITAL_PERCENT,
  DEFAULT_DEPRECIATION_YEARS,
  DEFAULT_GPUS_PER_SERVER,
  DEFAULT_OPERATIONS_SHARE_PERCENT,
  type OwnedCost,
} from './owned.js';
