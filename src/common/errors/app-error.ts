// Transport-neutral errors. Services throw these; REST maps them to problem+json and GraphQL to
// extensions.code, each in one place (problem-details.filter.ts, graphql-errors.ts).

export const ERROR_KINDS = [
  'BAD_INPUT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'UNPROCESSABLE',
  'TOO_LARGE',
  'TOO_MANY_REQUESTS',
  'UNAVAILABLE',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export interface FieldError {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    /** Stable code for clients, e.g. CATALOG.VERSION_NOT_FOUND. */
    readonly code: string,
    readonly kind: ErrorKind,
    message: string,
    readonly errors: FieldError[] = [],
    /** For TOO_MANY_REQUESTS and UNAVAILABLE: when to try again (Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (code: string, message: string): AppError => new AppError(code, 'NOT_FOUND', message);

export const badInput = (code: string, errors: FieldError[], message?: string): AppError =>
  new AppError(code, 'BAD_INPUT', message ?? errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);

export const unprocessable = (code: string, message: string, errors: FieldError[] = []): AppError => new AppError(code, 'UNPROCESSABLE', message, errors);
