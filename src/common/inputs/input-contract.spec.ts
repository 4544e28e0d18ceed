// The drift test of the input definitions (docs/api-conventions.md#validation). For every input
// concept, boundary values written here by hand (not read from the code's constants) must get the
// same answer from every place that states or applies the rule:
//  - REST as served: query-string parsing and class-validator through the ValidationPipe;
//  - GraphQL as served: GraphQL's own type coercion, then the same ValidationPipe;
//  - the OpenAPI document the app generates: the parameter's or body property's schema;
//  - the GraphQL schema it generates: the type, and the bounds its description states (it has no
//    way to state a string's length or pattern, so there it may stay silent).
// A bound changed in one place only (a @Max, an OpenAPI maximum, a Float where REST takes a
// string) fails a case here; a bound changed on purpose is changed in this table too.
import { getNamedType, getNullableType, isEnumType, isInputObjectType, isListType, type GraphQLArgument, type GraphQLInputField } from 'graphql';
import { at, defined } from '../../domain/checked.js';
import {
  bodyProperties,
  fromQueryText,
  graphqlLocation,
  graphqlOwner,
  isBoundedSchema,
  graphqlSays,
  openApiAccepts,
  openApiBodyProperty,
  openApiParameter,
  resolveRef,
  servedGraphql,
  servedRest,
  startServedApp,
  type SchemaVerdict,
  type ServedApp,
  type Verdict,
  withValue,
} from './testing/input-contract-harness.js';

type Path = (string | number)[];
type RestGet =
  | '/v1/offers'
  | '/v1/offers/cheapest'
  | '/v1/providers'
  | '/v1/regions'
  | '/v1/gpus'
  | '/v1/reference-figures'
  | '/v1/catalog/diff'
  | '/v1/offers/{offerId}/history'
  | '/v1/gpus/{gpu}/price-history';
type Where =
  | { get: RestGet; param: string; asText?: (value: unknown) => string; openApiCannotSay?: string }
  | { post: '/v1/estimates'; at: Path; base?: Record<string, unknown> }
  | { graphql: string; at: Path; base?: Record<string, unknown> };

/** A value only typed transports can send (JSON, GraphQL): a query string has no number 4, only "4". */
const typed = (value: unknown) => ({ typedOnly: value });
/** Text that only a query string sends. */
const text = (value: string) => ({ textOnly: value });

interface Case {
  name: string;
  where: Where[];
  accept: unknown[];
  refuse: unknown[];
  /** An enum: its whole set of values, as OpenAPI and GraphQL must list them. */
  values?: string[];
  /** What the documentation says the service uses when the field is absent. */
  documentedDefault?: number | string | boolean;
}

const chars = (n: number): string => 'a'.repeat(n);
const times = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

const ESTIMATE = { model: { preset: 'llama-3-8b' }, workload: { requestsPerSecond: 1, avgInputTokens: 500, avgOutputTokens: 200 } };
const OFFER_ID = '0123456789abcdef0123456789abcdef';

// ---- Where each concept is read ------------------------------------------------------------

const offersQuery = (param: string): Where[] => [
  { get: '/v1/offers', param },
  { get: '/v1/offers/cheapest', param },
];
const policy = (field: string, restName = field): Where[] => [
  ...offersQuery(restName),
  { post: '/v1/estimates', at: ['policy', field] },
  { graphql: 'cheapestOffers', at: ['policy', field] },
  { graphql: 'offers', at: ['filter', field] },
  { graphql: 'estimate', at: ['input', 'policy', field] },
];
const requirement = (field: string, restName = field): Where[] => [
  ...offersQuery(restName),
  { graphql: 'cheapestOffers', at: ['requirement', field] },
  { graphql: 'offers', at: ['filter', field] },
];
const offerModel = (field: string): Where[] => [
  { graphql: 'cheapestOffers', at: ['requirement', 'model', field] },
  { graphql: 'offers', at: ['filter', 'model', field] },
];
const model = (field: string, restName?: string): Where[] => [
  ...(restName ? offersQuery(restName) : []),
  ...offerModel(field),
  { post: '/v1/estimates', at: ['model', field] },
  { graphql: 'estimate', at: ['input', 'model', field] },
];
const estimate = (...at: Path): Where[] => [
  { post: '/v1/estimates', at },
  { graphql: 'estimate', at: ['input', ...at] },
];
const discount = (field: 'percent' | 'provider'): Where[] => {
  const base = { discounts: [{ provider: 'aws', percent: 1 }] };
  const asText = (v: unknown) => (field === 'percent' ? `aws:${String(v)}` : `${String(v)}:10`);
  return [
    { get: '/v1/offers/cheapest', param: 'discounts', asText, openApiCannotSay: 'a pattern cannot state the range of the number in provider:percent' },
    { post: '/v1/estimates', at: ['discounts', 0, field], base: { ...ESTIMATE, ...base } },
    { graphql: 'cheapestOffers', at: ['discounts', 0, field], base: { requirement: {}, ...base } },
    { graphql: 'estimate', at: ['input', 'discounts', 0, field], base: { input: { ...ESTIMATE, ...base } } },
  ];
};
const measured = (field: string): Where[] => estimate('measuredThroughput', 0, field);
/** A field of an estimate's measurements, in a body that is whole around it. */
const measurement = (measurements: Record<string, unknown>, ...at: Path): Where[] => {
  const base = { ...ESTIMATE, measurements };
  return [
    { post: '/v1/estimates', at: ['measurements', ...at], base },
    { graphql: 'estimate', at: ['input', 'measurements', ...at], base: { input: base } },
  ];
};
const OWNED = { serverPriceUsd: '250000', electricityUsdPerKwh: '0.15', colocationUsdPerKwMonth: '200' };
const owned = (field: string): Where[] => {
  const base = { ...ESTIMATE, owned: OWNED };
  return [
    { post: '/v1/estimates', at: ['owned', field], base },
    { graphql: 'estimate', at: ['input', 'owned', field], base: { input: base } },
  ];
};
const FLEET = { gpu: 'h100-80gb', count: 1, provider: 'aws', region: 'aws:us-east-1' };
const rangeQuery = (series: string, field: 'range' | 'step'): Where[] =>
  measurement({ [series]: { query: { promql: 'up', range: '1d' } } }, series, 'query', field);
const versionSelector = (field: 'version' | 'asOf'): Where[] => [
  ...offersQuery(field),
  ...(['/v1/providers', '/v1/regions', '/v1/gpus', '/v1/reference-figures'] as const).map((get): Where => ({ get, param: field })),
  { post: '/v1/estimates', at: [field] },
  { graphql: 'offers', at: [field] },
  { graphql: 'cheapestOffers', at: [field] },
  { graphql: 'estimate', at: ['input', field] },
  { graphql: 'providers', at: [field] },
];

const booleans = { accept: [true, false], refuse: [typed('true'), text('maybe')] };
const enumCase = (name: string, where: Where[], values: string[], list = false): Case => ({
  name,
  where,
  values,
  accept: values.map((v) => (list ? [v] : v)),
  refuse: [list ? ['NOPE'] : 'NOPE', list ? [at(values, 0).toLowerCase()] : at(values, 0).toLowerCase()],
});

// ---- The table -----------------------------------------------------------------------------

const CASES: Case[] = [
  // Policy (src/domain/compliance/policy.ts)
  { name: 'policy.minSla', where: policy('minSla'), accept: [0, 99.95, 100], refuse: [-0.01, 100.01, text('1e2')] },
  { name: 'policy.maxPriceAgeDays', where: policy('maxPriceAgeDays'), accept: [0, 10_000], refuse: [-1, 10_001, 1.5] },
  {
    name: 'policy.maxPricePerGpuHour: money as a decimal string, in every transport',
    where: policy('maxPricePerGpuHour'),
    accept: ['0', '4.00', '999999.999999'],
    refuse: ['-1', '1e3', '1000000', '4.0000001', '.5', typed(4), typed(4.5)],
  },
  { name: 'policy.countries', where: policy('countries'), accept: [['DE'], ['de'], times(250, () => 'FR')], refuse: [[], ['DEU'], times(251, () => 'FR')] },
  {
    name: 'policy.certifications',
    where: policy('certifications'),
    accept: [[chars(40)], times(20, () => 'ISO27001')],
    refuse: [[chars(41)], times(21, () => 'ISO27001')],
  },
  {
    name: 'policy.providers',
    where: policy('providers', 'provider'),
    accept: [[chars(64)], times(100, () => 'aws')],
    refuse: [[], [chars(65)], times(101, () => 'aws')],
  },
  {
    name: 'policy.excludeProviders',
    where: policy('excludeProviders', 'excludeProvider'),
    accept: [[], [chars(64)], times(100, () => 'aws')],
    refuse: [[chars(65)], times(101, () => 'aws')],
  },
  {
    name: 'policy.regions',
    where: policy('regions', 'region'),
    accept: [[chars(100)], times(200, () => 'eu-central-1')],
    refuse: [[], [chars(101)], times(201, () => 'eu-central-1')],
  },
  { name: 'policy.preset', where: policy('preset'), accept: ['GDPR_PERSONAL_DATA', chars(64)], refuse: ['', chars(65)] },
  enumCase('policy.residency', policy('residency'), ['ANY', 'EU', 'EEA', 'GDPR_ADEQUATE']),
  enumCase('policy.operator', policy('operator'), ['ANY', 'EU']),
  enumCase('policy.tolerance', policy('tolerance'), ['TOLERANT', 'RECOVERABLE', 'INTOLERANT']),
  enumCase(
    'policy.pricingModels',
    [...policy('pricingModels'), ...offersQuery('pricingModel')],
    ['ON_DEMAND', 'SPOT', 'RESERVED_1Y', 'RESERVED_3Y', 'SERVERLESS', 'MONTHLY'],
    true,
  ),
  { name: 'policy.includeEstimates', where: policy('includeEstimates'), ...booleans, documentedDefault: false },
  enumCase('policy.minSourceKind', policy('minSourceKind'), ['PROVIDER_API', 'PROVIDER_PAGE', 'MIRROR', 'TRANSCRIPTION', 'ANNOUNCEMENT']),
  { name: 'policy.requireConfirmedAvailability', where: policy('requireConfirmedAvailability'), ...booleans, documentedDefault: false },
  { name: 'policy.allowPartialAdequacy', where: policy('allowPartialAdequacy'), ...booleans },
  // docs/carbon.md: g CO2e per kWh of the region's grid.
  { name: 'policy.maxGridIntensity', where: policy('maxGridIntensity'), accept: [0, 23.5, 10_000], refuse: [-0.01, 10_000.5, text('1e2')] },
  { name: 'REST country (where the region is)', where: offersQuery('country'), accept: [['DE']], refuse: [['DEU'], times(251, () => 'DE')] },

  // GPU requirement (src/domain/compliance/requirement.ts)
  { name: 'requirement.gpuCount', where: requirement('gpuCount'), accept: [1, 1024], refuse: [0, 1025, 1.5, text('0x10')] },
  { name: 'requirement.minGpuMemoryGb', where: requirement('minGpuMemoryGb'), accept: [0, 80, 4096], refuse: [-1, 4096.5] },
  {
    name: 'requirement.gpus',
    where: requirement('gpus', 'gpu'),
    accept: [[chars(64)], times(50, () => 'l4-24gb')],
    refuse: [[chars(65)], times(51, () => 'l4-24gb')],
  },
  { ...enumCase('requirement.gpuCountMode', requirement('gpuCountMode'), ['PER_INSTANCE', 'TOTAL']), documentedDefault: 'PER_INSTANCE' },

  // The model to serve (src/domain/sizing/model.ts)
  { name: 'model.preset', where: model('preset', 'model'), accept: ['llama-3-8b', chars(64)], refuse: ['', chars(65)] },
  { name: 'model.parametersB', where: model('parametersB', 'parametersB'), accept: [0.01, 70, 10_000], refuse: [0.009, 10_000.5] },
  { name: 'model.activeParametersB', where: model('activeParametersB'), accept: [0.01, 10_000], refuse: [0, 10_001] },
  { name: 'model.layers', where: model('layers'), accept: [1, 1000], refuse: [0, 1001, 1.5] },
  { name: 'model.hiddenSize', where: model('hiddenSize'), accept: [64, 65_536], refuse: [63, 65_537] },
  { name: 'model.attentionHeads', where: model('attentionHeads'), accept: [1, 1024], refuse: [0, 1025] },
  { name: 'model.kvHeads', where: model('kvHeads'), accept: [1, 1024], refuse: [0, 1025] },
  { name: 'model.headDim', where: model('headDim'), accept: [16, 1024], refuse: [15, 1025] },
  {
    name: 'model.contextTokens (offer search only)',
    where: offerModel('contextTokens'),
    accept: [1, 2_000_000],
    refuse: [0, 2_000_001],
    documentedDefault: 4096,
  },
  enumCase('model.precision', [...model('precision', 'precision'), ...measured('precision')], ['FP32', 'FP16', 'BF16', 'FP8', 'INT8', 'INT4']),

  // Negotiated discounts (src/domain/compliance/ranking.ts: at least 0, below 100)
  { name: 'discount.percent', where: discount('percent'), accept: [0, 12.5, 99.99, 99.99999], refuse: [-1, 100, 150] },
  { name: 'discount.provider', where: discount('provider'), accept: ['aws', chars(64)], refuse: ['', chars(65)] },
  {
    name: 'discounts (how many)',
    where: [
      {
        get: '/v1/offers/cheapest',
        param: 'discounts',
        asText: (v) => (v as { provider: string; percent: number }[]).map((d) => `${d.provider}:${d.percent}`).join(','),
      },
      ...estimate('discounts'),
      { graphql: 'cheapestOffers', at: ['discounts'] },
    ],
    accept: [times(50, (i) => ({ provider: `p${i}`, percent: 5 }))],
    refuse: [times(51, (i) => ({ provider: `p${i}`, percent: 5 }))],
  },

  // The workload (src/domain/cost-model/estimate.ts)
  {
    name: 'workload.batchShare: below 1, as the cost model requires',
    where: estimate('workload', 'batchShare'),
    accept: [0, 0.5, 0.999],
    refuse: [-0.001, 1, 1.5],
    documentedDefault: 0,
  },
  { name: 'workload.avgInputTokens', where: estimate('workload', 'avgInputTokens'), accept: [1, 1_000_000], refuse: [0, 1_000_001, 1.5] },
  { name: 'workload.avgOutputTokens', where: estimate('workload', 'avgOutputTokens'), accept: [1, 1_000_000], refuse: [0, 1_000_001] },
  {
    name: 'workload.hourlyProfile',
    where: estimate('workload', 'hourlyProfile'),
    accept: [times(24, () => 0), times(24, () => 1_000_000)],
    refuse: [times(23, () => 1), times(25, () => 1), [-1, ...times(23, () => 1)], [1_000_001, ...times(23, () => 1)]],
  },
  {
    name: 'workload.weeklyProfile',
    where: estimate('workload', 'weeklyProfile'),
    accept: [times(168, () => 0), times(168, () => 1_000_000)],
    refuse: [times(24, () => 1), times(167, () => 1), times(169, () => 1), [-1, ...times(167, () => 1)]],
  },
  { name: 'workload.requestsPerSecond', where: estimate('workload', 'requestsPerSecond'), accept: [0, 1_000_000], refuse: [-1, 1_000_000.5] },
  {
    name: 'workload.interTokenLatencyMs',
    where: estimate('workload', 'interTokenLatencyMs'),
    accept: [1, 10_000],
    refuse: [0.5, 10_001],
    documentedDefault: 50,
  },
  { name: 'workload.targetUtilization', where: estimate('workload', 'targetUtilization'), accept: [0.05, 1], refuse: [0.04, 1.01], documentedDefault: 0.75 },
  { name: 'workload.minReplicas', where: estimate('workload', 'minReplicas'), accept: [0, 10_000], refuse: [-1, 10_001, 0.5], documentedDefault: 1 },
  { name: 'workload.scaleToZero', where: estimate('workload', 'scaleToZero'), ...booleans },

  // Measured throughput
  { name: 'measuredThroughput.requestsPerSecond', where: measured('requestsPerSecond'), accept: [0.0001, 1_000_000], refuse: [0.00009, 1_000_001] },
  { name: 'measuredThroughput.outputTokensPerSecond', where: measured('outputTokensPerSecond'), accept: [0.01, 100_000_000], refuse: [0.009, 100_000_001] },
  { name: 'measuredThroughput.gpu', where: measured('gpu'), accept: [chars(64)], refuse: ['', chars(65)] },
  {
    name: 'measuredThroughput (how many)',
    where: estimate('measuredThroughput'),
    accept: [times(50, () => ({ requestsPerSecond: 1 }))],
    refuse: [times(51, () => ({ requestsPerSecond: 1 }))],
  },

  // Measurements (docs/measurements.md)
  { name: 'measurements.percentile', where: measurement({}, 'percentile'), accept: [50, 95, 100], refuse: [49.9, 100.1], documentedDefault: 95 },
  {
    ...enumCase('measurements.traffic.unit', measurement({ traffic: { csv: '1,1' } }, 'traffic', 'unit'), ['REQUESTS_PER_SECOND', 'OUTPUT_TOKENS_PER_SECOND']),
    documentedDefault: 'REQUESTS_PER_SECOND',
  },
  enumCase('measurements.traffic.kind', measurement({ traffic: { csv: '1,1' } }, 'traffic', 'kind'), ['RATE', 'COUNTER']),
  ...(['traffic', 'utilization', 'memoryUsed'] as const).flatMap((series): Case[] => [
    {
      name: `measurements.${series}.query.range`,
      where: rangeQuery(series, 'range'),
      accept: ['1d', '14d', '9999w'],
      refuse: ['0d', '14 days', '14', '1y', '10000d'],
    },
    {
      name: `measurements.${series}.query.step`,
      where: rangeQuery(series, 'step'),
      accept: ['15s', '5m', '1h'],
      refuse: ['5', 'five', '0s'],
      documentedDefault: '5m',
    },
  ]),
  { name: 'measurements.fleet.count', where: measurement({ fleet: FLEET }, 'fleet', 'count'), accept: [1, 100_000], refuse: [0, 100_001, 1.5] },
  {
    ...enumCase('measurements.fleet.pricingModel', measurement({ fleet: FLEET }, 'fleet', 'pricingModel'), [
      'ON_DEMAND',
      'SPOT',
      'RESERVED_1Y',
      'RESERVED_3Y',
      'SERVERLESS',
      'MONTHLY',
    ]),
    documentedDefault: 'ON_DEMAND',
  },

  // The rest of an estimate's input
  { name: 'estimate.hoursPerMonth', where: estimate('hoursPerMonth'), accept: [1, 730, 8784], refuse: [0.5, 8785], documentedDefault: 730 },
  { name: 'estimate.recoverableSpotShare', where: estimate('recoverableSpotShare'), accept: [0, 1], refuse: [-0.1, 1.1], documentedDefault: 0.5 },
  { name: 'estimate.spotInterruptionsPerHour', where: estimate('spotInterruptionsPerHour'), accept: [0, 10], refuse: [-0.1, 10.5] },
  { name: 'estimate.modelLoadSeconds', where: estimate('modelLoadSeconds'), accept: [0, 86_400], refuse: [-1, 86_401] },
  { name: 'estimate.egressGbPerMonth', where: estimate('egressGbPerMonth'), accept: [0, 100_000_000], refuse: [-1, 100_000_001] },
  { name: 'estimate.maxAlternatives', where: estimate('maxAlternatives'), accept: [0, 10], refuse: [-1, 11, 1.5], documentedDefault: 3 },
  {
    name: 'estimate.apiPricePer1MTokens: money as a decimal string',
    where: estimate('apiPricePer1MTokens'),
    accept: ['0.60', '999999999.999999999'],
    refuse: ['1e3', '-1', '1000000000', '0.6000000001', typed(0.6)],
  },
  {
    name: 'estimate.egressPricePerGb: money as a decimal string',
    where: estimate('egressPricePerGb'),
    accept: ['0', '0.09', '999.999999'],
    refuse: ['1e-2', '-0.01', '1000', '0.0900001', typed(0.09)],
  },
  // Rent or buy (docs/cost-model.md#rent-or-buy)
  { name: 'owned.serverPriceUsd', where: owned('serverPriceUsd'), accept: ['0', '999999999.99'], refuse: ['-1', '1000000000', '1.001', typed(1)] },
  { name: 'owned.electricityUsdPerKwh', where: owned('electricityUsdPerKwh'), accept: ['0', '999.999999'], refuse: ['-0.1', '1000', typed(0.1)] },
  { name: 'owned.colocationUsdPerKwMonth', where: owned('colocationUsdPerKwMonth'), accept: ['0', '999999.9999'], refuse: ['-1', '1000000', typed(200)] },
  { name: 'owned.site', where: owned('site'), accept: ['DE', 'US-VA'], refuse: ['de', 'DEU', 'US-TX', 'NO', typed(1)] },
  { name: 'owned.gpusPerServer', where: owned('gpusPerServer'), accept: [1, 16], refuse: [0, 17, 1.5], documentedDefault: 8 },
  { name: 'owned.depreciationYears', where: owned('depreciationYears'), accept: [1, 15], refuse: [0.5, 15.5], documentedDefault: 4 },
  { name: 'owned.costOfCapitalPercent', where: owned('costOfCapitalPercent'), accept: [0, 100], refuse: [-1, 100.5], documentedDefault: 0 },
  { name: 'owned.operationsSharePercent', where: owned('operationsSharePercent'), accept: [0, 100], refuse: [-1, 100.5], documentedDefault: 0 },
  { name: 'estimate.gpus', where: estimate('gpus'), accept: [['l4-24gb'], times(50, () => 'l4-24gb')], refuse: [[], times(51, () => 'l4-24gb'), [chars(65)]] },
  { name: 'estimate.precisions', where: estimate('precisions'), accept: [['INT8'], ['FP16', 'INT4']], refuse: [[], ['FP4']] },
  {
    ...enumCase(
      'currency',
      [
        ...offersQuery('currency'),
        { get: '/v1/gpus/{gpu}/price-history', param: 'currency' },
        { get: '/v1/offers/{offerId}/history', param: 'currency' },
        ...estimate('currency'),
        { graphql: 'offers', at: ['filter', 'currency'] },
        { graphql: 'cheapestOffers', at: ['currency'] },
        { graphql: 'gpuPriceHistory', at: ['currency'] },
        { graphql: 'offerPriceHistory', at: ['currency'] },
      ],
      ['USD', 'EUR'],
    ),
    documentedDefault: 'USD',
  },

  // Paging of the listing, and the size of a cheapest answer
  {
    name: 'listing page size (REST limit, GraphQL first)',
    where: [
      { get: '/v1/offers', param: 'limit' },
      { graphql: 'offers', at: ['first'] },
    ],
    accept: [1, 500],
    refuse: [0, 501, 1.5],
    documentedDefault: 50,
  },
  {
    name: 'cheapest answer size (limit)',
    where: [
      { get: '/v1/offers/cheapest', param: 'limit' },
      { graphql: 'cheapestOffers', at: ['limit'] },
    ],
    accept: [1, 100, 500],
    refuse: [0, 501],
    documentedDefault: 10,
  },
  {
    name: 'listing cursor (REST cursor, GraphQL after)',
    where: [
      { get: '/v1/offers', param: 'cursor' },
      { graphql: 'offers', at: ['after'] },
    ],
    accept: [chars(500)],
    refuse: ['', chars(501)],
  },
  {
    ...enumCase(
      'listing sort (docs/carbon.md)',
      [
        { get: '/v1/offers', param: 'sort' },
        { graphql: 'offers', at: ['sort'] },
      ],
      ['PRICE', 'CARBON'],
    ),
    documentedDefault: 'PRICE',
  },
  { ...enumCase('estimate optimizeFor (docs/carbon.md)', estimate('optimizeFor'), ['COST', 'CARBON']), documentedDefault: 'COST' },
  {
    name: 'cheapest explain',
    where: [
      { get: '/v1/offers/cheapest', param: 'explain' },
      { graphql: 'cheapestOffers', at: ['explain'] },
    ],
    ...booleans,
    documentedDefault: false,
  },

  // Catalog version selector and history
  { name: 'version', where: versionSelector('version'), accept: ['2026-11-30', 'v1.2_x:y', chars(100)], refuse: ['', '-x', 'a b', chars(101)] },
  { name: 'asOf', where: versionSelector('asOf'), accept: ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000+02:00'], refuse: ['yesterday'] },
  {
    name: 'catalog diff from / to',
    where: [
      { get: '/v1/catalog/diff', param: 'from' },
      { get: '/v1/catalog/diff', param: 'to' },
      { graphql: 'catalogDiff', at: ['from'], base: { to: 'b' } },
      { graphql: 'catalogDiff', at: ['to'], base: { from: 'a' } },
    ],
    accept: ['2026-11-30', chars(100)],
    refuse: ['-x', chars(101)],
  },
  enumCase(
    'history pricingModels',
    [
      { get: '/v1/gpus/{gpu}/price-history', param: 'pricingModels' },
      { get: '/v1/offers/{offerId}/history', param: 'pricingModels' },
      { graphql: 'gpuPriceHistory', at: ['pricingModels'] },
      { graphql: 'offerPriceHistory', at: ['pricingModels'] },
    ],
    ['ON_DEMAND', 'SPOT', 'RESERVED_1Y', 'RESERVED_3Y', 'SERVERLESS', 'MONTHLY'],
    true,
  ),
  {
    name: 'offer id',
    where: [
      { get: '/v1/offers/{offerId}/history', param: 'offerId' },
      { graphql: 'offerPriceHistory', at: ['offerId'] },
    ],
    accept: [OFFER_ID],
    refuse: ['xyz', OFFER_ID.toUpperCase(), `${OFFER_ID}0`],
  },
  {
    name: 'GPU slug of a price history',
    where: [
      { get: '/v1/gpus/{gpu}/price-history', param: 'gpu' },
      { graphql: 'gpuPriceHistory', at: ['gpu'] },
    ],
    accept: ['h100-sxm-80gb', chars(64)],
    refuse: ['H100', '-x', chars(65)],
  },
];

// ---- How a case is sent and read ------------------------------------------------------------

const GRAPHQL_BASE: Record<string, Record<string, unknown>> = {
  cheapestOffers: { requirement: {} },
  estimate: { input: ESTIMATE },
  catalogDiff: { from: 'a', to: 'b' },
  offerPriceHistory: { offerId: OFFER_ID },
  gpuPriceHistory: { gpu: 'h100-sxm-80gb' },
};
const PATH_DEFAULTS: Record<string, string> = { offerId: OFFER_ID, gpu: 'h100-sxm-80gb' };
const QUERY_DEFAULTS: Partial<Record<RestGet, Record<string, string>>> = { '/v1/catalog/diff': { from: 'a', to: 'b' } };

const asQueryText = (value: unknown): string => (Array.isArray(value) ? value.map(asQueryText).join(',') : String(value));

function restGetUrl(where: Extract<Where, { get: RestGet }>, textValue: string): string {
  const query = new URLSearchParams(QUERY_DEFAULTS[where.get] ?? {});
  const path = where.get.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(name === where.param ? textValue : defined(PATH_DEFAULTS[name], `a default for {${name}}`)),
  );
  if (!where.get.includes(`{${where.param}}`)) query.set(where.param, textValue);
  return `${path}?${query.toString()}`;
}

const describeWhere = (w: Where): string =>
  'get' in w ? `GET ${w.get} ${w.param}` : 'post' in w ? `POST ${w.post} ${w.at.join('.')}` : `GraphQL ${w.graphql}(${w.at.join('.')})`;
const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

interface Reading {
  served: Verdict;
  schema: SchemaVerdict;
  /** For a refusal, whether the error names the field as the transport spells it. */
  namesField: boolean;
}

async function read(app: ServedApp, where: Where, value: unknown, kind: 'typed' | 'text' | 'both'): Promise<Reading | null> {
  if ('get' in where) {
    if (kind === 'typed') return null;
    const textValue = kind === 'text' ? (value as string) : (where.asText ?? asQueryText)(value);
    const { verdict, fields } = await servedRest(app, { method: 'GET', url: restGetUrl(where, textValue) });
    const parameter = openApiParameter(app.openApi, 'get', where.get, where.param);
    const says = openApiAccepts(app.openApi, parameter.schema, fromQueryText(parameter.schema, textValue)) ? 'accept' : 'refuse';
    // A list parameter is read comma-separated, and OpenAPI must say so: form style, not exploded.
    const commaSeparated = resolveRef(app.openApi, parameter.schema).type !== 'array' || (parameter.style === 'form' && parameter.explode === false);
    return {
      served: verdict,
      schema: where.openApiCannotSay ? 'silent' : commaSeparated ? says : 'refuse',
      namesField: fields.some((f) => f === where.param || f.startsWith(`${where.param}.`)),
    };
  }
  if (kind === 'text') return null;
  if ('post' in where) {
    const body = withValue(where.base ?? ESTIMATE, where.at, value);
    const { verdict, fields } = await servedRest(app, { method: 'POST', url: where.post, body });
    const name = where.at.join('.');
    const schema: SchemaVerdict = openApiAccepts(app.openApi, openApiBodyProperty(app.openApi, where.post, where.at), value) ? 'accept' : 'refuse';
    return { served: verdict, schema, namesField: fields.some((f) => f === name || f.startsWith(`${name}.`)) };
  }
  const variables = withValue(where.base ?? GRAPHQL_BASE[where.graphql] ?? {}, where.at, value);
  return {
    served: await servedGraphql(app, where.graphql, variables),
    schema: graphqlSays(graphqlLocation(app.schema, where.graphql, where.at), value),
    namesField: true,
  };
}

// ---- The tests -----------------------------------------------------------------------------

describe('input definitions: REST, GraphQL, OpenAPI and the GraphQL schema agree on every bound', () => {
  let app: ServedApp;
  beforeAll(async () => {
    app = await startServedApp();
  });
  afterAll(async () => {
    await app.app.close();
  });

  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s',
    async (_name, c) => {
      const disagreements: string[] = [];
      for (const where of c.where) {
        for (const [expected, values] of [
          ['accept', c.accept],
          ['refuse', c.refuse],
        ] as const) {
          for (const raw of values) {
            const [value, kind] =
              raw && typeof raw === 'object' && 'typedOnly' in raw
                ? [raw.typedOnly, 'typed' as const]
                : raw && typeof raw === 'object' && 'textOnly' in raw
                  ? [raw.textOnly, 'text' as const]
                  : [raw, 'both' as const];
            const got = await read(app, where, value, kind);
            if (!got) continue;
            const at = `${describeWhere(where)} = ${show(value)}: expected ${expected}`;
            if (got.served !== expected) disagreements.push(`${at}, served ${got.served}`);
            if (got.schema !== 'silent' && got.schema !== expected)
              disagreements.push(`${at}, the ${'graphql' in where ? 'GraphQL schema' : 'OpenAPI document'} says ${got.schema}`);
            if (expected === 'refuse' && got.served === 'refuse' && !got.namesField) disagreements.push(`${at}, refused without naming the field`);
          }
        }
      }
      expect(disagreements).toEqual([]);
    },
    60_000,
  );

  it.each(CASES.filter((c) => c.values).map((c) => [c.name, c] as const))('%s: OpenAPI and GraphQL list the same values', (_name, c) => {
    for (const where of c.where) {
      const listed =
        'graphql' in where
          ? (() => {
              const named = getNamedType(graphqlLocation(app.schema, where.graphql, where.at).type);
              return isEnumType(named) ? named.getValues().map((v) => v.name) : [];
            })()
          : (() => {
              const s = resolveRef(
                app.openApi,
                'get' in where ? openApiParameter(app.openApi, 'get', where.get, where.param).schema : openApiBodyProperty(app.openApi, where.post, where.at),
              );
              return ((s.type === 'array' ? (s.items as { enum?: string[] }).enum : s.enum) as string[] | undefined) ?? [];
            })();
      expect({ where: describeWhere(where), values: [...listed].sort() }).toEqual({
        where: describeWhere(where),
        values: [...defined(c.values, 'the case values')].sort(),
      });
    }
  });

  it.each(CASES.filter((c) => c.documentedDefault !== undefined).map((c) => [c.name, c] as const))(
    '%s: OpenAPI and GraphQL document the same default',
    (_name, c) => {
      for (const where of c.where) {
        const documented =
          'graphql' in where
            ? /Default: (\S+)\./.exec(graphqlLocation(app.schema, where.graphql, where.at).description)?.[1]
            : String(
                resolveRef(
                  app.openApi,
                  'get' in where ? openApiParameter(app.openApi, 'get', where.get, where.param).schema : openApiBodyProperty(app.openApi, where.post, where.at),
                ).default,
              );
        expect({ where: describeWhere(where), default: documented }).toEqual({ where: describeWhere(where), default: String(c.documentedDefault) });
      }
    },
  );

  it('has a case for every bounded input the schemas carry, so a new one cannot go unchecked', () => {
    // GraphQL: every numeric, enum, list or decimal argument and input field.
    const covered = new Set(CASES.flatMap((c) => c.where.filter((w) => 'graphql' in w).map((w) => graphqlOwner(app.schema, w.graphql, w.at))));
    const bounded = (f: GraphQLArgument | GraphQLInputField): boolean => {
      const named = getNamedType(f.type);
      return ['Int', 'Float'].includes(named.name) || isEnumType(named) || isListType(getNullableType(f.type)) || /decimal string/.test(f.description ?? '');
    };
    const missing: string[] = [];
    const seen = new Set<string>();
    const visit = (typeName: string, fields: readonly (GraphQLArgument | GraphQLInputField)[]): void => {
      for (const f of fields) {
        if (bounded(f) && !covered.has(`${typeName}.${f.name}`)) missing.push(`GraphQL ${typeName}.${f.name}`);
        const named = getNamedType(f.type);
        if (isInputObjectType(named) && !seen.has(named.name)) {
          seen.add(named.name);
          visit(named.name, Object.values(named.getFields()));
        }
      }
    };
    for (const field of Object.values(defined(app.schema.getQueryType(), 'the Query type').getFields())) visit(`Query.${field.name}`, field.args);

    // REST: every query or path parameter with a type beyond a plain string, and every such body property.
    const coveredRest = new Set(
      CASES.flatMap((c) =>
        c.where.flatMap((w) =>
          'get' in w ? [`GET ${w.get} ${w.param}`] : 'post' in w ? [`POST ${w.post} ${w.at.filter((s) => typeof s === 'string').join('.')}`] : [],
        ),
      ),
    );
    for (const [path, item] of Object.entries(app.openApi.paths)) {
      for (const p of (item.get?.parameters ?? []) as unknown as { name: string; schema: Record<string, unknown> }[]) {
        if (isBoundedSchema(app.openApi, p.schema) && !coveredRest.has(`GET ${path} ${p.name}`)) missing.push(`GET ${path} ${p.name}`);
      }
      const body = (item.post?.requestBody as { content?: Record<string, { schema: Record<string, unknown> }> } | undefined)?.content?.['application/json']
        ?.schema;
      if (body) for (const prop of bodyProperties(app.openApi, body)) if (!coveredRest.has(`POST ${path} ${prop}`)) missing.push(`POST ${path} ${prop}`);
    }
    expect(missing).toEqual([]);
  });
});
