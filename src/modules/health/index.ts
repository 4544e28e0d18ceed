// Liveness and readiness, for the app module and the start-up in serve.ts.
export { HealthModule } from './health.module.js';
export { ReadinessService } from './readiness.service.js';
