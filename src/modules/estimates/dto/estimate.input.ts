// The body of POST /v1/estimates and the GraphQL EstimateInput: one class for both, so both
// validate the same bounds and reach the same service.
import { Field, Float, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDate,
  IsDefined,
  IsObject,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { CURRENCIES, type Currency } from '../../../domain/catalog/catalog.types.js';
import { MODEL_PRESET_SLUGS, PRECISIONS } from '../../../domain/sizing/index.js';
import { CurrencyEnum } from '../../../common/models/enums.js';
import { PrecisionEnum } from '../../../common/models/policy-enums.js';
import { CompliancePolicyInput, DiscountInput } from '../../offers/dto/offers.input.js';

const DECIMAL = /^\d{1,9}(\.\d{1,9})?$/;

@InputType('EstimateModelInput', { description: 'The model: a preset, or parametersB with an optional shape' })
export class EstimateModelInput {
  @ApiPropertyOptional({ enum: MODEL_PRESET_SLUGS, example: 'llama-3-8b' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  preset?: string;

  @ApiPropertyOptional({ enum: PRECISIONS, description: 'The model’s precision (default FP16); `precisions` may allow others' })
  @Field(() => PrecisionEnum, { nullable: true })
  @IsOptional()
  @IsIn(PRECISIONS)
  precision?: string;

  @ApiPropertyOptional({ description: 'Total parameters, billions (custom model)', minimum: 0.01, maximum: 10000 })
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsNumber()
  @Min(0.01)
  @Max(10_000)
  parametersB?: number;

  @ApiPropertyOptional({ description: 'Active parameters per token (mixture of experts), billions' })
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsNumber()
  @Min(0.01)
  @Max(10_000)
  activeParametersB?: number;

  @ApiPropertyOptional() @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(1) @Max(1000) layers?: number;
  @ApiPropertyOptional() @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(64) @Max(65_536) hiddenSize?: number;
  @ApiPropertyOptional() @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(1) @Max(1024) attentionHeads?: number;
  @ApiPropertyOptional() @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(1) @Max(1024) kvHeads?: number;
  @ApiPropertyOptional() @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(16) @Max(1024) headDim?: number;
}

@InputType('WorkloadInput')
export class WorkloadInput {
  @ApiPropertyOptional({
    type: [Number],
    minItems: 24,
    maxItems: 24,
    description: '24 values of requests/s, hour 0 first (an average day); or give requestsPerSecond',
  })
  @Field(() => [Float], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(24)
  @ArrayMaxSize(24)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { each: true })
  @Min(0, { each: true })
  @Max(1_000_000, { each: true })
  hourlyProfile?: number[];

  @ApiPropertyOptional({ description: 'Flat rate, requests/s, instead of hourlyProfile' })
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1_000_000)
  requestsPerSecond?: number;

  @ApiProperty({ example: 500, minimum: 1, maximum: 1_000_000 })
  @Field(() => Int)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  avgInputTokens: number;

  @ApiProperty({ example: 200, minimum: 1, maximum: 1_000_000 })
  @Field(() => Int)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  avgOutputTokens: number;

  @ApiPropertyOptional({ example: 0.15, minimum: 0, maximum: 1, description: 'Share of requests that are deferrable batch work' })
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  batchShare?: number;

  @ApiPropertyOptional({ description: 'Latency target per output token, ms (default 50)' })
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsNumber()
  @Min(1)
  @Max(10_000)
  interTokenLatencyMs?: number;

  @ApiPropertyOptional({ description: 'Target utilization of online replicas (default 0.75)' })
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsNumber()
  @Min(0.05)
  @Max(1)
  targetUtilization?: number;

  @ApiPropertyOptional({ description: 'Replicas kept running every hour (default 1)' })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  minReplicas?: number;

  @ApiPropertyOptional({ description: 'Allow zero replicas in hours without online demand (cold starts are charged)' })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  scaleToZero?: boolean;
}

@InputType('MeasuredThroughputInput', { description: 'Your own measurement per replica; replaces the roofline estimate' })
export class MeasuredThroughputInput {
  @ApiPropertyOptional() @Field(() => String, { nullable: true }) @IsOptional() @IsString() @Length(1, 64) gpu?: string;
  @ApiPropertyOptional({ enum: PRECISIONS }) @Field(() => PrecisionEnum, { nullable: true }) @IsOptional() @IsIn(PRECISIONS) precision?: string;
  @ApiPropertyOptional() @Field(() => Float, { nullable: true }) @IsOptional() @IsNumber() @Min(0.0001) @Max(1_000_000) requestsPerSecond?: number;
  @ApiPropertyOptional() @Field(() => Float, { nullable: true }) @IsOptional() @IsNumber() @Min(0.01) @Max(100_000_000) outputTokensPerSecond?: number;
}

@InputType('EstimateInput')
export class EstimateInput {
  @ApiProperty({ type: EstimateModelInput })
  @Field(() => EstimateModelInput)
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => EstimateModelInput)
  model: EstimateModelInput;

  @ApiProperty({ type: WorkloadInput })
  @Field(() => WorkloadInput)
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => WorkloadInput)
  workload: WorkloadInput;

  @ApiPropertyOptional({ type: CompliancePolicyInput, description: 'Which offers may be used; tolerance also picks spot use' })
  @Field(() => CompliancePolicyInput, { nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CompliancePolicyInput)
  policy?: CompliancePolicyInput;

  @ApiPropertyOptional({ enum: CURRENCIES, default: 'USD' })
  @Field(() => CurrencyEnum, { nullable: true })
  @IsOptional()
  @IsIn(CURRENCIES)
  currency?: Currency;

  @ApiPropertyOptional({ type: [String], description: 'Allowed GPU slugs (default: every GPU of the catalog)' })
  @Field(() => [String], { nullable: true })
  @IsOptional()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  gpus?: string[];

  @ApiPropertyOptional({ enum: PRECISIONS, isArray: true, description: 'Allowed precisions (default: the model’s)' })
  @Field(() => [PrecisionEnum], { nullable: true })
  @IsOptional()
  @ArrayMinSize(1)
  @IsIn(PRECISIONS, { each: true })
  precisions?: string[];

  @ApiPropertyOptional({ default: 730 })
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsNumber()
  @Min(1)
  @Max(8784)
  hoursPerMonth?: number;

  @ApiPropertyOptional({ description: 'RECOVERABLE: share of burst replicas on spot (default 0.5)' })
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  recoverableSpotShare?: number;

  @ApiPropertyOptional({ description: 'Expected spot interruptions per instance-hour (default 0.05)' })
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(10)
  spotInterruptionsPerHour?: number;

  @ApiPropertyOptional({ description: 'Seconds from instance start to serving (default 60 s + weights at 1 GB/s)' })
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(86_400)
  modelLoadSeconds?: number;

  @ApiPropertyOptional({ description: 'Data sent out per month, GB (priced at the provider’s egress rate)' })
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(100_000_000)
  egressGbPerMonth?: number;

  @ApiPropertyOptional({ example: '0.60', description: 'Compare with a hosted API at this price per 1M tokens, in `currency`' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Matches(DECIMAL, { message: 'must be a decimal number such as 0.60' })
  apiPricePer1MTokens?: string;

  @ApiPropertyOptional({ type: [MeasuredThroughputInput] })
  @Field(() => [MeasuredThroughputInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => MeasuredThroughputInput)
  measuredThroughput?: MeasuredThroughputInput[];

  @ApiPropertyOptional({ type: [DiscountInput], description: 'Negotiated discounts on list prices' })
  @Field(() => [DiscountInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => DiscountInput)
  discounts?: DiscountInput[];

  @ApiPropertyOptional({ default: 3, minimum: 0, maximum: 10 })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10)
  maxAlternatives?: number;

  @ApiPropertyOptional({ description: 'Catalog version id or label' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, { message: 'must be a version id or label' })
  version?: string;

  @ApiPropertyOptional({ type: String, format: 'date-time' })
  @Field(() => Date, { nullable: true })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'must be an ISO 8601 timestamp' })
  asOf?: Date;
}
