// A large body of POST /v1/estimates or POST /graphql read in a worker thread (estimate-bodies.ts
// sends it there): its values and samples counted, the JSON parsed as Fastify's own parser does,
// and each measurement text parsed into its series (in a GraphQL body, the texts the document's
// estimate takes: graphql-body.ts). What comes back is the body with each text replaced by
// a token, and the texts' series as Float64Arrays (a fortnight of samples in 3 MB, copied as one
// block each), never the text nor the objects of its parsing: a structured clone of those would
// cost the request thread what the worker saves. docs/measurements.md, "Bounds".
import secureJson from 'secure-json-parse';
import { jsonValueCount, sampleMarks, MIN_SAMPLE_BYTES } from '../../common/http/json-body.js';
import { MAX_JSON_VALUES } from '../../common/http/limits.js';
import { MEASUREMENT_TEXT } from '../../common/inputs/input-bounds.js';
import { parseMeasurementText, sampleCountUpperBound, MeasurementError, type MeasurementFormat, type ParsedText } from '../../domain/measurements/index.js';

export interface BodyTask {
  /** The body's bytes (transferred, not copied). */
  bytes: Uint8Array;
  /** Makes this body's tokens (textToken): a caller cannot name another body's text. */
  nonce: string;
  maxSamples: number;
  /** A POST /graphql body, its document parsed as the request thread's GraphQL parser does (at most maxTokens). */
  graphql?: { maxTokens: number };
}

/** Where a measurement text sits in a parsed body, and how a token takes its place. */
export interface TextSlot {
  text: string;
  format: MeasurementFormat;
  replace: (token: string) => void;
}

/** The texts of a parsed body (`finish`: run once each text has its token), for readEstimateBody. */
export type TextFinder = (body: unknown) => { slots: TextSlot[]; finish?: () => void };

/** One series of a text, its columns as Float64Arrays (a copy of each is one block). */
export interface SeriesColumns {
  labels: Record<string, string>;
  t: Float64Array;
  v: Float64Array;
}

/** A text read ahead: its samples as counted before parsing (the 413 bound), and its series or its refusal. */
export interface ReadText {
  format: MeasurementFormat;
  samples: number;
  parsed: { series: SeriesColumns[] } | { error: { field: string; message: string; tooLarge: boolean } };
}

/** Why a body is refused before any field is read, as the request thread's parser refuses it. */
export type BodyRefusal = 'TOO_MANY_VALUES' | 'TOO_MANY_SAMPLES' | 'EMPTY' | 'NOT_JSON';

export type BodyOutcome = { kind: 'REFUSED'; reason: BodyRefusal } | { kind: 'READ'; body: unknown; texts: [token: string, text: ReadText][] };

const SERIES = ['traffic', 'utilization', 'memoryUsed'] as const;
const FORMATS = [
  ['prometheus', 'PROMETHEUS'],
  ['csv', 'CSV'],
] as const;

/** The token that stands for a text in the body the request thread validates: a string of the text's field rules. */
export function textToken(nonce: string, index: number): string {
  return `(measurement text ${index} of body ${nonce})`;
}

/**
 * The length class-validator's Length(min, max) measures (validator.js isLength): UTF-16 units,
 * less surrogate pairs and presentation selectors. Only a text the validation would accept is
 * replaced by a token, so the token changes no answer.
 */
export function validatedLength(text: string): number {
  const selectors = text.match(/[^\uFE0F\uFE0E][\uFE0F\uFE0E]/g)?.length ?? 0;
  const pairs = text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0;
  return text.length - selectors - pairs;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readText(text: string, format: MeasurementFormat): ReadText {
  const samples = sampleCountUpperBound(text, format);
  try {
    const series = parseMeasurementText(text, format).map((s) => ({ labels: s.labels, t: Float64Array.from(s.t), v: Float64Array.from(s.v) }));
    return { format, samples, parsed: { series } };
  } catch (error) {
    if (!(error instanceof MeasurementError)) throw error;
    return { format, samples, parsed: { error: { field: error.field, message: error.message, tooLarge: error.tooLarge } } };
  }
}

/** The texts of one series (`{ prometheus }` or `{ csv }`, as an estimate input holds it). */
export function seriesSlots(series: unknown): TextSlot[] {
  if (!isRecord(series)) return [];
  return FORMATS.flatMap(([key, format]) => {
    const text = series[key];
    return typeof text === 'string' ? [{ text, format, replace: (token: string) => (series[key] = token) }] : [];
  });
}

/** The texts of an estimate input's `measurements`. */
export function measurementSlots(measurements: unknown): TextSlot[] {
  return isRecord(measurements) ? SERIES.flatMap((name) => seriesSlots(measurements[name])) : [];
}

/** The texts of a body of POST /v1/estimates: the input is the body. */
const restTexts: TextFinder = (body) => ({ slots: measurementSlots(isRecord(body) ? body.measurements : undefined) });

/** The worker's task (estimate.worker.ts, `readBody`); `findTexts`: where the texts are in the parsed body. */
export function readEstimateBody({ bytes, nonce, maxSamples }: BodyTask, findTexts: TextFinder = restTexts): BodyOutcome {
  // The order of the request thread's parser (common/http/json-body.ts, then Fastify's).
  if (jsonValueCount(bytes, MAX_JSON_VALUES) > MAX_JSON_VALUES) return { kind: 'REFUSED', reason: 'TOO_MANY_VALUES' };
  if (bytes.length > MIN_SAMPLE_BYTES * maxSamples && sampleMarks(bytes) > maxSamples) return { kind: 'REFUSED', reason: 'TOO_MANY_SAMPLES' };
  if (bytes.length === 0) return { kind: 'REFUSED', reason: 'EMPTY' };
  let body: unknown;
  try {
    body = secureJson.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    return { kind: 'REFUSED', reason: 'NOT_JSON' };
  }
  const texts: [string, ReadText][] = [];
  const { slots, finish } = findTexts(body);
  for (const { text, format, replace } of slots) {
    const length = validatedLength(text);
    if (length < MEASUREMENT_TEXT.minLength || length > MEASUREMENT_TEXT.maxLength) continue;
    const token = textToken(nonce, texts.length);
    texts.push([token, readText(text, format)]);
    replace(token);
  }
  finish?.();
  return { kind: 'READ', body, texts };
}

/** The buffers of the columns in `parsed` texts: moved, not copied, from thread to thread. */
export function columnBuffers(parsed: readonly (ReadText['parsed'] | string | null)[]): ArrayBuffer[] {
  return parsed.flatMap((p) => (p && typeof p === 'object' && 'series' in p ? p.series.flatMap((s) => [s.t.buffer, s.v.buffer] as ArrayBuffer[]) : []));
}

/** A text's series as the analysis reads them (number arrays), or its refusal as a MeasurementError. */
export function seriesOfColumns(parsed: ReadText['parsed']): ParsedText {
  if ('error' in parsed) return { error: new MeasurementError(parsed.error.field, parsed.error.message, parsed.error.tooLarge) };
  return { series: parsed.series.map((s) => ({ labels: s.labels, t: Array.from(s.t), v: Array.from(s.v) })) };
}
