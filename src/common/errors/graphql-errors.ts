// GraphQL errors: the same AppError codes as REST, as extensions.code. No stack traces.
import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import { AppError, type ErrorKind } from './app-error.js';
import { isDatabaseUnavailable, isInvalidValue } from './problem-details.filter.js';

const GRAPHQL_CODE: Record<ErrorKind, string> = {
  BAD_INPUT: 'BAD_USER_INPUT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  UNPROCESSABLE: 'UNPROCESSABLE',
  // Input over a size bound (413 over REST): the caller's to change, as any bad input.
  TOO_LARGE: 'BAD_USER_INPUT',
  // As the request gate says it (http-hooks.ts).
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = (error as { originalError?: unknown }).originalError ?? error;
  const base = { message: formatted.message, locations: formatted.locations, path: formatted.path };
  if (original instanceof AppError) {
    return {
      ...base,
      message: original.message,
      extensions: {
        code: GRAPHQL_CODE[original.kind],
        errorCode: original.code,
        ...(original.errors.length ? { errors: original.errors } : {}),
        ...(original.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: original.retryAfterSeconds }),
      },
    };
  }
  if (isDatabaseUnavailable(original)) {
    return { ...base, message: 'The database is unavailable; retry shortly.', extensions: { code: 'SERVICE_UNAVAILABLE' } };
  }
  // graphql-js says so without a code when asked for an operation type the schema lacks.
  if (/not configured to execute (mutation|subscription)/i.test(formatted.message)) {
    return { ...base, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } };
  }
  // GraphQL Armor's cost bound (graphql-limits.ts) is a budget like the complexity one, reported
  // as a validation error: said with the budget's code.
  const armorCost = /Query Cost limit of (\d+) exceeded, found (\d+(?:\.\d+)?(?:e\+\d+)?)/.exec(formatted.message);
  if (armorCost) {
    return { ...base, message: `query cost ${armorCost[2]} exceeds the limit of ${armorCost[1]}`, extensions: { code: 'QUERY_TOO_COMPLEX' } };
  }
  if (isInvalidValue(original)) return { ...base, message: 'An argument has an invalid value.', extensions: { code: 'BAD_USER_INPUT' } };
  const code = String(formatted.extensions?.code ?? 'INTERNAL_SERVER_ERROR');
  // Apollo's own parse/validation errors are safe to show; anything else is hidden.
  const known = [
    'GRAPHQL_PARSE_FAILED',
    'GRAPHQL_VALIDATION_FAILED',
    'BAD_USER_INPUT',
    'PERSISTED_QUERY_NOT_FOUND',
    'QUERY_TOO_COMPLEX',
    'OPERATION_RESOLUTION_FAILURE',
    'BAD_REQUEST',
  ];
  if (known.includes(code)) return { ...base, extensions: { code } };
  return { ...base, message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

interface LoggingContext {
  req?: { log?: { error(details: object, message: string): void } };
}

/**
 * Logs every error that the answer hides as INTERNAL_SERVER_ERROR, with its stack and path, on
 * the request's logger (the REST filter does the same for a 500), so that "Internal server error"
 * always has a log line to look up.
 */
export function logInternalGraphqlErrors(): ApolloServerPlugin<LoggingContext> {
  return {
    requestDidStart: () =>
      Promise.resolve({
        didEncounterErrors: ({ contextValue, errors }) => {
          for (const error of errors) {
            const formatted = formatGraphqlError({ message: error.message, path: error.path, extensions: error.extensions }, error);
            if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
              contextValue.req?.log?.error({ err: error.originalError ?? error, path: error.path?.join('.') }, 'unexpected GraphQL error');
            }
          }
          return Promise.resolve();
        },
      }),
  };
}
