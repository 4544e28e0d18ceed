// The answer of POST /v1/estimates and GraphQL `estimate`: one model class for both transports.
import { Field, Float, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { INTERRUPTION_RATES, type InterruptionRate, type PriceKind, type PricingModel } from '../../../domain/catalog/catalog.types.js';
import { SPOT_INTERRUPTION_BASES, type SpotInterruptionBasis } from '../../../domain/cost-model/index.js';
import { PriceKindEnum, PricingModelEnum } from '../../../common/models/enums.js';
import { MoneyModel } from '../../../common/models/money.model.js';
import { CatalogVersionRefModel } from '../../catalog/models/catalog-version.model.js';

const PM = { enum: PricingModelEnum, enumName: 'PricingModel' } as const;
const INTERRUPTIONS_PER_HOUR = 'Spot: interruptions per instance-hour the effective price assumes; null for other pricing models';
const INTERRUPTION_BASIS =
  "Spot: where interruptionsPerHour came from: REQUEST (spotInterruptionsPerHour), ADVISOR_BAND (the offer's interruptionRate band) or DEFAULT; null for other pricing models";

@ObjectType('EstimateTier')
export class EstimateTierModel {
  @ApiProperty(PM) @Field(() => PricingModelEnum) pricingModel: PricingModel;
  @ApiProperty({ description: 'GPU-hours per month on this tier' }) @Field(() => Float) gpuHours: number;
  @ApiProperty() @Field(() => Float) instanceHours: number;
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) cost: MoneyModel;
  @ApiProperty({ description: 'Share of all GPU-hours, 0..1' }) @Field(() => Float) capacityShare: number;
}

@ObjectType('EstimateHour')
export class EstimateHourModel {
  @ApiProperty() @Field(() => Int) hour: number;
  @ApiProperty() @Field(() => Float) demandRequestsPerSecond: number;
  @ApiProperty() @Field(() => Float) onlineRequestsPerSecond: number;
  @ApiProperty() @Field(() => Int) replicasNeeded: number;
  @ApiProperty() @Field(() => Int) reservedInstances: number;
  @ApiProperty() @Field(() => Int) onDemandInstances: number;
  @ApiProperty() @Field(() => Int) spotInstances: number;
  @ApiProperty() @Field(() => Float) serverlessReplicaHours: number;
  @ApiProperty() @Field(() => Float) batchReplicaHours: number;
}

@ObjectType('ChosenOffer')
export class ChosenOfferModel {
  @ApiProperty(PM) @Field(() => PricingModelEnum) pricingModel: PricingModel;
  @ApiProperty({ description: 'Offer id (stable across versions)' }) @Field() offerId: string;
  @ApiProperty() @Field() provider: string;
  @ApiProperty() @Field() region: string;
  @ApiProperty() @Field() country: string;
  @ApiProperty() @Field() gpu: string;
  @ApiProperty() @Field() instanceType: string;
  @ApiProperty() @Field(() => Int) gpusPerInstance: number;
  @ApiProperty() @Field(() => Int) replicasPerInstance: number;
  @ApiProperty({ type: MoneyModel, description: 'Comparable per instance-hour (reserved: upfront amortized)' })
  @Field(() => MoneyModel)
  pricePerInstanceHour: MoneyModel;
  @ApiProperty({ type: MoneyModel, description: 'Spot: including interruption overhead' }) @Field(() => MoneyModel) effectivePricePerInstanceHour: MoneyModel;
  @ApiProperty({ nullable: true, type: Number, example: 0.0000702648, description: INTERRUPTIONS_PER_HOUR })
  @Field(() => Float, { nullable: true, description: INTERRUPTIONS_PER_HOUR })
  interruptionsPerHour: number | null;
  @ApiProperty({ nullable: true, type: String, enum: SPOT_INTERRUPTION_BASES, example: 'ADVISOR_BAND', description: INTERRUPTION_BASIS })
  @Field(() => String, { nullable: true, description: INTERRUPTION_BASIS })
  interruptionBasis: SpotInterruptionBasis | null;
  @ApiProperty({
    nullable: true,
    type: String,
    enum: INTERRUPTION_RATES,
    example: '<5%',
    description: "Spot: the offer's AWS Spot Instance Advisor band (as on Offer.interruptionRate); null when unknown",
  })
  @Field(() => String, { nullable: true, description: "Spot: the offer's AWS Spot Instance Advisor band (as on Offer.interruptionRate); null when unknown" })
  interruptionRate: InterruptionRate | null;
  @ApiProperty() @Field() source: string;
  @ApiProperty({ example: '2026-07-30', description: 'When the source read the price from the provider' }) @Field() observedAt: string;
  @ApiProperty({ enum: PriceKindEnum, enumName: 'PriceKind', description: 'ESTIMATE only with includeEstimates (and a warning)' })
  @Field(() => PriceKindEnum)
  priceKind: PriceKind;
}

@ObjectType('EstimateBaseline')
export class EstimateBaselineModel {
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) monthlyCost: MoneyModel;
  @ApiProperty({ ...PM, description: 'Pricing model the baseline is priced at' }) @Field(() => PricingModelEnum) pricingModel: PricingModel;
  @ApiProperty({ description: 'What the baseline runs: naive = peak replicas 24/7; autoscaled = follows demand' }) @Field() description: string;
}

@ObjectType('EstimateBaselines')
export class EstimateBaselinesModel {
  @ApiProperty({ type: EstimateBaselineModel }) @Field(() => EstimateBaselineModel) naive: EstimateBaselineModel;
  @ApiProperty({ type: EstimateBaselineModel }) @Field(() => EstimateBaselineModel) onDemandAutoscaled: EstimateBaselineModel;
}

@ObjectType('ServerlessComparison')
export class ServerlessComparisonModel {
  @ApiProperty({ description: 'Dedicated price per replica-hour / serverless price per busy replica-hour' }) @Field(() => Float) breakEvenUtilization: number;
  @ApiProperty({ description: 'All-serverless would cost less than the best dedicated plan' }) @Field() cheaper: boolean;
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) monthlyCost: MoneyModel;
}

@ObjectType('UnitEconomics')
export class UnitEconomicsModel {
  @ApiProperty({ type: MoneyModel, nullable: true }) @Field(() => MoneyModel, { nullable: true }) costPer1MOutputTokens: MoneyModel | null;
  @ApiProperty({ type: MoneyModel, nullable: true }) @Field(() => MoneyModel, { nullable: true }) costPer1kRequests: MoneyModel | null;
  @ApiProperty({ type: MoneyModel, nullable: true }) @Field(() => MoneyModel, { nullable: true }) effectivePricePerGpuHour: MoneyModel | null;
  @ApiProperty({ description: 'Busy / paid replica-hours, 0..1' }) @Field(() => Float) averageUtilization: number;
}

@ObjectType('ReplicaThroughput')
export class ReplicaThroughputModel {
  @ApiProperty() @Field(() => Float) requestsPerSecond: number;
  @ApiProperty() @Field(() => Float) outputTokensPerSecond: number;
  @ApiProperty({ description: 'Concurrent sequences per replica the model chose' }) @Field(() => Int) batch: number;
  @ApiProperty({ nullable: true, type: Number }) @Field(() => Float, { nullable: true }) stepTimeMs: number | null;
  @ApiProperty({ example: 'MEMORY', description: 'MEMORY or COMPUTE bound, or MEASURED (your figure)' }) @Field() bound: string;
}

@ObjectType('HiddenCosts')
export class HiddenCostsModel {
  @ApiProperty({ type: MoneyModel, description: 'Added to monthlyCost' }) @Field(() => MoneyModel) egress: MoneyModel;
  @ApiProperty({ description: 'False when egress was asked for but the provider has no known egress price: egress then counts it as 0 (and warnings say so)' })
  @Field({ description: 'False when egress was asked for but the provider has no known egress price: egress then counts it as 0 (and warnings say so)' })
  egressPriceKnown: boolean;
  @ApiProperty({ type: MoneyModel, description: 'Inside the tier costs' }) @Field(() => MoneyModel) coldStarts: MoneyModel;
  @ApiProperty({ type: MoneyModel, description: 'Inside the tier costs' }) @Field(() => MoneyModel) spotRestarts: MoneyModel;
  @ApiProperty({ type: MoneyModel, description: 'Paid for and not used; inside the tier costs' }) @Field(() => MoneyModel) idleCapacity: MoneyModel;
}

@ObjectType('ApiComparison')
export class ApiComparisonModel {
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) apiPricePer1MTokens: MoneyModel;
  @ApiProperty() @Field(() => Float) tokensPerDay: number;
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) monthlyApiCost: MoneyModel;
  @ApiProperty({ description: 'Daily tokens at which the API costs what this plan costs' }) @Field(() => Float) breakEvenTokensPerDay: number;
  @ApiProperty() @Field() selfHostingCheaper: boolean;
}

@ObjectType('EstimateAlternative')
export class EstimateAlternativeModel {
  @ApiProperty() @Field() gpu: string;
  @ApiProperty() @Field() precision: string;
  @ApiProperty() @Field(() => Int) gpusPerReplica: number;
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) monthlyCost: MoneyModel;
  @ApiProperty({ description: 'Percent dearer than the chosen plan' }) @Field(() => Float) deltaVsChosenPct: number;
  @ApiProperty({ example: 'INT8 on l4-24gb instead of FP16 on a100-sxm-80gb: +12%' }) @Field() summary: string;
}

@ObjectType('EstimateModelInfo')
export class EstimateModelInfoModel {
  @ApiProperty() @Field() slug: string;
  @ApiProperty() @Field() name: string;
  @ApiProperty() @Field(() => Float) totalParametersB: number;
  @ApiProperty() @Field(() => Float) activeParametersB: number;
}

@ObjectType('Estimate')
export class EstimateModel {
  @ApiProperty({ type: CatalogVersionRefModel }) @Field(() => CatalogVersionRefModel) catalogVersion: CatalogVersionRefModel;
  @ApiProperty({ type: MoneyModel, description: 'GPU capacity plus egress, per month' }) @Field(() => MoneyModel) monthlyCost: MoneyModel;
  @ApiProperty({ type: MoneyModel, description: 'GPU capacity only (sum of the tiers)' }) @Field(() => MoneyModel) gpuCost: MoneyModel;
  @ApiProperty() @Field(() => Float) hoursPerMonth: number;
  @ApiProperty({ type: [EstimateTierModel] }) @Field(() => [EstimateTierModel]) tiers: EstimateTierModel[];
  @ApiProperty({ type: [EstimateHourModel], description: '24 rows: the average day' }) @Field(() => [EstimateHourModel]) hourlyPlan: EstimateHourModel[];
  @ApiProperty() @Field() gpu: string;
  @ApiProperty() @Field(() => Float) gpuMemoryGb: number;
  @ApiProperty() @Field() precision: string;
  @ApiProperty() @Field(() => Int) gpusPerReplica: number;
  @ApiProperty({ type: EstimateModelInfoModel }) @Field(() => EstimateModelInfoModel) model: EstimateModelInfoModel;
  @ApiProperty({ type: [ChosenOfferModel] }) @Field(() => [ChosenOfferModel]) chosenOffers: ChosenOfferModel[];
  @ApiProperty() @Field(() => Int) reservedInstances: number;
  @ApiProperty({ type: EstimateBaselinesModel }) @Field(() => EstimateBaselinesModel) baselines: EstimateBaselinesModel;
  @ApiProperty() @Field(() => Float) savingsVsNaivePct: number;
  @ApiProperty() @Field(() => Float) savingsVsOnDemandAutoscaledPct: number;
  @ApiProperty({ type: ServerlessComparisonModel, nullable: true })
  @Field(() => ServerlessComparisonModel, { nullable: true })
  serverless: ServerlessComparisonModel | null;
  @ApiProperty({ type: UnitEconomicsModel }) @Field(() => UnitEconomicsModel) unitEconomics: UnitEconomicsModel;
  @ApiProperty({ type: ReplicaThroughputModel }) @Field(() => ReplicaThroughputModel) replicaThroughput: ReplicaThroughputModel;
  @ApiProperty({ type: HiddenCostsModel }) @Field(() => HiddenCostsModel) hiddenCosts: HiddenCostsModel;
  @ApiProperty({ type: ApiComparisonModel, nullable: true }) @Field(() => ApiComparisonModel, { nullable: true }) apiComparison: ApiComparisonModel | null;
  @ApiProperty({ type: [EstimateAlternativeModel] }) @Field(() => [EstimateAlternativeModel]) alternatives: EstimateAlternativeModel[];
  @ApiProperty({ type: [String] }) @Field(() => [String]) assumptions: string[];
  @ApiProperty({ type: [String] }) @Field(() => [String]) warnings: string[];
}
