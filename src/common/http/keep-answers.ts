// Which answers the response cache (response-cache.ts) keeps from their first request.
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

interface KeepConfig {
  keepAnswersAtOnce?: boolean;
}

/**
 * For a route whose answers are read from the database (the price histories): its answers are
 * kept from the first request instead of the second. Each costs a query to make, and a kept one
 * can still be answered while PostgreSQL is unreachable.
 */
export const KeepAnswersAtOnce = (): MethodDecorator => RouteConfig({ keepAnswersAtOnce: true } satisfies KeepConfig);

/** Whether the request's route is marked with KeepAnswersAtOnce. */
export function keepsAnswersAtOnce(request: FastifyRequest): boolean {
  return (request.routeOptions.config as KeepConfig | undefined)?.keepAnswersAtOnce === true;
}
