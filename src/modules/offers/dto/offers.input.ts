// GraphQL inputs of `offers` and `cheapestOffers` (names that dashboards depend on: schema.gql), validated like REST.
import { ArgsType, Field, Float, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsBoolean, IsDate, IsIn, IsInt, IsNumber, IsOptional, IsString, Length, Matches, Max, Min, ValidateNested } from 'class-validator';
import { CURRENCIES, PRICING_MODELS, type Currency, type PricingModel } from '../../../domain/catalog/catalog.types.js';
import { GPU_COUNT_MODES, INTERRUPTION_TOLERANCES, MAX_PRICE_AGE_DAYS, OPERATOR_SCOPES, RESIDENCIES } from '../../../domain/compliance/index.js';
import { PRECISIONS } from '../../../domain/sizing/index.js';
import { CurrencyEnum, PricingModelEnum } from '../../../common/models/enums.js';
import { GpuCountModeEnum, InterruptionToleranceEnum, OperatorScopeEnum, PrecisionEnum, ResidencyEnum } from '../../../common/models/policy-enums.js';

const COUNTRY = /^[A-Za-z]{2}$/;
export const INCLUDE_ESTIMATES = 'Also rank ESTIMATE prices (computed by a rule, flagged as such); by default only LIST prices are used';
export const MAX_PRICE_AGE = 'Exclude prices last read from their source more than this many days ago (before asOf, when given)';

@InputType('ModelInput', { description: 'A model to serve: a preset (llama-3-8b, ...) or parametersB with an optional shape' })
export class ModelInput {
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @Length(1, 64) preset?: string;
  @Field(() => Float, { nullable: true, description: 'Total parameters, billions' }) @IsOptional() @IsNumber() @Min(0.01) @Max(10_000) parametersB?: number;
  @Field(() => Float, { nullable: true, description: 'Active parameters per token (mixture of experts), billions' })
  @IsOptional()
  @IsNumber()
  @Min(0.01)
  @Max(10_000)
  activeParametersB?: number;
  @Field(() => PrecisionEnum, { nullable: true, description: 'Default: the model’s native precision (FP16)' })
  @IsOptional()
  @IsIn(PRECISIONS)
  precision?: string;
  @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(1) @Max(1000) layers?: number;
  @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(64) @Max(65_536) hiddenSize?: number;
  @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(1) @Max(1024) attentionHeads?: number;
  @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(1) @Max(1024) kvHeads?: number;
  @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(16) @Max(1024) headDim?: number;
  @Field(() => Int, { nullable: true, description: 'Context held in the KV cache per sequence, tokens (default 4096)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2_000_000)
  contextTokens?: number;
}

@InputType('GpuRequirement')
export class GpuRequirementInput {
  @Field(() => [String], { nullable: true, description: 'Acceptable GPU model slugs' })
  @IsOptional()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  gpus?: string[];
  @Field(() => Float, { nullable: true }) @IsOptional() @IsNumber() @Min(0) @Max(4096) minGpuMemoryGb?: number;
  @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(1) @Max(1024) gpuCount?: number;
  @Field(() => GpuCountModeEnum, { nullable: true }) @IsOptional() @IsIn(GPU_COUNT_MODES) gpuCountMode?: string;
  @Field(() => ModelInput, { nullable: true, description: 'Turned into a memory need per GPU by the estimator’s sizing' })
  @IsOptional()
  @ValidateNested()
  @Type(() => ModelInput)
  model?: ModelInput;
}

@InputType('CompliancePolicyInput')
export class CompliancePolicyInput {
  @ApiPropertyOptional({ description: 'GDPR_PERSONAL_DATA, EU_SOVEREIGN, DE_BSI_C5; explicit fields may only tighten it' })
  @Field(() => String, { nullable: true, description: 'GDPR_PERSONAL_DATA, EU_SOVEREIGN, DE_BSI_C5; explicit fields may only tighten it' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  preset?: string;
  @ApiPropertyOptional({ enum: RESIDENCIES }) @Field(() => ResidencyEnum, { nullable: true }) @IsOptional() @IsIn(RESIDENCIES) residency?: string;
  @ApiPropertyOptional({ type: [String] })
  @Field(() => [String], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(250)
  @Matches(COUNTRY, { each: true, message: 'each value must be an ISO 3166-1 alpha-2 code' })
  countries?: string[];
  @ApiPropertyOptional({ type: Boolean }) @Field(() => Boolean, { nullable: true }) @IsOptional() @IsBoolean() allowPartialAdequacy?: boolean;
  @ApiPropertyOptional({ enum: OPERATOR_SCOPES }) @Field(() => OperatorScopeEnum, { nullable: true }) @IsOptional() @IsIn(OPERATOR_SCOPES) operator?: string;
  @ApiPropertyOptional({ type: [String] })
  @Field(() => [String], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 40, { each: true })
  certifications?: string[];
  @ApiPropertyOptional({ type: Number, description: 'Minimum published SLA, percent' })
  @Field(() => Float, { nullable: true, description: 'Minimum published SLA, percent' })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(100)
  minSla?: number;
  @ApiPropertyOptional({ enum: PRICING_MODELS, isArray: true })
  @Field(() => [PricingModelEnum], { nullable: true })
  @IsOptional()
  @IsIn(PRICING_MODELS, { each: true })
  pricingModels?: PricingModel[];
  @ApiPropertyOptional({ enum: INTERRUPTION_TOLERANCES })
  @Field(() => InterruptionToleranceEnum, { nullable: true })
  @IsOptional()
  @IsIn(INTERRUPTION_TOLERANCES)
  tolerance?: string;
  @ApiPropertyOptional({ type: [String] })
  @Field(() => [String], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  providers?: string[];
  @ApiPropertyOptional({ type: [String] })
  @Field(() => [String], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  excludeProviders?: string[];
  @ApiPropertyOptional({ type: [String], description: 'Region allow list' })
  @Field(() => [String], { nullable: true, description: 'Region allow list' })
  @IsOptional()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @Length(1, 100, { each: true })
  regions?: string[];
  @ApiPropertyOptional({ type: Number, description: 'In the request currency' })
  @Field(() => Float, { nullable: true, description: 'In the request currency' })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1_000_000)
  maxPricePerGpuHour?: number;
  @ApiPropertyOptional({ type: Boolean, default: false, description: INCLUDE_ESTIMATES })
  @Field(() => Boolean, { nullable: true, description: INCLUDE_ESTIMATES })
  @IsOptional()
  @IsBoolean()
  includeEstimates?: boolean;
  @ApiPropertyOptional({ type: Number, description: MAX_PRICE_AGE })
  @Field(() => Int, { nullable: true, description: MAX_PRICE_AGE })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_PRICE_AGE_DAYS)
  maxPriceAgeDays?: number;
}

@InputType('DiscountInput', { description: 'A negotiated discount on a provider’s list prices' })
export class DiscountInput {
  @ApiProperty() @Field() @IsString() @Length(1, 64) provider: string;
  @ApiProperty({ type: Number }) @Field(() => Float) @IsNumber() @Min(0) @Max(99) percent: number;
}

@InputType('OfferFilter')
export class OfferFilterInput extends CompliancePolicyInput {
  @Field(() => [String], { nullable: true }) @IsOptional() @ArrayMaxSize(50) @IsString({ each: true }) @Length(1, 64, { each: true }) gpus?: string[];
  @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(1) @Max(1024) gpuCount?: number;
  @Field(() => GpuCountModeEnum, { nullable: true }) @IsOptional() @IsIn(GPU_COUNT_MODES) gpuCountMode?: string;
  @Field(() => Float, { nullable: true }) @IsOptional() @IsNumber() @Min(0) @Max(4096) minGpuMemoryGb?: number;
  @Field(() => ModelInput, { nullable: true, description: 'A model to serve, turned into a memory need per GPU (as REST model/parametersB)' })
  @IsOptional()
  @ValidateNested()
  @Type(() => ModelInput)
  model?: ModelInput;
  @Field(() => CurrencyEnum, { nullable: true }) @IsOptional() @IsIn(CURRENCIES) currency?: Currency;
}

@ArgsType()
export class OffersArgs {
  @Field(() => OfferFilterInput, { nullable: true }) @IsOptional() @ValidateNested() @Type(() => OfferFilterInput) filter?: OfferFilterInput;
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, { message: 'must be a version id or label' })
  version?: string;
  @Field(() => Date, { nullable: true }) @IsOptional() @IsDate() asOf?: Date;
  @Field(() => Int, { nullable: true, description: 'Page size, 1–500 (default 50)' }) @IsOptional() @IsInt() @Min(1) @Max(500) first?: number;
  @Field(() => String, { nullable: true, description: 'nextCursor of the previous page' }) @IsOptional() @IsString() @Length(1, 500) after?: string;
}

@ArgsType()
export class CheapestOffersArgs {
  @Field(() => GpuRequirementInput) @ValidateNested() @Type(() => GpuRequirementInput) requirement: GpuRequirementInput;
  @Field(() => CompliancePolicyInput, { nullable: true }) @IsOptional() @ValidateNested() @Type(() => CompliancePolicyInput) policy?: CompliancePolicyInput;
  @Field(() => CurrencyEnum, { nullable: true }) @IsOptional() @IsIn(CURRENCIES) currency?: Currency;
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, { message: 'must be a version id or label' })
  version?: string;
  @Field(() => Date, { nullable: true }) @IsOptional() @IsDate() asOf?: Date;
  @Field(() => Int, { nullable: true, description: '1–100 (default 10)' }) @IsOptional() @IsInt() @Min(1) @Max(100) limit?: number;
  @Field(() => Boolean, { nullable: true }) @IsOptional() @IsBoolean() explain?: boolean;
  @Field(() => [DiscountInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => DiscountInput)
  discounts?: DiscountInput[];
}
