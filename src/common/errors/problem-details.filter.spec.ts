import { AppError, badInput, ERROR_KINDS, type ErrorKind } from './app-error.js';
import { isDatabaseUnavailable, toProblem } from './problem-details.filter.js';

describe(isDatabaseUnavailable.name, () => {
  it('treats a statement timeout and the client-side query timeout as "PostgreSQL is not answering": 503, never 500', () => {
    const statementTimeout = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    const clientTimeout = new Error('Query read timeout');
    const wrapped = Object.assign(new Error('prisma'), { cause: statementTimeout });
    for (const e of [statementTimeout, clientTimeout, wrapped]) {
      expect(isDatabaseUnavailable(e)).toBe(true);
      expect(toProblem(e)).toMatchObject({ status: 503, code: 'DATABASE.UNAVAILABLE' });
    }
    // A programming error is not an outage.
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });
});

// By hand: the HTTP status each kind of AppError is answered with.
const STATUS_BY_KIND: Record<ErrorKind, number> = {
  BAD_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNPROCESSABLE: 422,
  TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  UNAVAILABLE: 503,
};

describe(toProblem.name, () => {
  it('is checked below for every kind of AppError', () => {
    expect(Object.keys(STATUS_BY_KIND).sort()).toEqual([...ERROR_KINDS].sort());
  });

  it.each(Object.entries(STATUS_BY_KIND))('answers a %s AppError with status %d, its code and a problem type named after it', (kind, status) => {
    expect(toProblem(new AppError('CATALOG.VERSION_NOT_FOUND', kind as ErrorKind, 'no version v9'))).toEqual({
      type: 'https://gpu-cost-api.dev/problems/catalog-version-not-found',
      title: expect.any(String),
      status,
      detail: 'no version v9',
      code: 'CATALOG.VERSION_NOT_FOUND',
    });
  });

  it('lists field errors when there are some, with the standard title of the status', () => {
    expect(toProblem(badInput('REQUEST.INVALID', [{ field: 'gpuCount', message: 'must not be less than 1' }]))).toMatchObject({
      status: 400,
      title: 'Bad Request',
      errors: [{ field: 'gpuCount', message: 'must not be less than 1' }],
    });
    expect(toProblem(new AppError('ESTIMATE.TOO_LARGE', 'UNPROCESSABLE', 'x')).title).toBe('Unprocessable Content');
  });

  it('answers a value PostgreSQL cannot take with 400, and anything unknown with 500 without its message', () => {
    expect(toProblem(Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' }))).toMatchObject({
      status: 400,
      code: 'REQUEST.INVALID_VALUE',
    });
    const internal = toProblem(new TypeError("Cannot read properties of undefined (reading 'slug')"));
    expect(internal).toMatchObject({ status: 500, code: 'INTERNAL' });
    expect(internal.detail).not.toContain('slug');
  });
});
