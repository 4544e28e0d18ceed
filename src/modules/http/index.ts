// The HTTP layer around the API (Fastify hooks: the request gate and rate limits, the response
// cache and HTTP caching, security headers, metrics and request logs) and the dashboard's files.
// Installed once by app.setup.ts and serve.ts; docs/adr/0001-fastify-hooks-before-the-body.md
// says why hooks and not Nest guards and interceptors.
export { installHttpHooks } from './http-hooks.js';
export { serveDashboard } from './dashboard.js';
