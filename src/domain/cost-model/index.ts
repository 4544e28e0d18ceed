// Public API of the inference cost model (docs/cost-model.md). The service maps EstimateOutcome to
// HTTP/GraphQL: OK → 200, NO_FIT, NO_USABLE_OFFER and TOO_LARGE → 422, INVALID_INPUT → 400.
export {
  estimateInferenceCost,
  DEFAULT_HOURS_PER_MONTH,
  DEFAULT_MAX_ALTERNATIVES,
  DEFAULT_RECOVERABLE_SPOT_SHARE,
  DEFAULT_SPOT_INTERRUPTIONS_PER_HOUR,
  DEFAULT_SPOT_LOST_WORK_MINUTES,
} from './estimate.js';
export type * from './estimate.types.js';
export { gpuSpecFromCatalog, type GpuSpec } from './gpu-spec.js';
export { estimateReplicaThroughput, peakCompute, type ReplicaThroughput, type ReplicaThroughputInput } from './throughput.js';
export { DEFAULT_INTER_TOKEN_LATENCY_MS, DEFAULT_MAX_BATCH, EFFICIENCY, FP32_SHARE_OF_FP16_PEAK, TENSOR_PARALLEL_EFFICIENCY } from './calibration.js';
export { CALIBRATION_POINTS, type CalibrationPoint } from './calibration-points.js';
export { hourlyDemand, DEFAULT_MIN_REPLICAS, DEFAULT_TARGET_UTILIZATION, type HourlyDemand } from './demand.js';
export {
  ADVISOR_BAND_HOURS,
  ADVISOR_BAND_UPPER_BOUND,
  advisorBandInterruptionsPerHour,
  SPOT_INTERRUPTION_BASES,
  spotInterruptionBasis,
  spotInterruptionsPerHour,
  spotOverheadFactor,
} from './plan-tiers.js';
export { MODEL_LOAD_GB_PER_SECOND, MODEL_START_SECONDS } from './right-sizing.js';
