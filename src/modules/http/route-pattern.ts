// The matched route's pattern for the per-request hooks (http-hooks.ts), read once per request.
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The matched route's pattern, '' for none; null until routeOf() first reads it. */
    routePattern: string | null;
  }
}

/**
 * The matched route's pattern (`/v1/offers/cheapest`), or undefined for an unmatched request.
 * Fastify builds `routeOptions` as a new object on every read (the body limit and the version
 * constraint are looked up again), and four hooks need the pattern, so it is read once. The
 * request must have the `routePattern` decoration (null), which installHttpHooks adds.
 */
export function routeOf(request: FastifyRequest): string | undefined {
  if (request.routePattern === null) request.routePattern = request.routeOptions.url ?? '';
  return request.routePattern || undefined;
}
