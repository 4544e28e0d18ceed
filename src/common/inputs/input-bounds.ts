// Every bound the API puts on an input, in one place. The input classes (src/common/inputs/,
// src/modules/*/dto/) take their numbers from here, and each number reaches class-validator, the
// OpenAPI document and the GraphQL schema through one field definition (input-field.ts).
//
// Where the domain has a rule, the bound is the domain's, imported or cited, so that what passes
// validation is also what the domain accepts. The rest are sanity caps of the API (the domain
// has no upper bound on a token count): they keep one request's work bounded.
import { DEFAULT_LIMIT, MAX_PRICE_AGE_DAYS } from '../../domain/compliance/index.js';
import {
  DEFAULT_HOURS_PER_MONTH,
  DEFAULT_INTER_TOKEN_LATENCY_MS,
  DEFAULT_MAX_ALTERNATIVES,
  DEFAULT_MIN_REPLICAS,
  DEFAULT_RECOVERABLE_SPOT_SHARE,
  DEFAULT_TARGET_UTILIZATION,
  DEFAULT_COST_OF_CAPITAL_PERCENT,
  DEFAULT_DEPRECIATION_YEARS,
  DEFAULT_GPUS_PER_SERVER,
  DEFAULT_OPERATIONS_SHARE_PERCENT,
} from '../../domain/cost-model/index.js';
import { HOURS_PER_DAY, HOURS_PER_WEEK } from '../../domain/cost-model/demand.js';
import { ELECTRICITY_BY_SITE } from '../../domain/cost-model/owned-defaults.js';
import { DEFAULT_CONTEXT_TOKENS } from '../../domain/sizing/index.js';

/** A catalog version id (UUID) or label (`2026-11-30`). */
export const VERSION_REF = { minLength: 1, maxLength: 100, pattern: /^[A-Za-z0-9][A-Za-z0-9._:-]*$/, patternMessage: 'must be a version id or label' } as const;
export const OFFER_ID = { pattern: /^[0-9a-f]{32}$/, patternMessage: 'must be an offer id (32 hex characters)' } as const;
export const GPU_SLUG = { minLength: 1, maxLength: 64, pattern: /^[a-z0-9][a-z0-9-]*$/, patternMessage: 'must be a GPU slug' } as const;
/** A slug as the domain compares it (trimmed, lower-cased there): GPU, provider, preset names. */
export const NAME = { minLength: 1, maxLength: 64 } as const;
export const COUNTRY_CODE = { pattern: /^[A-Za-z]{2}$/, patternMessage: 'each value must be an ISO 3166-1 alpha-2 code' } as const;

/** Money in inputs is a decimal string (never a float): digits, optionally a point and more digits. */
export const PRICE_PER_GPU_HOUR = { integerDigits: 6, fractionDigits: 6, example: '4.00' } as const;
export const PRICE_PER_1M_TOKENS = { integerDigits: 9, fractionDigits: 9, example: '0.60' } as const;
export const PRICE_PER_GB = { integerDigits: 3, fractionDigits: 6, example: '0.09' } as const;

export const POLICY_BOUNDS = {
  /**
   * Allow lists hold one value at least: the domain reads an empty list as "no restriction",
   * the opposite of what a client that emptied its selection means. (A deny list may be empty.)
   */
  countries: { minItems: 1, maxItems: 250 },
  certifications: { maxItems: 20, minLength: 1, maxLength: 40 },
  /** Percent; the domain's range (policy.ts, minSlaPercent between 0 and 100). */
  minSla: { min: 0, max: 100 },
  providers: { minItems: 1, maxItems: 100 },
  /** excludeProviders, a deny list, has the same size without the minimum. */
  regions: { minItems: 1, maxItems: 200, minLength: 1, maxLength: 100 },
  /** The domain's (policy.ts). */
  maxPriceAgeDays: { min: 0, max: MAX_PRICE_AGE_DAYS },
} as const;

export const REQUIREMENT_BOUNDS = {
  gpus: { maxItems: 50 },
  minGpuMemoryGb: { min: 0, max: 4096 },
  gpuCount: { min: 1, max: 1024 },
} as const;

export const MODEL_BOUNDS = {
  parametersB: { min: 0.01, max: 10_000 },
  layers: { min: 1, max: 1000 },
  hiddenSize: { min: 64, max: 65_536 },
  attentionHeads: { min: 1, max: 1024 },
  kvHeads: { min: 1, max: 1024 },
  headDim: { min: 16, max: 1024 },
  contextTokens: { min: 1, max: 2_000_000, default: DEFAULT_CONTEXT_TOKENS },
} as const;

/** A negotiated discount: the domain takes at least 0 and below 100 percent (ranking.ts, resolveDiscounts). */
export const DISCOUNT_BOUNDS = {
  percent: { min: 0, max: 100, exclusiveMax: true },
  list: { maxItems: 50 },
} as const;

export const WORKLOAD_BOUNDS = {
  /** One value per hour of an average day. */
  hourlyProfile: { minItems: HOURS_PER_DAY, maxItems: HOURS_PER_DAY },
  weeklyProfile: { minItems: HOURS_PER_WEEK, maxItems: HOURS_PER_WEEK },
  requestsPerSecond: { min: 0, max: 1_000_000 },
  tokens: { min: 1, max: 1_000_000 },
  /** The domain needs some online traffic: batchShare in [0, 1) (estimate.ts, settingsFrom). */
  batchShare: { min: 0, max: 1, exclusiveMax: true, default: 0 },
  interTokenLatencyMs: { min: 1, max: 10_000, default: DEFAULT_INTER_TOKEN_LATENCY_MS },
  targetUtilization: { min: 0.05, max: 1, default: DEFAULT_TARGET_UTILIZATION },
  minReplicas: { min: 0, max: 10_000, default: DEFAULT_MIN_REPLICAS },
} as const;

export const MEASURED_THROUGHPUT_BOUNDS = {
  requestsPerSecond: { min: 0.0001, max: 1_000_000 },
  outputTokensPerSecond: { min: 0.01, max: 100_000_000 },
  list: { maxItems: 50 },
} as const;

export const ESTIMATE_BOUNDS = {
  gpus: { minItems: 1, maxItems: 50 },
  precisions: { minItems: 1 },
  /** Up to a leap year's hours. */
  hoursPerMonth: { min: 1, max: 8784, default: DEFAULT_HOURS_PER_MONTH },
  /** The domain's range (estimate.ts, recoverableSpotShare in [0, 1]). */
  recoverableSpotShare: { min: 0, max: 1, default: DEFAULT_RECOVERABLE_SPOT_SHARE },
  /** No single default: each spot offer's Spot Instance Advisor band, else DEFAULT_SPOT_INTERRUPTIONS_PER_HOUR (the DTO's description). */
  spotInterruptionsPerHour: { min: 0, max: 10 },
  modelLoadSeconds: { min: 0, max: 86_400 },
  egressGbPerMonth: { min: 0, max: 100_000_000 },
  maxAlternatives: { min: 0, max: 10, default: DEFAULT_MAX_ALTERNATIVES },
} as const;

/** Owning servers (docs/cost-model.md#rent-or-buy): money as decimal strings in USD; sanity caps. */
export const OWNED_BOUNDS = {
  serverPriceUsd: { integerDigits: 9, fractionDigits: 2, example: '250000' },
  gpusPerServer: { min: 1, max: 16, default: DEFAULT_GPUS_PER_SERVER },
  depreciationYears: { min: 1, max: 15, default: DEFAULT_DEPRECIATION_YEARS },
  costOfCapitalPercent: { min: 0, max: 100, default: DEFAULT_COST_OF_CAPITAL_PERCENT },
  electricityUsdPerKwh: { integerDigits: 3, fractionDigits: 6, example: '0.15' },
  colocationUsdPerKwMonth: { integerDigits: 6, fractionDigits: 4, example: '200' },
  operationsSharePercent: { min: 0, max: 100, default: DEFAULT_OPERATIONS_SHARE_PERCENT },
  // Only the sites with a sourced electricity price (owned-defaults.ts), so the schema states the rule.
  site: {
    pattern: new RegExp(`^(${Object.keys(ELECTRICITY_BY_SITE).join('|')})$`),
    patternMessage: `must be a site with a sourced electricity price: ${Object.keys(ELECTRICITY_BY_SITE).join(', ')}`,
  },
} as const;

/** The listing's default page size (filter-offers.ts takes any positive size). */
export const DEFAULT_PAGE_SIZE = 50;

export const PAGING_BOUNDS = {
  /** Offers per page of GET /v1/offers (`limit`) and GraphQL `offers` (`first`). */
  pageSize: { min: 1, max: 500, default: DEFAULT_PAGE_SIZE },
  cursor: { minLength: 1, maxLength: 500 },
  /** Ranked offers of a cheapest answer; the domain takes any positive count and defaults to DEFAULT_LIMIT (cheapest.ts). */
  cheapestLimit: { min: 1, max: 500, default: DEFAULT_LIMIT },
} as const;

/**
 * Measurements (docs/measurements.md): a series as text (a Prometheus range answer or a CSV) of at
 * most MEASUREMENT_TEXT_MAX_CHARS; the samples a request may carry are capped by
 * MEASUREMENT_MAX_SAMPLES (configuration), counted before any work.
 */
export const MEASUREMENT_TEXT = { minLength: 1, maxLength: 8 * 1024 * 1024 } as const;
export const MEASUREMENT_BOUNDS = {
  promql: { minLength: 1, maxLength: 2000 },
  /** A Prometheus duration: 30m, 36h, 14d, 2w. */
  duration: { pattern: /^[1-9][0-9]{0,3}(s|m|h|d|w)$/, patternMessage: 'must be a duration such as 5m, 1h, 14d or 2w' },
  timezone: { minLength: 1, maxLength: 64, example: 'Europe/Berlin' },
  percentile: { min: 50, max: 100, default: 95 },
  fleetCount: { min: 1, max: 100_000 },
} as const;
