// The JSON body parser: Fastify's own (secure-json-parse: `__proto__` and `constructor.prototype`
// keys refused), after a count of the values the body holds (MAX_JSON_VALUES). The count reads the
// bytes once, before any object is made; JSON.parse of 60,000 tiny objects, and the collections
// that follow, blocked the event loop for tenths of a second per request.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, badInput } from '../errors/app-error.js';
import { MAX_JSON_VALUES, MEASUREMENT_ROUTES } from './limits.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const BRACE = 0x7b;
const BRACKET = 0x5b;

/** `{`, `[` and `,` outside strings, stopping once past `limit`. */
export function jsonValueCount(body: Uint8Array, limit: number): number {
  let count = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === COMMA || c === BRACE || c === BRACKET) {
      if (++count > limit) return count;
    }
  }
  return count;
}

const LETTER_N = 0x6e;
/** The fewest bytes one sample takes in a body: `1,1\\n` of a CSV inside a JSON string. */
export const MIN_SAMPLE_BYTES = 5;

/**
 * An upper bound of the samples the measurement texts of a body hold, before it is parsed: `[`
 * inside strings (a Prometheus sample opens with one) and `\n` escapes (a CSV line ends with one).
 * Parsing megabytes of escaped text costs the request thread tenths of a second; counting, a few ms.
 */
export function sampleMarks(body: Uint8Array): number {
  let marks = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (!inString) {
      if (c === QUOTE) inString = true;
    } else if (c === BACKSLASH) {
      if (body[i + 1] === LETTER_N) marks++;
      i++;
    } else if (c === QUOTE) inString = false;
    else if (c === BRACKET) marks++;
  }
  return marks;
}

/** A body refused for the samples it may hold: 413 MEASUREMENT.TOO_MANY_SAMPLES naming `measurements`. */
export function tooManySamples(limit: number): AppError {
  return new AppError(
    'MEASUREMENT.TOO_MANY_SAMPLES',
    'TOO_LARGE',
    `The measurements hold more than ${limit} samples (MEASUREMENT_MAX_SAMPLES); use a larger step or a shorter range`,
    [{ field: 'measurements', message: `hold more than ${limit} samples` }],
  );
}

/** A body refused for the number of values it holds: 400 REQUEST.TOO_MANY_VALUES naming `body`. */
export function tooManyValues(): AppError {
  return badInput('REQUEST.TOO_MANY_VALUES', [
    { field: 'body', message: `holds more than ${MAX_JSON_VALUES} values (objects, lists and list entries); no input needs as many` },
  ]);
}

type Done = (error: Error | null, body?: unknown) => void;

/**
 * Reads a body elsewhere (a worker thread) and answers what this parser would, or declines
 * (null): the body is then read here.
 */
export type BodyReader = (request: FastifyRequest, body: Buffer) => Promise<unknown> | null;

/**
 * The parser, for `useBodyParser('application/json', ...)` (app.setup.ts). On the routes that take
 * measurements, a body that could hold more than `maxSamples` samples has them counted first.
 * `elsewhere` may take a body first (estimates/estimate-bodies.ts: large estimate bodies).
 */
export function boundedJsonParser(
  fastify: FastifyInstance,
  maxSamples: number,
  elsewhere?: BodyReader,
): (request: FastifyRequest, body: Buffer, done: Done) => void {
  let parse: ((request: FastifyRequest, body: Buffer, done: Done) => void) | undefined;
  return (request, body, done) => {
    const read = elsewhere?.(request, body);
    if (read) {
      read.then(
        (value) => done(null, value),
        (error: Error) => done(error),
      );
      return;
    }
    if (jsonValueCount(body, MAX_JSON_VALUES) > MAX_JSON_VALUES) return done(tooManyValues());
    if (body.length > MIN_SAMPLE_BYTES * maxSamples && MEASUREMENT_ROUTES.includes(request.routeOptions.url ?? '') && sampleMarks(body) > maxSamples) {
      return done(tooManySamples(maxSamples));
    }
    parse ??= fastify.getDefaultJsonParser('error', 'error') as unknown as (request: FastifyRequest, body: Buffer, done: Done) => void;
    parse(request, body, done);
  };
}
