// formatGraphqlError: every error a resolver or Apollo raises, as the client sees it. AppErrors
// keep their code (extensions.errorCode) under the GraphQL code of their kind; nothing else
// unknown shows its message, and no stack trace leaves.
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, ERROR_KINDS, type ErrorKind } from './app-error.js';
import { formatGraphqlError, logInternalGraphqlErrors } from './graphql-errors.js';

/** What Apollo hands the formatter for an error thrown in a resolver: its own formatting, and the error. */
function fromResolver(original: unknown, extensions: Record<string, unknown> = { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['Error: at resolver.ts:1'] }) {
  const error = new GraphQLError(original instanceof Error ? original.message : String(original), {
    path: ['offers'],
    originalError: original instanceof Error ? original : undefined,
    extensions,
  });
  const formatted: GraphQLFormattedError = { message: error.message, locations: [{ line: 2, column: 3 }], path: ['offers'], extensions };
  return formatGraphqlError(formatted, error);
}

// By hand: the GraphQL code each kind is answered with.
const GRAPHQL_CODE_BY_KIND: Record<ErrorKind, string> = {
  BAD_INPUT: 'BAD_USER_INPUT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  UNPROCESSABLE: 'UNPROCESSABLE',
  TOO_LARGE: 'BAD_USER_INPUT',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

describe(formatGraphqlError.name, () => {
  it('is checked below for every kind of AppError', () => {
    expect(Object.keys(GRAPHQL_CODE_BY_KIND).sort()).toEqual([...ERROR_KINDS].sort());
  });

  it.each(Object.entries(GRAPHQL_CODE_BY_KIND))('answers a %s AppError as %s, with its own code and message and no stack trace', (kind, code) => {
    const out = fromResolver(new AppError('SOME.CODE', kind as ErrorKind, 'what went wrong'));
    expect(out).toEqual({ message: 'what went wrong', locations: [{ line: 2, column: 3 }], path: ['offers'], extensions: { code, errorCode: 'SOME.CODE' } });
  });

  it('lists field errors only when there are some, and reads an AppError that Apollo did not wrap', () => {
    const withFields = fromResolver(new AppError('REQUEST.INVALID', 'BAD_INPUT', 'gpuCount: too small', [{ field: 'gpuCount', message: 'too small' }]));
    expect(withFields.extensions).toEqual({ code: 'BAD_USER_INPUT', errorCode: 'REQUEST.INVALID', errors: [{ field: 'gpuCount', message: 'too small' }] });
    const bare = formatGraphqlError({ message: 'x' }, new AppError('CATALOG.VERSION_NOT_FOUND', 'NOT_FOUND', 'no v9'));
    expect(bare).toMatchObject({ message: 'no v9', extensions: { code: 'NOT_FOUND', errorCode: 'CATALOG.VERSION_NOT_FOUND' } });
  });

  it('answers an unreachable database as SERVICE_UNAVAILABLE without the driver’s message', () => {
    const out = fromResolver(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' }));
    expect(out).toMatchObject({ message: 'The database is unavailable; retry shortly.', extensions: { code: 'SERVICE_UNAVAILABLE' } });
  });

  it('answers a value PostgreSQL cannot take as BAD_USER_INPUT', () => {
    const badBytes = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    expect(fromResolver(badBytes)).toMatchObject({ message: 'An argument has an invalid value.', extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('says GRAPHQL_VALIDATION_FAILED for a mutation or subscription, which the schema does not have', () => {
    const out = formatGraphqlError(
      { message: 'Schema is not configured to execute mutation operation.' },
      new GraphQLError('Schema is not configured to execute mutation operation.'),
    );
    expect(out).toEqual({
      message: 'Schema is not configured to execute mutation operation.',
      locations: undefined,
      path: undefined,
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });

  it('keeps Apollo’s own parse and validation errors as they are, minus anything but the code', () => {
    const parse: GraphQLFormattedError = {
      message: 'Syntax Error: Expected Name, found "}".',
      locations: [{ line: 1, column: 9 }],
      extensions: { code: 'GRAPHQL_PARSE_FAILED', stacktrace: ['GraphQLError: ...'] },
    };
    expect(formatGraphqlError(parse, new GraphQLError(parse.message))).toEqual({
      message: parse.message,
      locations: parse.locations,
      path: undefined,
      extensions: { code: 'GRAPHQL_PARSE_FAILED' },
    });
  });

  it('hides anything else behind "Internal server error"', () => {
    const out = fromResolver(new TypeError("Cannot read properties of undefined (reading 'slug') at /app/dist/src/x.js:10"));
    expect(out).toEqual({
      message: 'Internal server error',
      locations: [{ line: 2, column: 3 }],
      path: ['offers'],
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  });
});

describe(logInternalGraphqlErrors.name, () => {
  async function logged(errors: GraphQLError[]): Promise<{ details: object; message: string }[]> {
    const lines: { details: object; message: string }[] = [];
    const listener = await logInternalGraphqlErrors().requestDidStart?.({} as never);
    const contextValue = { req: { log: { error: (details: object, message: string) => lines.push({ details, message }) } } };
    await listener?.didEncounterErrors?.({ contextValue, errors } as never);
    return lines;
  }

  it('logs an error answered as INTERNAL_SERVER_ERROR with its original error (and stack) and its path', async () => {
    const boom = new TypeError("Cannot read properties of null (reading 'getTime')");
    const lines = await logged([new GraphQLError(boom.message, { path: ['gpus'], originalError: boom })]);
    expect(lines).toEqual([{ details: { err: boom, path: 'gpus' }, message: 'unexpected GraphQL error' }]);
  });

  it('does not log what the client is told plainly: bad input, validation, the service’s own errors', async () => {
    const lines = await logged([
      new GraphQLError('Variable "$a" got invalid value 5', { extensions: { code: 'BAD_USER_INPUT' } }),
      new GraphQLError('Cannot query field "id"', { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
      new GraphQLError('not found', { path: ['gpus'], originalError: new AppError('CATALOG.VERSION_NOT_FOUND', 'NOT_FOUND', 'no such version') }),
    ]);
    expect(lines).toEqual([]);
  });
});
