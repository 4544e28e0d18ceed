// Public API of the measurements (docs/measurements.md): parsing Prometheus range answers and CSV,
// and the estimate that plans from them.
export { isKnownTimeZone } from './hour-of-week.js';
export { MeasurementError, parseMeasurementText, sampleCountUpperBound } from './series.js';
export { estimateFromMeasurements } from './measured-estimate.js';
export type * from './measured-estimate.js';
export { MAX_STEP_SECONDS, SERIES_KINDS, TRAFFIC_UNITS } from './analyze.js';
export type { Coverage, SeriesKind, TrafficUnit } from './analyze.js';
