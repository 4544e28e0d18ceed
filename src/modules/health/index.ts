// Liveness and readiness, for the app module and the start-up in serve.ts.
export { ReadinessService } from './readiness.service.js';
