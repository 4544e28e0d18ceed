// API keys and the request gate (key, then rate limit), for the HTTP layer and the admin scripts.
export { RequestGate, TooManyRequests, trackerOf } from './request-gate.js';
export type { CallerRequest } from './request-context.js';
export { ApiKeysService } from './api-keys.service.js';
