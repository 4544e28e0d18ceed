// REST query parameters of GET /v1/offers and GET /v1/offers/cheapest: the REST adapter of the
// shared input definitions. The query is flat and some names are REST's own (gpu, provider,
// excludeProvider, region, and model as a preset name), but every field is read with the same
// definition as its GraphQL and JSON-body counterpart (src/common/inputs/); QueryField only adds
// the query-string parsing (comma-separated lists, numbers and booleans from text).
import type { Currency, PricingModel, SourceKind } from '../../../domain/catalog/catalog.types.js';
import type { GpuCountMode, InterruptionTolerance, OfferSort, OperatorScope, Residency } from '../../../domain/compliance/index.js';
import type { Precision } from '../../../domain/sizing/index.js';
import { QueryDiscounts } from '../../../common/inputs/discount.input.js';
import { QueryField } from '../../../common/inputs/input-field.js';
import { MODEL } from '../../../common/inputs/model.input.js';
import { POLICY } from '../../../common/inputs/policy.input.js';
import { REQUIREMENT } from '../../../common/inputs/requirement.input.js';
import { CURRENCY, VERSION_SELECTOR } from '../../../common/inputs/version-selector.input.js';
import { CHEAPEST, PAGING } from './offers.fields.js';

export class OffersQuery {
  // The requirement (GraphQL: requirement / filter), flat; `model` is a preset name.
  @QueryField({ ...REQUIREMENT.gpus, description: 'GPU model slug(s)' }) gpu?: string[];
  @QueryField(REQUIREMENT.gpuCount) gpuCount?: number;
  @QueryField(REQUIREMENT.gpuCountMode) gpuCountMode?: GpuCountMode;
  @QueryField(REQUIREMENT.minGpuMemoryGb) minGpuMemoryGb?: number;
  @QueryField({ ...MODEL.preset, description: `Model to serve, turned into a memory need per GPU: ${MODEL.preset.description}` }) model?: string;
  @QueryField({ ...MODEL.parametersB, description: 'Or a custom model to serve: total parameters in billions (default shape assumed)' }) parametersB?: number;
  @QueryField({ ...MODEL.precision, description: 'Precision for `model` or `parametersB` (default: the model’s native precision)' }) precision?: Precision;

  // The policy (GraphQL: policy / filter); REST names its lists in the singular.
  @QueryField(POLICY.providers) provider?: string[];
  @QueryField(POLICY.excludeProviders) excludeProvider?: string[];
  @QueryField(POLICY.regions) region?: string[];
  /** REST only: where the region is; narrows `countries` (offer-search.ts). */
  @QueryField({ ...POLICY.countries, description: 'ISO country code(s) of the region' }) country?: string[];
  @QueryField(POLICY.residency) residency?: Residency;
  @QueryField(POLICY.countries) countries?: string[];
  @QueryField(POLICY.allowPartialAdequacy) allowPartialAdequacy?: boolean;
  @QueryField(POLICY.operator) operator?: OperatorScope;
  @QueryField(POLICY.preset) preset?: string;
  @QueryField(POLICY.pricingModels) pricingModel?: PricingModel[];
  @QueryField({ ...POLICY.pricingModels, description: 'Alias of pricingModel' }) pricingModels?: PricingModel[];
  @QueryField(POLICY.tolerance) tolerance?: InterruptionTolerance;
  @QueryField(POLICY.certifications) certifications?: string[];
  @QueryField(POLICY.minSla) minSla?: number;
  @QueryField(POLICY.maxPricePerGpuHour) maxPricePerGpuHour?: string;
  @QueryField(POLICY.includeEstimates) includeEstimates?: boolean;
  @QueryField(POLICY.maxPriceAgeDays) maxPriceAgeDays?: number;
  @QueryField(POLICY.minSourceKind) minSourceKind?: SourceKind;
  @QueryField(POLICY.requireConfirmedAvailability) requireConfirmedAvailability?: boolean;
  @QueryField(POLICY.maxGridIntensity) maxGridIntensity?: number;

  @QueryField(CURRENCY) currency?: Currency;
  @QueryField(VERSION_SELECTOR.version) version?: string;
  @QueryField(VERSION_SELECTOR.asOf) asOf?: Date;
}

export class ListOffersQuery extends OffersQuery {
  @QueryField(PAGING.sort) sort?: OfferSort;
  @QueryField(PAGING.pageSize) limit?: number;
  @QueryField(PAGING.cursor) cursor?: string;
}

export class CheapestOffersQuery extends OffersQuery {
  @QueryField(CHEAPEST.limit) limit?: number;
  @QueryField(CHEAPEST.explain) explain?: boolean;
  @QueryDiscounts() discounts?: string[];
}
