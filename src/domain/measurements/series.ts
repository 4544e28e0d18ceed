// Measured time series as a team exports them: the JSON answer of Prometheus' range query
// (/api/v1/query_range, resultType "matrix") or a CSV of `timestamp,value` lines. Parsed strictly:
// a value that is not a finite number, a timestamp that is not after the one before, a result of
// another type, are refused with the place they were found (docs/measurements.md).

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

/** A Prometheus value: the sample text ("42", "1e3"), refused when NaN, ±Inf or not a number at all. */
function sampleValue(raw: unknown, where: string): number {
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : typeof raw === 'number' ? raw : NaN;
  if (!Number.isFinite(n)) throw new MeasurementError(where, `${JSON.stringify(raw)} is not a finite number (NaN and ±Inf are not measurements)`);
  return n;
}

function sampleTime(raw: unknown, where: string): number {
  const t = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(t) || t < 0) throw new MeasurementError(where, `${JSON.stringify(raw)} is not a Unix timestamp in seconds`);
  return t;
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
  return result.map((raw, i) => seriesOf(raw, `${prefix}result[${i}]`));
}

/** A CSV timestamp: Unix seconds, or an ISO 8601 date-time with its offset (2026-11-02T14:00:00Z). */
function csvTime(raw: string, where: string): number {
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw)) {
    const ms = Date.parse(raw);
    if (Number.isFinite(ms)) return ms / 1000;
  }
  throw new MeasurementError(where, `${JSON.stringify(raw.slice(0, 40))} is neither Unix seconds nor an ISO 8601 date-time with its offset`);
}

/** `timestamp,value` per line; an optional header line (`timestamp,value`); one series. */
export function parseCsv(text: string): MeasuredSeries[] {
  const series: MeasuredSeries = { labels: {}, t: [], v: [] };
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '') continue;
    const where = `line ${i + 1}`;
    const cells = line.split(',');
    if (cells.length !== 2) throw new MeasurementError(where, `has ${cells.length} cells; each line is timestamp,value`);
    const [time = '', value = ''] = cells.map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
    if (series.t.length === 0 && i === firstLine(lines) && !/^[\d.]/.test(time)) continue; // the header
    pushInOrder(series, csvTime(time, where), sampleValue(value, where), where);
  }
  if (series.t.length === 0) throw new MeasurementError('', 'holds no sample');
  return [series];
}

function firstLine(lines: string[]): number {
  return lines.findIndex((l) => l.trim() !== '');
}
