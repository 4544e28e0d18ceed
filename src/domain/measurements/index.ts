// Public API of the measurements (docs/measurements.md): parsing Prometheus range answers and CSV,
// and the estimate that plans from them.
export { isKnownTimeZone } from './hour-of-week.js';
export { MeasurementError, sampleCountUpperBound } from './series.js';
export { estimateFromMeasurements } from './measured-estimate.js';
export type * from './measured-estimate.js';
export type { Coverage, MemoryAnalysis, SeriesKind, TrafficAnalysis, TrafficUnit, UtilizationAnalysis } from './analyze.js';
