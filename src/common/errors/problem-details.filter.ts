// REST errors as RFC 9457 problem+json. Every error leaves here; no stack trace or SQL does.
import { ArgumentsHost, Catch, HttpException, HttpStatus, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BODY_LIMIT_TEXT } from '../http/limits.js';
import { allowedMethods } from '../http/route-table.js';
import { AppError, type ErrorKind, type FieldError } from './app-error.js';

const STATUS: Record<ErrorKind, number> = {
  BAD_INPUT: HttpStatus.BAD_REQUEST,
  UNAUTHENTICATED: HttpStatus.UNAUTHORIZED,
  FORBIDDEN: HttpStatus.FORBIDDEN,
  NOT_FOUND: HttpStatus.NOT_FOUND,
  CONFLICT: HttpStatus.CONFLICT,
  UNPROCESSABLE: HttpStatus.UNPROCESSABLE_ENTITY,
  TOO_LARGE: HttpStatus.PAYLOAD_TOO_LARGE,
  TOO_MANY_REQUESTS: HttpStatus.TOO_MANY_REQUESTS,
  UNAVAILABLE: HttpStatus.SERVICE_UNAVAILABLE,
};

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  instance?: string;
  errors?: FieldError[];
}

/** Messages of a connection lost, refused or timed out, and of a statement cut off by a timeout. */
const UNAVAILABLE_MESSAGE = new RegExp(
  [
    'Connection terminated',
    'timeout exceeded when trying to connect',
    'connect ECONNREFUSED',
    "Can't reach database server",
    'Client has encountered a connection error',
    'Query read timeout',
    'canceling statement due to statement timeout',
  ].join('|'),
  'i',
);

/** Errors that mean "PostgreSQL is not there right now": answered 503, retried by clients. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; kind?: unknown } } };
  } | null;
  if (!e || typeof e !== 'object') return false;
  // Prisma wraps the driver's error: the PostgreSQL code sits in meta.driverAdapterError.cause.
  const driver = e.meta?.driverAdapterError?.cause;
  if (
    driver &&
    (/^(57P0\d|08\w{3})$/.test(String(driver.originalCode ?? '')) ||
      ['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections'].includes(String(driver.kind)))
  ) {
    return true;
  }
  const code = String(e.code ?? '');
  if (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57014', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006', 'P1001', 'P1017'].includes(
      code,
    )
  )
    return true;
  // 57014 above is a statement timeout (or a cancel); "Query read timeout" is the client's own query_timeout.
  if (UNAVAILABLE_MESSAGE.test(String(e.message ?? ''))) return true;
  return e.cause !== undefined && e.cause !== error && isDatabaseUnavailable(e.cause);
}

/** PostgreSQL "data exception" (class 22: bad encoding, NUL byte, out of range): the input's fault. */
export function isInvalidValue(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (/^22[0-9A-Z]{3}$/.test(String(e.code ?? '')) || /invalid byte sequence|invalid input syntax/i.test(String(e.message ?? ''))) return true;
  return e.cause !== undefined && e.cause !== error && isInvalidValue(e.cause);
}

/** Fastify's answers to a body it cannot read, in words a client can act on. */
const BODY_ERRORS: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'REQUEST.MALFORMED_JSON',
    message: 'is not valid JSON (keys named __proto__, and constructor.prototype, are refused too)',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'REQUEST.EMPTY_BODY', message: 'is empty, but content-type says application/json' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'REQUEST.TOO_LARGE', message: `is larger than ${BODY_LIMIT_TEXT}` },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'REQUEST.UNSUPPORTED_MEDIA_TYPE', message: 'must be sent as application/json' },
};

export function toProblem(exception: unknown): ProblemDetails {
  if (isInvalidValue(exception)) {
    return {
      type: 'about:blank',
      title: titleFor(400),
      status: 400,
      detail: 'A parameter has a value the service cannot use (e.g. a control character).',
      code: 'REQUEST.INVALID_VALUE',
    };
  }
  if (isDatabaseUnavailable(exception)) {
    return { type: 'about:blank', title: titleFor(503), status: 503, detail: 'The database is unavailable; retry shortly.', code: 'DATABASE.UNAVAILABLE' };
  }
  if (exception instanceof AppError) {
    const status = STATUS[exception.kind];
    return {
      type: `https://gpu-cost-api.dev/problems/${exception.code.toLowerCase().replace(/[._]/g, '-')}`,
      title: titleFor(status),
      status,
      detail: exception.message,
      code: exception.code,
      ...(exception.errors.length ? { errors: exception.errors } : {}),
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const unreadable = BODY_ERRORS[String((exception.cause as { code?: unknown } | undefined)?.code)];
    if (unreadable) {
      return {
        type: `https://gpu-cost-api.dev/problems/${unreadable.code.toLowerCase().replace(/[._]/g, '-')}`,
        title: titleFor(status),
        status,
        detail: `body ${unreadable.message}`,
        code: unreadable.code,
        errors: [{ field: 'body', message: unreadable.message }],
      };
    }
    const body = exception.getResponse();
    const detail = typeof body === 'string' ? body : String((body as { message?: unknown }).message ?? exception.message);
    return { type: 'about:blank', title: titleFor(status), status, detail, code: `HTTP.${status}` };
  }
  return {
    type: 'about:blank',
    title: titleFor(500),
    status: 500,
    detail: 'An unexpected error occurred; it has been logged.',
    code: 'INTERNAL',
  };
}

export function titleFor(status: number): string {
  const names: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    406: 'Not Acceptable',
    409: 'Conflict',
    413: 'Payload Too Large',
    415: 'Unsupported Media Type',
    422: 'Unprocessable Content',
    429: 'Too Many Requests',
    431: 'Request Header Fields Too Large',
    500: 'Internal Server Error',
    503: 'Service Unavailable',
  };
  return names[status] ?? 'Error';
}

@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    // GraphQL errors are formatted by Apollo (graphql-errors.ts); rethrow to let it.
    if (host.getType<string>() === 'graphql') throw exception;
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    // Health checks keep terminus' own body (which check is down), with their status.
    if (exception instanceof HttpException && typeof exception.getResponse() === 'object' && 'details' in (exception.getResponse() as object)) {
      void reply.code(exception.getStatus()).send(exception.getResponse());
      return;
    }
    let problem = toProblem(exception);
    // Logged with the request's id, so the line and the client's report meet.
    if (problem.status === 500) request.log.error({ err: exception }, 'unexpected error');
    // No route matched: a known path asked with another method is a 405 that says which to use
    // (also when Fastify refused the method first, as QUERY without a content type).
    if (request.routeOptions.url === undefined && exception instanceof HttpException) {
      const allowed = allowedMethods(request.server, request.url);
      // A route of this method that found nothing (a file not served, say) stays a 404.
      if (allowed.length && !allowed.includes(request.method)) {
        void reply.header('allow', allowed.join(', '));
        problem = {
          type: 'about:blank',
          title: titleFor(405),
          status: 405,
          detail: `${request.method} is not allowed here; use ${allowed.join(', ')}`,
          code: 'HTTP.405',
        };
      }
    }
    if (exception instanceof AppError && exception.retryAfterSeconds !== undefined) void reply.header('retry-after', String(exception.retryAfterSeconds));
    if (isGraphqlPath(request.url)) return sendAsGraphqlError(reply, problem);
    sendProblem(request, reply, problem);
  }
}

function isGraphqlPath(url: string): boolean {
  return url === '/graphql' || url.startsWith('/graphql?') || url.startsWith('/graphql/');
}

/**
 * A refusal of the HTTP layer on /graphql (a body that is not JSON, too large, a wrong method),
 * said as a GraphQL client reads errors: `errors[]` with extensions.code (BAD_REQUEST, as Apollo
 * says of a malformed request), the same stable code as REST in extensions.errorCode, and the
 * HTTP status of the REST answer.
 */
export function sendAsGraphqlError(reply: FastifyReply, problem: ProblemDetails): void {
  setProblemHeaders(reply, problem.status);
  const code = problem.status === 503 ? 'SERVICE_UNAVAILABLE' : problem.status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST';
  void reply
    .code(problem.status)
    .type('application/json')
    .send({ errors: [{ message: problem.detail, extensions: { code, errorCode: problem.code, ...(problem.errors ? { errors: problem.errors } : {}) } }] });
}

/** The headers an error status calls for: when to retry (503), how to authenticate (401). */
export function setProblemHeaders(reply: FastifyReply, status: number): void {
  if (status === 503 && !reply.hasHeader('retry-after')) void reply.header('retry-after', '5');
  if (status === 401) void reply.header('www-authenticate', 'Bearer');
}

/** A problem as the answer, with the headers its status calls for (the filter and the request gate). */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: ProblemDetails): void {
  setProblemHeaders(reply, problem.status);
  void reply
    .code(problem.status)
    .type('application/problem+json')
    .send({ ...problem, instance: request.url });
}
