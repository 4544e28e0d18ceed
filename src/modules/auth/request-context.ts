import type { FastifyRequest } from 'fastify';
import type { Caller } from './api-keys.service.js';

/** A request, with the caller its API key identified (AUTH_MODE=required). */
export type CallerRequest = FastifyRequest & { caller?: Caller };
