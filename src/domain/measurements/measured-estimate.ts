// An estimate from measurements (docs/measurements.md): the traffic's demand profile becomes the
// workload's weeklyProfile, the plan is made as for a typed-in profile, and the current fleet is
// priced beside it: its monthly cost at list price, the idle GPU-hours its utilization shows, what
// they cost ("waste"), and what the plan would save. Runs in the estimate worker.
import type { PricingModel } from '../catalog/catalog.types.js';
import { estimateInferenceCost, type EstimateInput, type EstimateOutcome } from '../cost-model/index.js';
import { Decimal, money, type Money } from '../money/money.js';
import {
  analyzeMemory,
  analyzeTraffic,
  analyzeUtilization,
  FULL_WEEK_DAYS,
  hourOfWeekIn,
  type MemoryAnalysis,
  type SeriesKind,
  type TrafficAnalysis,
  type TrafficUnit,
  type UtilizationAnalysis,
} from './analyze.js';
import { MeasurementError, parseMeasurementText, type MeasuredSeries } from './series.js';

export type MeasurementFormat = 'PROMETHEUS' | 'CSV';

/** A text parsed before the estimate (in the worker that read its body): its series, or its refusal. */
export type ParsedText = { series: MeasuredSeries[] } | { error: MeasurementError };

/** One measurement as text, and the API field it came from (for errors). */
export interface MeasurementText {
  format: MeasurementFormat;
  text: string;
  field: string;
  /** When the text was parsed ahead (`text` is then its token): what parsing it gave, reported here as if parsed now. */
  parsed?: ParsedText;
  /** sampleCountUpperBound of the text, when counted ahead. */
  samples?: number;
}

/** The current fleet, priced by the service from the catalog version (list price, estimate currency). */
export interface FleetPricing {
  gpu: string;
  count: number;
  pricingModel: PricingModel;
  provider: string;
  region: string;
  offerRef: string;
  pricePerGpuHour: Decimal;
}

export interface MeasurementsInput {
  traffic?: MeasurementText & { unit: TrafficUnit; kind?: SeriesKind };
  utilization?: MeasurementText;
  memoryUsed?: MeasurementText;
  /** IANA zone for the hour of the week. */
  timezone: string;
  /** Sizes each hour of the profile: this percentile of its traffic samples. */
  percentile: number;
  /** The largest GPU memory of the catalog version, GiB: memory samples above it are refused. */
  maxGpuMemoryGib?: number;
  fleet?: FleetPricing;
}

export interface FleetAssessment {
  gpu: string;
  count: number;
  pricingModel: PricingModel;
  provider: string;
  region: string;
  offerRef: string;
  pricePerGpuHour: Money;
  monthlyCost: Money;
  /** GPU-hours per month the GPUs sat idle: count × hours × (1 − mean utilization); null without a utilization measurement. */
  idleGpuHours: number | null;
  /** What those idle hours cost at the fleet's list price; null without a utilization measurement. */
  waste: Money | null;
  /** The fleet's monthly cost minus the plan's GPU cost (egress is the same either way). */
  saving: Money;
  savingPct: number;
}

export interface MeasuredSummary {
  timezone: string;
  percentile: number;
  traffic: TrafficAnalysis | null;
  utilization: UtilizationAnalysis | null;
  memoryUsed: MemoryAnalysis | null;
  fleet: FleetAssessment | null;
}

export type MeasuredOutcome = EstimateOutcome & { measured?: MeasuredSummary };

function seriesOf(m: MeasurementText): MeasuredSeries[] {
  try {
    if (!m.parsed) return parseMeasurementText(m.text, m.format);
    if ('error' in m.parsed) throw m.parsed.error;
    return m.parsed.series;
  } catch (error) {
    throw located(error, m.field);
  }
}

/** A MeasurementError placed at its API field, the place inside the text first in the message. */
function located(error: unknown, field: string): unknown {
  if (!(error instanceof MeasurementError)) return error;
  const inside = error.field && !error.field.startsWith('measurements.') ? `${error.field}: ` : '';
  return new MeasurementError(error.field.startsWith('measurements.') ? error.field : field, `${inside}${error.message}`);
}

function analyze(m: MeasurementsInput, avgOutputTokens: number): Omit<MeasuredSummary, 'fleet'> {
  const hourOfWeek = hourOfWeekIn(m.timezone);
  const run = <T>(text: MeasurementText | undefined, f: (series: MeasuredSeries[], field: string) => T): T | null => {
    if (!text) return null;
    try {
      return f(seriesOf(text), text.field);
    } catch (error) {
      throw located(error, text.field);
    }
  };
  const t = m.traffic;
  return {
    timezone: m.timezone,
    percentile: m.percentile,
    traffic: run(t, (series, field) =>
      analyzeTraffic(series, { unit: t?.unit ?? 'REQUESTS_PER_SECOND', kind: t?.kind, percentile: m.percentile, hourOfWeek, avgOutputTokens, field }),
    ),
    utilization: run(m.utilization, (series, field) => analyzeUtilization(series, { hourOfWeek, field })),
    memoryUsed: run(m.memoryUsed, (series, field) => analyzeMemory(series, field, m.maxGpuMemoryGib)),
  };
}

function assessFleet(fleet: FleetPricing, utilization: UtilizationAnalysis | null, planGpuCost: Money, hoursPerMonth: number): FleetAssessment {
  const currency = planGpuCost.currency;
  const gpuHours = new Decimal(fleet.count).mul(hoursPerMonth);
  const monthlyCost = gpuHours.mul(fleet.pricePerGpuHour);
  const idle = utilization ? gpuHours.mul(new Decimal(100).minus(utilization.meanPct).div(100)) : null;
  const saving = monthlyCost.minus(planGpuCost.amount);
  return {
    ...fleet,
    pricePerGpuHour: money(fleet.pricePerGpuHour, currency),
    monthlyCost: money(monthlyCost, currency),
    idleGpuHours: idle ? idle.toNumber() : null,
    waste: idle ? money(idle.mul(fleet.pricePerGpuHour), currency) : null,
    saving: money(saving, currency),
    savingPct: monthlyCost.isZero() ? 0 : saving.div(monthlyCost).mul(100).toNumber(),
  };
}

function warningsFor(summary: Omit<MeasuredSummary, 'fleet'>): string[] {
  const warnings: string[] = [];
  for (const [name, m] of [
    ['traffic', summary.traffic],
    ['utilization', summary.utilization],
  ] as const) {
    if (!m) continue;
    if (m.days < FULL_WEEK_DAYS) {
      warnings.push(
        `The ${name} measurement spans ${m.days.toFixed(1)} days, less than a week: hours of the week it did not see are filled from the same hour of other days.`,
      );
    }
    if (m.coveragePct < 95)
      warnings.push(`The ${name} measurement covers ${m.coveragePct.toFixed(1)}% of its window (${m.gaps} gaps): the missing time is not counted.`);
  }
  return warnings;
}

/** The estimate with measurements: invalid measurements are INVALID_INPUT naming their field. */
export function estimateFromMeasurements(input: EstimateInput, measurements: MeasurementsInput): MeasuredOutcome {
  let summary: Omit<MeasuredSummary, 'fleet'>;
  try {
    summary = analyze(measurements, input.workload.avgOutputTokens);
  } catch (error) {
    if (error instanceof MeasurementError) return { kind: 'INVALID_INPUT', field: error.field, reason: error.message };
    throw error;
  }
  const traffic = summary.traffic;
  const workload = traffic ? { ...input.workload, hourlyProfile: undefined, requestsPerSecond: undefined, weeklyProfile: traffic.profile } : input.workload;
  const outcome = estimateInferenceCost({ ...input, workload });
  if (outcome.kind !== 'OK') return outcome;
  const planned = outcome.estimate;
  const fleet = measurements.fleet ? assessFleet(measurements.fleet, summary.utilization, planned.gpuCost, planned.hoursPerMonth) : null;
  const demand = traffic
    ? [
        `Demand from measured traffic: the p${measurements.percentile} of each hour of the week (${measurements.timezone}), ` +
          `${traffic.samples.toLocaleString('en-US')} samples over ${traffic.days.toFixed(1)} days.`,
      ]
    : [];
  const estimate = { ...planned, warnings: [...planned.warnings, ...warningsFor(summary)], assumptions: [...planned.assumptions, ...demand] };
  return { ...outcome, estimate, measured: { ...summary, fleet } };
}
