// Prometheus metrics: the module, and the service the HTTP layer counts requests with.
export { MetricsService } from './metrics.service.js';
