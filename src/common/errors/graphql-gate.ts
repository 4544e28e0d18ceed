// The RequestGate's answers for GraphQL, given while Apollo builds the context (before parsing):
// a GraphQLError with the HTTP status and headers Apollo sends as they are.
import { GraphQLError } from 'graphql';
import type { RequestGate } from '../../modules/auth/request-gate.js';
import { TooManyRequests } from '../../modules/auth/request-gate.js';
import type { CallerRequest } from '../../modules/auth/request-context.js';
import { AppError } from './app-error.js';
import { isDatabaseUnavailable } from './problem-details.filter.js';

export async function admitGraphqlRequest(gate: RequestGate, req: CallerRequest): Promise<void> {
  try {
    await gate.authenticate(req);
    await gate.count(req);
  } catch (error) {
    if (error instanceof TooManyRequests) {
      throw new GraphQLError(error.message, {
        extensions: { code: 'TOO_MANY_REQUESTS', http: { status: 429, headers: new Map([['retry-after', String(error.retryAfterSeconds)]]) } },
      });
    }
    if (error instanceof AppError && error.kind === 'UNAUTHENTICATED') {
      throw new GraphQLError(error.message, {
        extensions: { code: 'UNAUTHENTICATED', errorCode: error.code, http: { status: 401, headers: new Map([['www-authenticate', 'Bearer']]) } },
      });
    }
    if (isDatabaseUnavailable(error)) {
      throw new GraphQLError('The database is unavailable; retry shortly.', {
        extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503, headers: new Map([['retry-after', '5']]) } },
      });
    }
    throw error;
  }
}
