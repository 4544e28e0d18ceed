// Prometheus metrics: the module, and the service the HTTP layer counts requests with.
export { MetricsModule } from './metrics.module.js';
export { MetricsService } from './metrics.service.js';
