// Measured time series as a team exports them: the JSON answer of Prometheus' range query
// (/api/v1/query_range, resultType "matrix") or a CSV of `timestamp,value` lines. Parsed strictly:
// a value that is not a finite decimal number, a timestamp outside 1970–2100 or not after the one
// before, a result of another type, are refused with the place they were found (docs/measurements.md).

import { CsvError, parse as parseCsvText } from 'csv-parse/sync';

/** One series: its labels (dcgm-exporter's gpu, UUID, Hostname, modelName, ...) and its samples in time order. */
export interface MeasuredSeries {
  labels: Record<string, string>;
  /** Unix seconds, strictly increasing. */
  t: number[];
  v: number[];
}

/** A measurement the domain refuses; `field` is relative to the measurement (the caller prefixes it). */
export class MeasurementError extends Error {
  constructor(
    readonly field: string,
    message: string,
    /** 413 rather than 400: the measurement is too large, not wrong. */
    readonly tooLarge = false,
  ) {
    super(message);
    this.name = 'MeasurementError';
  }
}

/** Samples a measurement text holds at most: the count of `[` (Prometheus, one per sample plus one per series) or of lines (CSV). */
export function sampleCountUpperBound(text: string, format: 'PROMETHEUS' | 'CSV'): number {
  const mark = format === 'PROMETHEUS' ? 0x5b : 0x0a;
  let count = format === 'CSV' ? 1 : 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === mark) count++;
  return count;
}

/** A measurement text's series: a Prometheus range answer or CSV lines. */
export function parseMeasurementText(text: string, format: 'PROMETHEUS' | 'CSV'): MeasuredSeries[] {
  return format === 'PROMETHEUS' ? parsePrometheusMatrix(text) : parseCsv(text);
}

/** A decimal number as Prometheus and spreadsheets write them: 42, -1.5, .5, 1e3; not 0x10, 0b1, 0o7. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A JSON number as it is, a decimal text as its number, anything else NaN. */
const decimalOf = (raw: unknown): number => (typeof raw === 'number' ? raw : typeof raw === 'string' && DECIMAL.test(raw.trim()) ? Number(raw.trim()) : NaN);

/** A sample value ("42", "1e3"), refused when NaN, ±Inf, not a number at all, or not decimal. */
function sampleValue(raw: unknown, where: string): number {
  const n = decimalOf(raw);
  if (!Number.isFinite(n)) {
    const text = typeof raw === 'string' ? raw.trim() : undefined;
    const notation = text !== undefined && Number.isFinite(Number(text)) && text !== '';
    throw new MeasurementError(
      where,
      notation
        ? `${JSON.stringify(raw)} is not a decimal number (hexadecimal, binary and octal notations are not read)`
        : `${JSON.stringify(raw)} is not a finite number (NaN and ±Inf are not measurements)`,
    );
  }
  return n;
}

/** Timestamps are Unix seconds from 1970-01-01T00:00:00Z (0) up to, not including, 2100-01-01T00:00:00Z. */
const EARLIEST_TIMESTAMP = 0;
const LATEST_TIMESTAMP = 4_102_444_800;

/** A timestamp in the range, else refused; one in milli-, micro- or nanoseconds of this century is named as such. */
function inRange(t: number, raw: unknown, where: string): number {
  if (t >= EARLIEST_TIMESTAMP && t < LATEST_TIMESTAMP) return t;
  const unit = (
    [
      ['milliseconds', 1e3],
      ['microseconds', 1e6],
      ['nanoseconds', 1e9],
    ] as const
  ).find(([, per]) => t / per >= 946_684_800 && t / per < LATEST_TIMESTAMP);
  throw new MeasurementError(
    where,
    `timestamp ${JSON.stringify(raw)} is outside 1970-01-01 to 2100-01-01: timestamps are Unix seconds from ${EARLIEST_TIMESTAMP} to below ${LATEST_TIMESTAMP}` +
      (unit ? ` (this looks like ${unit[0]}; divide by ${unit[1]})` : ''),
  );
}

function sampleTime(raw: unknown, where: string): number {
  const t = decimalOf(raw);
  if (!Number.isFinite(t)) throw new MeasurementError(where, `${JSON.stringify(raw)} is not a Unix timestamp in seconds`);
  return inRange(t, raw, where);
}

function pushInOrder(series: MeasuredSeries, t: number, v: number, where: string): void {
  const before = series.t.length ? series.t[series.t.length - 1] : undefined;
  if (before !== undefined && t <= before) {
    throw new MeasurementError(where, `timestamp ${t} is not after the one before it (${before}): samples must be in time order, each timestamp once`);
  }
  series.t.push(t);
  series.v.push(v);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function labelsOf(raw: unknown, where: string): Record<string, string> {
  if (raw === undefined) return {};
  if (!isRecord(raw)) throw new MeasurementError(where, 'must be an object of label names and values');
  const labels: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== 'string') throw new MeasurementError(`${where}.${name}`, 'a label value must be a string');
    labels[name] = value;
  }
  return labels;
}

function seriesOf(raw: unknown, where: string): MeasuredSeries {
  if (!isRecord(raw)) throw new MeasurementError(where, 'must be an object with metric and values');
  const series: MeasuredSeries = { labels: labelsOf(raw.metric, `${where}.metric`), t: [], v: [] };
  const values = raw.values;
  if (!Array.isArray(values)) {
    const hint = raw.value !== undefined ? ' (this is an instant query; use /api/v1/query_range)' : '';
    throw new MeasurementError(`${where}.values`, `must be a list of [timestamp, "value"] pairs${hint}`);
  }
  for (let i = 0; i < values.length; i++) {
    const pair: unknown = values[i];
    const at = `${where}.values[${i}]`;
    if (!Array.isArray(pair) || pair.length !== 2) throw new MeasurementError(at, 'must be a [timestamp, "value"] pair');
    pushInOrder(series, sampleTime(pair[0], `${at}[0]`), sampleValue(pair[1], `${at}[1]`), `${at}[0]`);
  }
  return series;
}

/**
 * The series of a range-query answer: the whole answer (`{"status":"success","data":{...}}`) or
 * its `data`. The text is parsed here, in the estimate worker, never on the request thread.
 */
export function parsePrometheusMatrix(text: string): MeasuredSeries[] {
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch (error) {
    throw new MeasurementError('', `is not JSON: ${(error as Error).message}`);
  }
  if (!isRecord(answer)) throw new MeasurementError('', 'must be the JSON object Prometheus answers to /api/v1/query_range');
  if (answer.status !== undefined && answer.status !== 'success') {
    throw new MeasurementError(
      'status',
      `is ${JSON.stringify(answer.status)}: the query failed (${typeof answer.error === 'string' ? answer.error.slice(0, 200) : 'no error text'})`,
    );
  }
  const data = answer.data === undefined ? answer : answer.data;
  const prefix = answer.data === undefined ? '' : 'data.';
  if (!isRecord(data)) throw new MeasurementError('data', 'must be an object with resultType and result');
  if (data.resultType !== 'matrix') {
    throw new MeasurementError(
      `${prefix}resultType`,
      `is ${JSON.stringify(data.resultType)}; a range query's answer is "matrix" (ask /api/v1/query_range, not /api/v1/query)`,
    );
  }
  if (!Array.isArray(data.result)) throw new MeasurementError(`${prefix}result`, 'must be a list of series');
  const result: unknown[] = data.result;
  const series = result.map((raw, i) => seriesOf(raw, `${prefix}result[${i}]`));
  // Prometheus answers each label set once; a repeat would be summed (traffic) or weighed twice.
  const seen = new Map<string, number>();
  series.forEach((s, i) => {
    const key = JSON.stringify(Object.entries(s.labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const first = seen.get(key);
    if (first !== undefined) {
      throw new MeasurementError(
        `${prefix}result[${i}]`,
        `has the same labels as result[${first}] (${key.slice(0, 120)}): Prometheus answers each series once; send each series once`,
      );
    }
    seen.set(key, i);
  });
  return series;
}

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-](\d{2}):(\d{2}))$/;

/**
 * A CSV timestamp: Unix seconds, or an ISO 8601 date-time with its offset (2026-11-02T14:00:00Z).
 * Date.parse rolls impossible dates over (2026-02-30 becomes 2026-03-02), so each part is checked first.
 */
function csvTime(raw: string, where: string): number {
  if (/^\d+(\.\d+)?$/.test(raw)) return inRange(Number(raw), raw, where);
  const iso = ISO_DATE_TIME.exec(raw);
  if (iso) {
    const [year, month, day, hour, minute, second = 0] = iso.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part)));
    const [offsetHours = 0, offsetMinutes = 0] = iso.slice(9, 11).map((part) => (part === undefined ? undefined : Number(part)));
    const daysInMonth = new Date(Date.UTC(year ?? 0, month ?? 0, 0)).getUTCDate();
    let impossible: string | undefined;
    if (month === undefined || month < 1 || month > 12) impossible = 'month';
    else if (day === undefined || day < 1 || day > daysInMonth) impossible = `day ${day} in that month (it has ${daysInMonth})`;
    else if ((hour ?? 0) > 23 || (minute ?? 0) > 59 || second > 59) impossible = 'time of day';
    else if (offsetHours > 23 || offsetMinutes > 59) impossible = 'offset';
    if (impossible) throw new MeasurementError(where, `${JSON.stringify(raw.slice(0, 40))} is not a date-time: there is no such ${impossible}`);
    const ms = Date.parse(raw);
    if (Number.isFinite(ms)) return inRange(ms / 1000, raw, where);
  }
  throw new MeasurementError(where, `${JSON.stringify(raw.slice(0, 40))} is neither Unix seconds nor an ISO 8601 date-time with its offset`);
}

/** A header cell: a name (timestamp, value, time, gpu_util), not a number or a date. */
const NAME = /^[A-Za-z_]/;

/**
 * `timestamp,value` per line; an optional header line (`timestamp,value`: two names); one series.
 * Read by csv-parse: quoted cells ("…", "" for a quote), LF or CRLF line ends, blank lines skipped,
 * cells trimmed. Every refusal names the line.
 */
export function parseCsv(text: string): MeasuredSeries[] {
  let records: string[][];
  try {
    // Blank lines are kept, as [""], to count lines: csv-parse's `info` would, at thrice the time.
    records = parseCsvText(text, {
      bom: true,
      trim: true,
      relax_column_count: true, // counted below, with the line's own message
      // Not a lone CR: sampleCountUpperBound bounds the samples by the count of LF.
      record_delimiter: ['\r\n', '\n'],
    });
  } catch (error) {
    throw csvRefusal(error);
  }
  const series: MeasuredSeries = { labels: {}, t: [], v: [] };
  let line = 0;
  let first = true;
  for (const record of records) {
    line++;
    const where = `line ${line}`;
    // A quoted cell may hold line ends; the record's next line is after them.
    for (const cell of record) for (let at = cell.indexOf('\n'); at !== -1; at = cell.indexOf('\n', at + 1)) line++;
    if (record.length === 1 && record[0] === '') continue; // a blank line
    if (record.length !== 2) throw new MeasurementError(where, `has ${record.length} cell${record.length === 1 ? '' : 's'}; each line is timestamp,value`);
    const time = (record[0] ?? '').trim(); // also inside quotes
    const value = (record[1] ?? '').trim();
    if (first && NAME.test(time) && NAME.test(value)) {
      first = false;
      continue; // the header
    }
    first = false;
    pushInOrder(series, csvTime(time, where), sampleValue(value, where), where);
  }
  if (series.t.length === 0) throw new MeasurementError('', 'holds no sample');
  return [series];
}

/** csv-parse's refusal as a MeasurementError naming the line. */
function csvRefusal(error: unknown): MeasurementError {
  if (!(error instanceof CsvError)) return new MeasurementError('', `is not CSV: ${(error as Error).message}`);
  const line = (error as CsvError & { lines?: number }).lines;
  const where = line === undefined ? '' : `line ${line}`;
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new MeasurementError(where, 'the text ends inside a quoted cell: a quote (") is not closed');
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return new MeasurementError(where, 'a quoted cell must end at its closing quote ("), before the comma or the line end');
    case 'INVALID_OPENING_QUOTE':
      return new MeasurementError(where, 'has a quote (") inside an unquoted cell; quote the whole cell and double the quotes in it');
    default:
      return new MeasurementError(where, `is not CSV: ${error.message}`);
  }
}
