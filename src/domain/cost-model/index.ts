// Public API of the inference cost model (cost-model.md).
export { estimateInferenceCost, DEFAULT_HOURS_PER_MONTH, DEFAULT_RECOVERABLE_SPOT_SHARE, DEFAULT_SPOT_INTERRUPTIONS_PER_HOUR, DEFAULT_SPOT_LOST_WORK_MINUTES } from './estimate.js';
export type * from './estimate.types.js';
export { gpuSpecFromCatalog, type GpuSpec } from './gpu-spec.js';
export { estimateReplicaThroughput, peakCompute, type ReplicaThroughput } from './throughput.js';
export { EFFICIENCY, TENSOR_PARALLEL_EFFICIENCY, DEFAULT_INTER_TOKEN_LATENCY_MS, DEFAULT_MAX_BATCH } from './calibration.js';
export { CALIBRATION_POINTS } from './calibration-points.js';
export { hourlyDemand, DEFAULT_TARGET_UTILIZATION, DEFAULT_MIN_REPLICAS } from './demand.js';
export { MODEL_LOAD_GB_PER_SECOND, MODEL_START_SECONDS } from './right-sizing.js';
