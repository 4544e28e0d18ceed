// The `measurements` of an estimate (docs/measurements.md): measured traffic and GPU utilization as
// text (the JSON answer of Prometheus' /api/v1/query_range, or a CSV of timestamp,value), or, with
// PROMETHEUS_URL set, a PromQL query the service runs; and the current fleet, to price it.
import { InputType, registerEnumType } from '@nestjs/graphql';
import { PRICING_MODELS, type PricingModel } from '../../../domain/catalog/catalog.types.js';
import { SERIES_KINDS, TRAFFIC_UNITS, type SeriesKind, type TrafficUnit } from '../../../domain/measurements/index.js';
import { MEASUREMENT_BOUNDS, MEASUREMENT_TEXT, NAME } from '../../../common/inputs/input-bounds.js';
import { ExactlyOneOf, field, InputField } from '../../../common/inputs/input-field.js';
import { asEnum, PricingModelEnum } from '../../../common/models/enums.js';

export const TrafficUnitEnum = asEnum(TRAFFIC_UNITS);
export const SeriesKindEnum = asEnum(SERIES_KINDS);
registerEnumType(TrafficUnitEnum, { name: 'TrafficUnit', description: 'What a traffic series counts' });
registerEnumType(SeriesKindEnum, { name: 'SeriesKind', description: 'RATE: values per second; COUNTER: a monotonic total (resets allowed)' });

@InputType('PrometheusQueryInput', { description: 'A range query the service runs against PROMETHEUS_URL (read-only)' })
export class PrometheusQueryInput {
  @InputField(
    field.string({ ...MEASUREMENT_BOUNDS.promql, required: true, example: 'sum(rate(vllm:request_success_total[5m]))', description: 'The PromQL expression' }),
  )
  promql: string;

  @InputField(field.string({ ...MEASUREMENT_BOUNDS.duration, required: true, example: '14d', description: 'How far back from `end` (at most 90d)' }))
  range: string;

  @InputField(field.string({ ...MEASUREMENT_BOUNDS.duration, default: '5m', description: 'Resolution step (at most 1h)' }))
  step?: string;

  @InputField(field.dateTime({ description: 'End of the range (default: now, rounded down to the step)' }))
  end?: Date;
}

const PROMETHEUS_TEXT = 'The JSON answer of /api/v1/query_range (resultType matrix), as text';
const CSV_TEXT = 'Lines of timestamp,value (Unix seconds or ISO 8601 with offset), an optional header line';

@ExactlyOneOf('prometheus', 'csv', 'query')
@InputType('MeasuredSeriesInput', { description: 'One measurement: exactly one of prometheus, csv and query' })
export class MeasuredSeriesInput {
  @InputField(field.string({ ...MEASUREMENT_TEXT, description: PROMETHEUS_TEXT })) prometheus?: string;
  @InputField(field.string({ ...MEASUREMENT_TEXT, description: CSV_TEXT })) csv?: string;
  @InputField(field.object(() => PrometheusQueryInput, { description: 'Run this range query against PROMETHEUS_URL instead' })) query?: PrometheusQueryInput;
}

@ExactlyOneOf('prometheus', 'csv', 'query')
@InputType('MeasuredTrafficInput', { description: 'Measured traffic: exactly one of prometheus, csv and query; several series are summed' })
export class MeasuredTrafficInput {
  @InputField(field.string({ ...MEASUREMENT_TEXT, description: PROMETHEUS_TEXT })) prometheus?: string;
  @InputField(field.string({ ...MEASUREMENT_TEXT, description: CSV_TEXT })) csv?: string;
  @InputField(field.object(() => PrometheusQueryInput, { description: 'Run this range query against PROMETHEUS_URL instead' })) query?: PrometheusQueryInput;

  @InputField(
    field.enum<TrafficUnit>(TRAFFIC_UNITS, TrafficUnitEnum, {
      default: 'REQUESTS_PER_SECOND',
      description: 'Output tokens/s are divided by workload.avgOutputTokens',
    }),
  )
  unit?: TrafficUnit;

  @InputField(field.enum<SeriesKind>(SERIES_KINDS, SeriesKindEnum, { description: 'Default: COUNTER when every series is named *_total, else RATE' }))
  kind?: SeriesKind;
}

@InputType('FleetInput', { description: 'The GPUs running today, priced at list price from the catalog version' })
export class FleetInput {
  @InputField(field.string({ ...NAME, required: true, example: 'h100-80gb', description: 'GPU slug' })) gpu: string;
  @InputField(field.int({ ...MEASUREMENT_BOUNDS.fleetCount, required: true, example: 8, description: 'GPUs in the fleet' })) count: number;
  @InputField(field.enum<PricingModel>(PRICING_MODELS, PricingModelEnum, { default: 'ON_DEMAND', description: 'How the fleet is bought' }))
  pricingModel?: PricingModel;
  @InputField(field.string({ ...NAME, required: true, example: 'aws', description: 'Provider slug' })) provider: string;
  @InputField(field.string({ ...NAME, required: true, example: 'aws:eu-central-1', description: 'Region code' })) region: string;
}

@InputType('MeasurementsInput', { description: 'Measured traffic and GPU utilization, and the current fleet (docs/measurements.md)' })
export class MeasurementsInput {
  @InputField(field.object(() => MeasuredTrafficInput, { description: "Requests/s or output tokens/s; the plan's demand profile is derived from it" }))
  traffic?: MeasuredTrafficInput;

  @InputField(field.object(() => MeasuredSeriesInput, { description: 'DCGM_FI_DEV_GPU_UTIL of the current fleet, one series per GPU, percent' }))
  utilization?: MeasuredSeriesInput;

  @InputField(field.object(() => MeasuredSeriesInput, { description: 'DCGM_FI_DEV_FB_USED of the current fleet, one series per GPU, MiB' }))
  memoryUsed?: MeasuredSeriesInput;

  @InputField(field.object(() => FleetInput, { description: 'The current fleet, to price it and its idle hours' }))
  fleet?: FleetInput;

  @InputField(field.string({ ...MEASUREMENT_BOUNDS.timezone, default: 'UTC', description: 'IANA time zone for the hour of the week' }))
  timezone?: string;

  @InputField(field.number({ ...MEASUREMENT_BOUNDS.percentile, description: 'Each hour of the profile is sized on this percentile of its traffic samples' }))
  percentile?: number;
}
