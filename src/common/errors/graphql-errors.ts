// GraphQL errors: the same AppError codes as REST, as extensions.code. No stack traces.
import type { GraphQLFormattedError } from 'graphql';
import { AppError, type ErrorKind } from './app-error.js';
import { isDatabaseUnavailable } from './problem-details.filter.js';

const GRAPHQL_CODE: Record<ErrorKind, string> = {
  BAD_INPUT: 'BAD_USER_INPUT',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  UNPROCESSABLE: 'UNPROCESSABLE',
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
      },
    };
  }
  if (isDatabaseUnavailable(original)) {
    return { ...base, message: 'The database is unavailable; retry shortly.', extensions: { code: 'SERVICE_UNAVAILABLE' } };
  }
  const code = String(formatted.extensions?.code ?? 'INTERNAL_SERVER_ERROR');
  // Apollo's own parse/validation errors are safe to show; anything else is hidden.
  const known = ['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'PERSISTED_QUERY_NOT_FOUND'];
  if (known.includes(code)) {
    return { ...base, extensions: { code: code === 'GRAPHQL_VALIDATION_FAILED' || code === 'GRAPHQL_PARSE_FAILED' ? code : 'BAD_USER_INPUT' } };
  }
  return { ...base, message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}
