// The body of POST /v1/estimates and the GraphQL EstimateInput: one class for both, so both
// validate the same bounds (src/common/inputs/input-bounds.ts) and reach the same service.
import { InputType } from '@nestjs/graphql';
import type { Currency } from '../../../domain/catalog/catalog.types.js';
import { DEFAULT_SPOT_INTERRUPTIONS_PER_HOUR } from '../../../domain/cost-model/index.js';
import { PRECISIONS, type Precision } from '../../../domain/sizing/index.js';
import { DISCOUNTS, type DiscountInput } from '../../../common/inputs/discount.input.js';
import {
  ESTIMATE_BOUNDS,
  MEASURED_THROUGHPUT_BOUNDS,
  NAME,
  OWNED_BOUNDS,
  PRICE_PER_1M_TOKENS,
  PRICE_PER_GB,
  WORKLOAD_BOUNDS,
} from '../../../common/inputs/input-bounds.js';
import { AtLeastOneOf, AtMostOneOf, ExactlyOneOfOrInstead, field, InputField } from '../../../common/inputs/input-field.js';
import { registerEnumType } from '@nestjs/graphql';
import { OPTIMIZE_FOR, type OptimizeFor } from '../estimate-answer.js';

const OptimizeForEnum = Object.fromEntries(OPTIMIZE_FOR.map((v) => [v, v])) as Record<OptimizeFor, OptimizeFor>;
registerEnumType(OptimizeForEnum, { name: 'OptimizeFor', description: 'What the estimate minimizes: COST or CARBON (docs/carbon.md)' });
import { EstimateModelInput, MODEL } from '../../../common/inputs/model.input.js';
import { MeasurementsInput } from './measurements.input.js';
import { CompliancePolicyInput } from '../../../common/inputs/policy.input.js';
import { REQUIREMENT } from '../../../common/inputs/requirement.input.js';
import { CURRENCY, VERSION_SELECTOR } from '../../../common/inputs/version-selector.input.js';
import { PrecisionEnum } from '../../../common/models/policy-enums.js';

@AtMostOneOf('hourlyProfile', 'weeklyProfile', 'requestsPerSecond')
@InputType('WorkloadInput', {
  description: 'The traffic: exactly one of hourlyProfile, weeklyProfile and requestsPerSecond, or none of them with measurements.traffic',
})
export class WorkloadInput {
  @InputField(
    field.list(field.number({ ...WORKLOAD_BOUNDS.requestsPerSecond }), {
      ...WORKLOAD_BOUNDS.hourlyProfile,
      description: 'Requests/s per hour of an average day, hour 0 first (24 values); or give weeklyProfile or requestsPerSecond',
    }),
  )
  hourlyProfile?: number[];

  @InputField(
    field.list(field.number({ ...WORKLOAD_BOUNDS.requestsPerSecond }), {
      ...WORKLOAD_BOUNDS.weeklyProfile,
      description:
        'Requests/s per hour of an average week, Monday 00:00 first (168 values): weekdays and weekends planned as they are, reservations sized on the week; or give hourlyProfile or requestsPerSecond',
    }),
  )
  weeklyProfile?: number[];

  @InputField(field.number({ ...WORKLOAD_BOUNDS.requestsPerSecond, description: 'Flat rate, requests/s, instead of hourlyProfile or weeklyProfile' }))
  requestsPerSecond?: number;

  @InputField(field.int({ ...WORKLOAD_BOUNDS.tokens, required: true, example: 500, description: 'Input (prompt) tokens per request, on average' }))
  avgInputTokens: number;

  @InputField(field.int({ ...WORKLOAD_BOUNDS.tokens, required: true, example: 200, description: 'Output tokens per request, on average' }))
  avgOutputTokens: number;

  @InputField(field.number({ ...WORKLOAD_BOUNDS.batchShare, example: 0.15, description: 'Share of requests that are deferrable batch work' }))
  batchShare?: number;

  @InputField(field.number({ ...WORKLOAD_BOUNDS.interTokenLatencyMs, description: 'Latency target per output token, ms' }))
  interTokenLatencyMs?: number;

  @InputField(field.number({ ...WORKLOAD_BOUNDS.targetUtilization, description: 'Target utilization of online replicas' }))
  targetUtilization?: number;

  @InputField(field.int({ ...WORKLOAD_BOUNDS.minReplicas, description: 'Replicas kept running every hour' }))
  minReplicas?: number;

  @InputField(field.boolean({ default: false, description: 'Allow zero replicas in hours without online demand (cold starts are charged)' }))
  scaleToZero?: boolean;
}

@AtLeastOneOf('requestsPerSecond', 'outputTokensPerSecond')
@InputType('MeasuredThroughputInput', { description: 'Your own measurement per replica; replaces the roofline estimate' })
export class MeasuredThroughputInput {
  @InputField(field.string({ ...NAME, description: 'GPU slug it was measured on; default: every GPU' })) gpu?: string;
  @InputField({ ...MODEL.precision, description: 'Precision it was measured at; default: every precision' }) precision?: Precision;
  @InputField(field.number({ ...MEASURED_THROUGHPUT_BOUNDS.requestsPerSecond, description: 'Requests/s one replica serves' })) requestsPerSecond?: number;
  @InputField(field.number({ ...MEASURED_THROUGHPUT_BOUNDS.outputTokensPerSecond, description: 'Output tokens/s one replica produces' }))
  outputTokensPerSecond?: number;
}

// Power needs a price: the caller's, or the sourced one of a site (EstimatesService checks it too).
@AtLeastOneOf('electricityUsdPerKwh', 'site')
@InputType('OwnedInput', {
  description:
    'Price owning the base load in servers against renting it (docs/cost-model.md#rent-or-buy); prices in USD, sourced defaults where left out; ' +
    'give electricityUsdPerKwh or site (or both)',
})
export class OwnedInput {
  @InputField(
    field.decimal({
      ...OWNED_BOUNDS.serverPriceUsd,
      description: 'Purchase price of one server, USD (default: the sourced market price of an 8-GPU server of the plan’s GPU, where there is one)',
    }),
  )
  serverPriceUsd?: string;

  @InputField(
    field.string({
      ...OWNED_BOUNDS.site,
      description: 'Where the servers stand, a country (DE) or US state (US-VA) with a sourced electricity price; picks that price and the grid for carbon',
    }),
  )
  site?: string;

  @InputField(field.int({ ...OWNED_BOUNDS.gpusPerServer, description: 'GPUs in one server' }))
  gpusPerServer?: number;

  @InputField(field.number({ ...OWNED_BOUNDS.depreciationYears, description: 'Years the price is written off over' }))
  depreciationYears?: number;

  @InputField(field.number({ ...OWNED_BOUNDS.costOfCapitalPercent, description: 'Annual cost of capital, percent (0: straight-line depreciation)' }))
  costOfCapitalPercent?: number;

  @InputField(
    field.decimal({ ...OWNED_BOUNDS.electricityUsdPerKwh, description: 'Electricity price at the site, USD per kWh (default: the sourced price of `site`)' }),
  )
  electricityUsdPerKwh?: string;

  @InputField(
    field.decimal({
      ...OWNED_BOUNDS.colocationUsdPerKwMonth,
      description: 'Colocation, USD per kW of GPU board power per month (default: 200, the middle of a quoted 150-250)',
    }),
  )
  colocationUsdPerKwMonth?: string;

  @InputField(field.number({ ...OWNED_BOUNDS.operationsSharePercent, description: 'Operations (staff, support), percent of the server price per year' }))
  operationsSharePercent?: number;
}

@AtMostOneOf('version', 'asOf')
// A profile is required, unless measured traffic gives it (EstimatesService, checkProfile).
@ExactlyOneOfOrInstead('workload', ['hourlyProfile', 'weeklyProfile', 'requestsPerSecond'], 'measurements.traffic')
@InputType('EstimateInput', { description: 'An inference workload to price; version or asOf, not both' })
export class EstimateInput {
  @InputField(field.object(() => EstimateModelInput, { required: true }))
  model: EstimateModelInput;

  @InputField(field.object(() => WorkloadInput, { required: true }))
  workload: WorkloadInput;

  @InputField(field.object(() => CompliancePolicyInput, { description: 'Which offers may be used; tolerance also picks spot use' }))
  policy?: CompliancePolicyInput;

  @InputField(CURRENCY)
  currency?: Currency;

  @InputField({ ...REQUIREMENT.gpus, ...ESTIMATE_BOUNDS.gpus, description: 'Allowed GPU slugs (default: every GPU of the catalog)' })
  gpus?: string[];

  @InputField(
    field.list(field.enum<Precision>(PRECISIONS, PrecisionEnum), { ...ESTIMATE_BOUNDS.precisions, description: 'Allowed precisions (default: the model’s)' }),
  )
  precisions?: Precision[];

  @InputField(field.number({ ...ESTIMATE_BOUNDS.hoursPerMonth, description: 'Hours in a month' }))
  hoursPerMonth?: number;

  @InputField(field.number({ ...ESTIMATE_BOUNDS.recoverableSpotShare, description: 'RECOVERABLE: share of burst replicas on spot' }))
  recoverableSpotShare?: number;

  @InputField(
    field.number({
      ...ESTIMATE_BOUNDS.spotInterruptionsPerHour,
      description:
        `Expected spot interruptions per instance-hour, for every spot offer; default: from the offer's AWS Spot Instance Advisor band ` +
        `(interruptionRate) where it has an upper bound, else ${DEFAULT_SPOT_INTERRUPTIONS_PER_HOUR}`,
    }),
  )
  spotInterruptionsPerHour?: number;

  @InputField(field.number({ ...ESTIMATE_BOUNDS.modelLoadSeconds, description: 'Seconds from instance start to serving (default 60 s + weights at 1 GB/s)' }))
  modelLoadSeconds?: number;

  @InputField(field.number({ ...ESTIMATE_BOUNDS.egressGbPerMonth, description: 'Data sent out per month, GB (priced at the provider’s egress rate)' }))
  egressGbPerMonth?: number;

  @InputField(
    field.decimal({
      ...PRICE_PER_GB,
      description:
        'Egress price per GB, in `currency`, for providers without a known one (default: the dearest known price in the catalog version, so an unknown price never wins)',
    }),
  )
  egressPricePerGb?: string;

  @InputField(field.decimal({ ...PRICE_PER_1M_TOKENS, description: 'Compare with a hosted API at this price per 1M tokens, in `currency`' }))
  apiPricePer1MTokens?: string;

  @InputField(
    field.list(
      field.object(() => MeasuredThroughputInput),
      { ...MEASURED_THROUGHPUT_BOUNDS.list },
    ),
  )
  measuredThroughput?: MeasuredThroughputInput[];

  @InputField(
    field.object(() => MeasurementsInput, {
      description:
        'Measured traffic (the plan is made from its weekly profile: leave out workload.hourlyProfile, weeklyProfile and requestsPerSecond), GPU utilization and the current fleet',
    }),
  )
  measurements?: MeasurementsInput;

  @InputField(field.object(() => OwnedInput, { description: 'Compare owning the base load with renting it (docs/cost-model.md#rent-or-buy)' }))
  owned?: OwnedInput;

  @InputField(DISCOUNTS)
  discounts?: DiscountInput[];

  @InputField(field.int({ ...ESTIMATE_BOUNDS.maxAlternatives, description: 'How many alternative plans (other GPU or precision) to list' }))
  maxAlternatives?: number;

  @InputField(
    field.enum<OptimizeFor>(OPTIMIZE_FOR, OptimizeForEnum, {
      default: 'COST',
      description: 'COST: the cheapest plan; CARBON: the plan with the least g CO2e (from the cleanest compliant offers), docs/carbon.md',
    }),
  )
  optimizeFor?: OptimizeFor;

  @InputField(VERSION_SELECTOR.version) version?: string;
  @InputField(VERSION_SELECTOR.asOf) asOf?: Date;
}
