// The errors Fastify and Node's HTTP parser answer themselves, before any route or Nest filter
// runs, in the service's problem+json (docs/api-conventions.md#errors).
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem, titleFor } from './problem-details.filter.js';

/** Fastify's frameworkErrors: a URL that cannot be decoded (`/v1/%`), a failed route constraint. */
export function frameworkError(error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
  const badUrl = error.code === 'FST_ERR_BAD_URL';
  sendProblem(request, reply, {
    type: 'about:blank',
    title: titleFor(400),
    status: 400,
    detail: badUrl ? 'the URL is not valid: a % must start an escape such as %20' : error.message,
    code: badUrl ? 'REQUEST.BAD_URL' : 'HTTP.400',
  });
}

/**
 * Fastify's clientErrorHandler: Node's parser refused the request before Fastify saw it (431
 * headers or request line too large, 408 too slow, 400 malformed). Only a raw socket is left, so
 * the answer is written by hand; the connection is then closed, as Node's own answer does.
 */
export function clientErrorAnswer(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const detail =
    status === 431
      ? 'the request line and headers are larger than the server reads (16 KiB): shorten the query string or the headers'
      : status === 408
        ? 'the request was not received in time'
        : 'the request is not valid HTTP';
  const body = JSON.stringify({ type: 'about:blank', title: STATUS_CODES[status], status, detail, code: `HTTP.${status}` });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/problem+json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
