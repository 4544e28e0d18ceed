// GraphQL arguments of `offers` and `cheapestOffers` (names that dashboards depend on: schema.gql).
// Every field is a shared definition (src/common/inputs/), so REST's query classes
// (offers.query.ts) validate the same bounds.
import { ArgsType, InputType } from '@nestjs/graphql';
import type { Currency } from '../../../domain/catalog/catalog.types.js';
import type { GpuCountMode, OfferSort } from '../../../domain/compliance/index.js';
import { DISCOUNTS, type DiscountInput } from '../../../common/inputs/discount.input.js';
import { field, InputField } from '../../../common/inputs/input-field.js';
import type { ModelInput } from '../../../common/inputs/model.input.js';
import { CompliancePolicyInput } from '../../../common/inputs/policy.input.js';
import { GpuRequirementInput, REQUIREMENT } from '../../../common/inputs/requirement.input.js';
import { CURRENCY, VERSION_SELECTOR } from '../../../common/inputs/version-selector.input.js';
import { CHEAPEST, PAGING } from './offers.fields.js';

/** The listing's filter: the policy's fields, the requirement's, and the currency. */
@InputType('OfferFilter')
export class OfferFilterInput extends CompliancePolicyInput {
  @InputField(REQUIREMENT.gpus) gpus?: string[];
  @InputField(REQUIREMENT.gpuCount) gpuCount?: number;
  @InputField(REQUIREMENT.gpuCountMode) gpuCountMode?: GpuCountMode;
  @InputField(REQUIREMENT.minGpuMemoryGb) minGpuMemoryGb?: number;
  @InputField(REQUIREMENT.model) model?: ModelInput;
  @InputField(CURRENCY) currency?: Currency;
}

@ArgsType()
export class OffersArgs {
  @InputField(field.object(() => OfferFilterInput)) filter?: OfferFilterInput;
  @InputField(VERSION_SELECTOR.version) version?: string;
  @InputField(VERSION_SELECTOR.asOf) asOf?: Date;
  @InputField(PAGING.sort) sort?: OfferSort;
  @InputField(PAGING.pageSize) first?: number;
  @InputField(PAGING.cursor) after?: string;
}

@ArgsType()
export class CheapestOffersArgs {
  @InputField(field.object(() => GpuRequirementInput, { required: true })) requirement: GpuRequirementInput;
  @InputField(field.object(() => CompliancePolicyInput)) policy?: CompliancePolicyInput;
  @InputField(CURRENCY) currency?: Currency;
  @InputField(VERSION_SELECTOR.version) version?: string;
  @InputField(VERSION_SELECTOR.asOf) asOf?: Date;
  @InputField(CHEAPEST.limit) limit?: number;
  @InputField(CHEAPEST.explain) explain?: boolean;
  @InputField(DISCOUNTS) discounts?: DiscountInput[];
}
