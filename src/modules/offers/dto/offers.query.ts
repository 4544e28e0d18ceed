// REST query parameters of GET /v1/offers and GET /v1/offers/cheapest.
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsBoolean, IsDate, IsIn, IsInt, IsNumber, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { CURRENCIES, PRICING_MODELS, type Currency } from '../../../domain/catalog/catalog.types.js';
import { GPU_COUNT_MODES, INTERRUPTION_TOLERANCES, MAX_PRICE_AGE_DAYS, OPERATOR_SCOPES, RESIDENCIES } from '../../../domain/compliance/index.js';
import { INCLUDE_ESTIMATES, MAX_PRICE_AGE } from './offers.input.js';
import { PRECISIONS } from '../../../domain/sizing/index.js';
import { CommaList, QueryBoolean, QueryNumber } from './list-param.js';

const LIST = { type: String, description: 'comma-separated' } as const;
const DECIMAL = /^\d{1,6}(\.\d{1,6})?$/;

export class OffersQuery {
  @ApiPropertyOptional({ ...LIST, example: 'h100-sxm-80gb,h100-pcie-80gb', description: 'GPU model slug(s), comma-separated' })
  @IsOptional()
  @CommaList()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  gpu?: string[];

  @ApiPropertyOptional({ description: 'GPUs per instance (exact), or in total with gpuCountMode=TOTAL' })
  @IsOptional()
  @QueryNumber()
  @IsInt()
  @Min(1)
  @Max(1024)
  gpuCount?: number;

  @ApiPropertyOptional({ enum: GPU_COUNT_MODES, default: 'PER_INSTANCE' })
  @IsOptional()
  @IsIn(GPU_COUNT_MODES)
  gpuCountMode?: string;

  @ApiPropertyOptional({ description: 'Minimum memory per GPU, GB' })
  @IsOptional()
  @QueryNumber()
  @IsNumber()
  @Min(0)
  @Max(4096)
  minGpuMemoryGb?: number;

  @ApiPropertyOptional({ description: 'Model to serve (preset name, e.g. llama-3-70b): turned into a memory need per GPU' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  model?: string;

  @ApiPropertyOptional({ description: 'Or a custom model to serve: total parameters in billions (default shape assumed)' })
  @IsOptional()
  @QueryNumber()
  @IsNumber()
  @Min(0.01)
  @Max(10_000)
  parametersB?: number;

  @ApiPropertyOptional({ enum: PRECISIONS, description: 'Precision for `model` or `parametersB` (default FP16)' })
  @IsOptional()
  @IsIn(PRECISIONS)
  precision?: string;

  @ApiPropertyOptional({ ...LIST, description: 'Provider slug allow list' })
  @IsOptional()
  @CommaList()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  provider?: string[];

  @ApiPropertyOptional({ ...LIST, description: 'Provider slug deny list' })
  @IsOptional()
  @CommaList()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  excludeProvider?: string[];

  @ApiPropertyOptional({ ...LIST, description: 'Region codes (aws:eu-central-1 or eu-central-1)' })
  @IsOptional()
  @CommaList()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @Length(1, 100, { each: true })
  region?: string[];

  @ApiPropertyOptional({ ...LIST, description: 'ISO country code(s) of the region' })
  @IsOptional()
  @CommaList()
  @ArrayMaxSize(250)
  @Matches(/^[A-Za-z]{2}$/, { each: true, message: 'each value must be an ISO 3166-1 alpha-2 code' })
  country?: string[];

  @ApiPropertyOptional({ enum: RESIDENCIES })
  @IsOptional()
  @IsIn(RESIDENCIES)
  residency?: string;

  @ApiPropertyOptional({ ...LIST, description: 'Explicit country allow list (with or instead of residency)' })
  @IsOptional()
  @CommaList()
  @ArrayMaxSize(250)
  @Matches(/^[A-Za-z]{2}$/, { each: true, message: 'each value must be an ISO 3166-1 alpha-2 code' })
  countries?: string[];

  @ApiPropertyOptional({ description: 'Let GDPR_ADEQUATE include partial adequacy (US Data Privacy Framework, Canada PIPEDA)' })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  allowPartialAdequacy?: boolean;

  @ApiPropertyOptional({ enum: OPERATOR_SCOPES })
  @IsOptional()
  @IsIn(OPERATOR_SCOPES)
  operator?: string;

  @ApiPropertyOptional({ example: 'GDPR_PERSONAL_DATA', description: 'Named policy: GDPR_PERSONAL_DATA, EU_SOVEREIGN, DE_BSI_C5' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  preset?: string;

  @ApiPropertyOptional({ ...LIST, enum: PRICING_MODELS, description: 'Allowed pricing model(s)' })
  @IsOptional()
  @CommaList()
  @IsIn(PRICING_MODELS, { each: true })
  pricingModel?: string[];

  @ApiPropertyOptional({ ...LIST, enum: PRICING_MODELS, description: 'Alias of pricingModel' })
  @IsOptional()
  @CommaList()
  @IsIn(PRICING_MODELS, { each: true })
  pricingModels?: string[];

  @ApiPropertyOptional({ enum: INTERRUPTION_TOLERANCES, description: 'INTOLERANT excludes spot' })
  @IsOptional()
  @IsIn(INTERRUPTION_TOLERANCES)
  tolerance?: string;

  @ApiPropertyOptional({ ...LIST, example: 'ISO27001,BSI_C5', description: 'Required certifications (all)' })
  @IsOptional()
  @CommaList()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 40, { each: true })
  certifications?: string[];

  @ApiPropertyOptional({ example: 99.9, description: 'Minimum published SLA, percent' })
  @IsOptional()
  @QueryNumber()
  @IsNumber()
  @Min(0)
  @Max(100)
  minSla?: number;

  @ApiPropertyOptional({ example: '4.00', description: 'Maximum comparable price per GPU-hour, in `currency`' })
  @IsOptional()
  @Matches(DECIMAL, { message: 'must be a decimal number such as 4.00' })
  maxPricePerGpuHour?: string;

  @ApiPropertyOptional({ type: Boolean, default: false, description: INCLUDE_ESTIMATES })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  includeEstimates?: boolean;

  @ApiPropertyOptional({ type: Number, description: MAX_PRICE_AGE })
  @IsOptional()
  @QueryNumber()
  @IsInt()
  @Min(0)
  @Max(MAX_PRICE_AGE_DAYS)
  maxPriceAgeDays?: number;

  @ApiPropertyOptional({ enum: CURRENCIES, default: 'USD' })
  @IsOptional()
  @IsIn(CURRENCIES)
  currency?: Currency;

  @ApiPropertyOptional({ description: 'Catalog version id or label' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, { message: 'must be a version id or label' })
  version?: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Answer from the version current at this time' })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'must be an ISO 8601 timestamp' })
  asOf?: Date;

  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 500 })
  @IsOptional()
  @QueryNumber()
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

export class ListOffersQuery extends OffersQuery {
  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  cursor?: string;
}

export class CheapestOffersQuery extends OffersQuery {
  @ApiPropertyOptional({ description: 'Also list the cheaper offers the policy excluded, with every reason' })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  explain?: boolean;

  @ApiPropertyOptional({ ...LIST, example: 'aws:12,azure:5', description: 'Negotiated discounts, provider:percent' })
  @IsOptional()
  @CommaList()
  @ArrayMaxSize(50)
  @Matches(/^[a-z0-9-]+:\d{1,2}(\.\d{1,4})?$/, { each: true, message: 'each value must be provider:percent, e.g. aws:12' })
  discounts?: string[];
}
