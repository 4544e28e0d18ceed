// What a team's own metrics say (docs/measurements.md): the demand profile of an average week from
// measured traffic, sized on a percentile of each hour; and how busy the current GPUs were, overall
// and per hour of the week. Steps from seconds to an hour, gaps, counter resets and series shorter
// than a week are handled and reported, never papered over.
import { hourOfWeekIn, HOURS_PER_WEEK, type HourOfWeek } from './hour-of-week.js';
import { MeasurementError, type MeasuredSeries } from './series.js';

const SECONDS_PER_DAY = 86_400;
/** The longest step a measurement may have: the plan is made per hour. */
export const MAX_STEP_SECONDS = 3600;
/** Consecutive samples further apart than this many steps leave a gap. */
const GAP_STEPS = 1.5;
/** A measurement shorter than this is answered with a warning: a week's pattern is not all seen. */
export const FULL_WEEK_DAYS = 7;

export const TRAFFIC_UNITS = ['REQUESTS_PER_SECOND', 'OUTPUT_TOKENS_PER_SECOND'] as const;
export type TrafficUnit = (typeof TRAFFIC_UNITS)[number];
export const SERIES_KINDS = ['RATE', 'COUNTER'] as const;
export type SeriesKind = (typeof SERIES_KINDS)[number];

/** How much of its window a measurement covers. */
export interface Coverage {
  series: number;
  samples: number;
  /** The median spacing of samples. */
  stepSeconds: number;
  /** Unix seconds: the first sample, and the last sample plus one step. */
  from: number;
  to: number;
  days: number;
  /** Sample-time held / (series × window), percent. */
  coveragePct: number;
  /** Places where consecutive samples are more than 1.5 steps apart. */
  gaps: number;
}

/** The value at rank ceil(p/100 · n) of the sorted values (nearest rank); p in (0, 100]. */
export function nearestRank(values: readonly number[], percentile: number): number {
  if (values.length === 0) throw new RangeError('no values');
  const sorted = Float64Array.from(values).sort();
  const rank = Math.max(1, Math.ceil((percentile / 100) * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}

function median(values: number[]): number {
  return nearestRank(values, 50);
}

function stepOf(series: MeasuredSeries): number | null {
  const diffs: number[] = [];
  for (let i = 1; i < series.t.length; i++) diffs.push((series.t[i] ?? 0) - (series.t[i - 1] ?? 0));
  return diffs.length ? median(diffs) : null;
}

/** The step of each series (a one-sample series takes the median of the others'); refused over an hour. */
export function seriesSteps(series: readonly MeasuredSeries[]): number[] {
  if (series.length === 0 || series.every((s) => s.t.length === 0)) throw new MeasurementError('', 'holds no sample');
  const own = series.map(stepOf);
  const known = own.filter((s): s is number => s !== null);
  if (known.length === 0) throw new MeasurementError('', 'needs at least two samples in a series to know its step');
  const fallback = median(known);
  const steps = own.map((s) => s ?? fallback);
  const longest = Math.max(...steps);
  if (longest > MAX_STEP_SECONDS) {
    throw new MeasurementError('', `has a step of ${longest} s; the plan is made per hour, so query with a step of 1h or less (5m is usual)`);
  }
  return steps;
}

export function coverageOf(series: readonly MeasuredSeries[], steps: readonly number[]): Coverage {
  let from = Infinity;
  let to = -Infinity;
  let samples = 0;
  let gaps = 0;
  let held = 0;
  series.forEach((s, k) => {
    const step = steps[k] ?? 0;
    if (s.t.length === 0) return;
    from = Math.min(from, s.t[0] ?? from);
    to = Math.max(to, (s.t[s.t.length - 1] ?? to) + step);
    samples += s.t.length;
    held += step;
    for (let i = 1; i < s.t.length; i++) {
      const dt = (s.t[i] ?? 0) - (s.t[i - 1] ?? 0);
      if (dt > GAP_STEPS * step) gaps++;
      held += Math.min(dt, step);
    }
  });
  const window = to - from;
  return {
    series: series.length,
    samples,
    stepSeconds: median([...steps]),
    from,
    to,
    days: window / SECONDS_PER_DAY,
    coveragePct: Math.min(100, (100 * held) / (series.length * window)),
    gaps,
  };
}

/**
 * A counter's rate between consecutive samples, as Prometheus' rate() counts it: a value below the
 * one before is a reset, and the increase is the new value (counted from zero). Pairs across a gap
 * give no rate: how the traffic was spread over the gap is not known.
 */
export function counterRates(series: MeasuredSeries, step: number, field: string): { rates: MeasuredSeries; resets: number } {
  const rates: MeasuredSeries = { labels: series.labels, t: [], v: [] };
  let resets = 0;
  for (let i = 1; i < series.t.length; i++) {
    const t = series.t[i] ?? 0;
    const v = series.v[i] ?? 0;
    const before = series.v[i - 1] ?? 0;
    if (v < 0) throw new MeasurementError(field, `a counter cannot be negative (${v} at ${t})`);
    const dt = t - (series.t[i - 1] ?? 0);
    const increase = v >= before ? v - before : v;
    if (v < before) resets++;
    if (dt > GAP_STEPS * step) continue;
    rates.t.push(t);
    rates.v.push(increase / dt);
  }
  return { rates, resets };
}

/** Sums the series sample by sample (series of one query share their timestamps). */
function totalsByTime(series: readonly MeasuredSeries[]): { t: number; v: number }[] {
  const totals = new Map<number, number>();
  for (const s of series) s.t.forEach((t, i) => totals.set(t, (totals.get(t) ?? 0) + (s.v[i] ?? 0)));
  return [...totals].map(([t, v]) => ({ t, v })).sort((a, b) => a.t - b.t);
}

/** Per hour of the week, the given percentile of its values; an hour without values takes the same hour of the other days, else all values. */
function percentileProfile(cells: number[][], percentile: number): { profile: number[]; filledHours: number } {
  const all = cells.flat();
  let filledHours = 0;
  const profile = cells.map((cell, hour) => {
    if (cell.length) return nearestRank(cell, percentile);
    filledHours++;
    const sameHour = cells.filter((_, h) => h % 24 === hour % 24).flat();
    return nearestRank(sameHour.length ? sameHour : all, percentile);
  });
  return { profile, filledHours };
}

export interface TrafficAnalysis extends Coverage {
  unit: TrafficUnit;
  kind: SeriesKind;
  counterResets: number;
  percentile: number;
  /** Requests/s per hour of an average week, Monday 00:00 (in the zone) first: the plan's input. */
  profile: number[];
  /** Hours of the week without a sample, filled from the same hour of other days. */
  filledHours: number;
}

export function analyzeTraffic(
  series: readonly MeasuredSeries[],
  options: { unit: TrafficUnit; kind?: SeriesKind; percentile: number; hourOfWeek: HourOfWeek; avgOutputTokens: number; field: string },
): TrafficAnalysis {
  const steps = seriesSteps(series);
  const coverage = coverageOf(series, steps);
  // A counter by name (Prometheus' convention: `_total`), unless the caller says which it is.
  const kind = options.kind ?? (series.every((s) => (s.labels.__name__ ?? '').endsWith('_total') && s.labels.__name__ !== undefined) ? 'COUNTER' : 'RATE');
  let counterResets = 0;
  const rateSeries = series.map((s, k) => {
    if (kind === 'RATE') {
      const negative = s.v.findIndex((v) => v < 0);
      if (negative >= 0)
        throw new MeasurementError(options.field, `a rate cannot be negative (${s.v[negative]} at ${s.t[negative]}); is this a counter? say kind: COUNTER`);
      return s;
    }
    const { rates, resets } = counterRates(s, steps[k] ?? 0, options.field);
    counterResets += resets;
    return rates;
  });
  // Output tokens/s become requests/s at the workload's output tokens per request.
  const perRequest = options.unit === 'OUTPUT_TOKENS_PER_SECOND' ? options.avgOutputTokens : 1;
  const cells = Array.from({ length: HOURS_PER_WEEK }, () => [] as number[]);
  for (const { t, v } of totalsByTime(rateSeries)) cells[options.hourOfWeek(t)]?.push(v / perRequest);
  if (cells.every((c) => c.length === 0)) throw new MeasurementError(options.field, 'leaves no rate: a counter needs two samples a step apart');
  const { profile, filledHours } = percentileProfile(cells, options.percentile);
  return { ...coverage, unit: options.unit, kind, counterResets, percentile: options.percentile, profile, filledHours };
}

export interface UtilizationAnalysis extends Coverage {
  /** Time-weighted mean of DCGM_FI_DEV_GPU_UTIL over every GPU and sample, percent. */
  meanPct: number;
  p95Pct: number;
  /** Mean utilization per hour of the week (Monday 00:00 in the zone first); null: no sample in that hour. */
  byHourOfWeek: (number | null)[];
}

export function analyzeUtilization(series: readonly MeasuredSeries[], options: { hourOfWeek: HourOfWeek; field: string }): UtilizationAnalysis {
  const steps = seriesSteps(series);
  const coverage = coverageOf(series, steps);
  const sum = new Float64Array(HOURS_PER_WEEK);
  const weight = new Float64Array(HOURS_PER_WEEK);
  const all: number[] = [];
  let total = 0;
  let totalWeight = 0;
  series.forEach((s, k) => {
    const w = steps[k] ?? 0;
    s.v.forEach((v, i) => {
      if (v < 0 || v > 100) throw new MeasurementError(options.field, `GPU utilization is a percentage from 0 to 100; ${v} at ${s.t[i]} is not`);
      const hour = options.hourOfWeek(s.t[i] ?? 0);
      sum[hour] = (sum[hour] ?? 0) + v * w;
      weight[hour] = (weight[hour] ?? 0) + w;
      total += v * w;
      totalWeight += w;
      all.push(v);
    });
  });
  const byHourOfWeek = Array.from(sum, (s, h) => ((weight[h] ?? 0) > 0 ? s / (weight[h] ?? 1) : null));
  return { ...coverage, meanPct: total / totalWeight, p95Pct: nearestRank(all, 95), byHourOfWeek };
}

export interface MemoryAnalysis extends Coverage {
  /** DCGM_FI_DEV_FB_USED: the most any GPU used, and the 95th percentile, GiB. */
  maxGib: number;
  p95Gib: number;
}

/**
 * `maxGib`: the most memory a GPU can hold (the catalog's largest): a sample above it is not a
 * GPU's framebuffer and is refused, as a negative one is.
 */
export function analyzeMemory(series: readonly MeasuredSeries[], field: string, maxGib = Infinity): MemoryAnalysis {
  const steps = seriesSteps(series);
  const all = series.flatMap((s) => s.v);
  const negative = all.find((v) => v < 0);
  if (negative !== undefined) throw new MeasurementError(field, `memory used cannot be negative (${negative})`);
  const tooMuch = all.find((v) => v > maxGib * 1024);
  if (tooMuch !== undefined) {
    throw new MeasurementError(
      field,
      `${tooMuch} MiB is more than the largest GPU holds (${maxGib} GiB = ${maxGib * 1024} MiB); DCGM_FI_DEV_FB_USED is in MiB`,
    );
  }
  // dcgm-exporter reports framebuffer memory in MiB.
  return { ...coverageOf(series, steps), maxGib: all.reduce((a, b) => Math.max(a, b), 0) / 1024, p95Gib: nearestRank(all, 95) / 1024 };
}

export { hourOfWeekIn };
