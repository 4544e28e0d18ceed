// The answer of POST /v1/estimates and GraphQL `estimate`: one model class for both transports.
import { Field, Float, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import {
  INTERRUPTION_RATES,
  type Availability,
  type InterruptionRate,
  type PriceKind,
  type PricingModel,
  type SourceKind,
} from '../../../domain/catalog/catalog.types.js';
import { SPOT_INTERRUPTION_BASES, type SpotInterruptionBasis } from '../../../domain/cost-model/index.js';
import { AvailabilityEnum, PriceKindEnum, PricingModelEnum, SourceKindEnum } from '../../../common/models/enums.js';
import { ExchangeRateModel } from '../../../common/models/exchange-rate.model.js';
import { MoneyModel } from '../../../common/models/money.model.js';
import { CatalogVersionRefModel } from '../../catalog/index.js';
import { MeasuredModel } from './measured.model.js';
import { EstimateOwnedModel } from './estimate-owned.model.js';
import { EstimateCarbonModel } from './estimate-carbon.model.js';

const PM = { enum: PricingModelEnum, enumName: 'PricingModel' } as const;
const INTERRUPTIONS_PER_HOUR = 'Spot: interruptions per instance-hour the effective price assumes; null for other pricing models';
const INTERRUPTION_BASIS =
  "Spot: where interruptionsPerHour came from: REQUEST (spotInterruptionsPerHour), MARKET (the marketplace offer's market.interruptionsPerHour), ADVISOR_BAND (the offer's interruptionRate band) or DEFAULT; null for other pricing models";

@ObjectType('EstimateTier', { description: 'One tier the plan buys: its offer, its capacity and cost, and the hidden costs priced from its provider' })
export class EstimateTierModel {
  @ApiProperty(PM) @Field(() => PricingModelEnum) pricingModel: PricingModel;
  @ApiProperty({ description: 'The offer the tier buys (id stable across versions)' }) @Field() offerId: string;
  @ApiProperty({ example: 'aws' }) @Field() provider: string;
  @ApiProperty({ example: 'aws:eu-north-1' }) @Field() region: string;
  @ApiProperty({ description: 'GPU-hours per month on this tier' }) @Field(() => Float) gpuHours: number;
  @ApiProperty() @Field(() => Float) instanceHours: number;
  @ApiProperty({ type: MoneyModel, description: 'Per month, in cents' }) @Field(() => MoneyModel) cost: MoneyModel;
  @ApiProperty({ description: 'Share of all GPU-hours, 0..1' }) @Field(() => Float) capacityShare: number;
  @ApiProperty({ description: 'Egress this tier carries per month: the estimate’s egress × capacityShare, GB' }) @Field(() => Float) egressGb: number;
  @ApiProperty({
    type: MoneyModel,
    nullable: true,
    description: "Its provider's egress price per GB (or the request's, where the provider's is unknown); null: unknown",
  })
  @Field(() => MoneyModel, {
    nullable: true,
    description: "Its provider's egress price per GB (or the request's, where the provider's is unknown); null: unknown",
  })
  egressPricePerGb: MoneyModel | null;
  @ApiProperty({ type: MoneyModel, description: 'Egress of this tier per month (0 when its price is unknown)' }) @Field(() => MoneyModel) egress: MoneyModel;
  @ApiProperty({ type: MoneyModel, description: 'Inside cost: model loading after starts from zero' }) @Field(() => MoneyModel) coldStarts: MoneyModel;
  @ApiProperty({ type: MoneyModel, description: 'Inside cost: the spot interruption overhead' }) @Field(() => MoneyModel) spotRestarts: MoneyModel;
  @ApiProperty({ nullable: true, type: Number, description: 'kWh per month of this tier (docs/carbon.md); null when a figure is missing' })
  @Field(() => Float, { nullable: true, description: 'kWh per month of this tier (docs/carbon.md); null when a figure is missing' })
  kwhPerMonth: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'kg CO2e per month of this tier, location-based; null when a figure is missing' })
  @Field(() => Float, { nullable: true, description: 'kg CO2e per month of this tier, location-based; null when a figure is missing' })
  kgCo2ePerMonth: number | null;
}

@ObjectType('EstimateHour')
export class EstimateHourModel {
  @ApiProperty({ description: 'Hour of the period: of the day (0-23), or of the week (0-167, Monday 00:00 first)' }) @Field(() => Int) hour: number;
  @ApiProperty() @Field(() => Float) demandRequestsPerSecond: number;
  @ApiProperty() @Field(() => Float) onlineRequestsPerSecond: number;
  @ApiProperty() @Field(() => Int) replicasNeeded: number;
  @ApiProperty() @Field(() => Int) reservedInstances: number;
  @ApiProperty() @Field(() => Int) onDemandInstances: number;
  @ApiProperty() @Field(() => Int) spotInstances: number;
  @ApiProperty() @Field(() => Float) serverlessReplicaHours: number;
  @ApiProperty() @Field(() => Float) batchReplicaHours: number;
  @ApiProperty({ description: 'Of onDemandInstances, those bought for batch work idle capacity could not absorb' })
  @Field(() => Int)
  batchOnDemandInstances: number;
  @ApiProperty({ description: 'Of spotInstances, those bought for batch work' }) @Field(() => Int) batchSpotInstances: number;
  @ApiProperty({ description: 'Of serverlessReplicaHours, those bought for batch work' }) @Field(() => Float) batchServerlessReplicaHours: number;
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
  @ApiProperty({ enum: SourceKindEnum, enumName: 'SourceKind', nullable: true, description: 'Where the price was read (as on Offer.sourceKind)' })
  @Field(() => SourceKindEnum, { nullable: true, description: 'Where the price was read (as on Offer.sourceKind)' })
  sourceKind: SourceKind | null;
  @ApiProperty({ enum: AvailabilityEnum, enumName: 'Availability', description: 'As on Offer.availability; UNCONFIRMED adds a warning' })
  @Field(() => AvailabilityEnum, { description: 'As on Offer.availability; UNCONFIRMED adds a warning' })
  availability: Availability;
}

@ObjectType('EstimateBaseline')
export class EstimateBaselineModel {
  @ApiProperty({ type: MoneyModel, description: 'GPU capacity plus egress, per month, in cents' }) @Field(() => MoneyModel) monthlyCost: MoneyModel;
  @ApiProperty({ ...PM, description: 'Always ON_DEMAND: a baseline is what buying on demand would cost' })
  @Field(() => PricingModelEnum)
  pricingModel: PricingModel;
  @ApiProperty({ description: 'The on-demand offer it is priced from' }) @Field() offerId: string;
  @ApiProperty({ description: 'What the baseline runs: naive = peak replicas 24/7; autoscaled = follows demand' }) @Field() description: string;
}

@ObjectType('EstimateBaselines')
export class EstimateBaselinesModel {
  @ApiProperty({ type: EstimateBaselineModel, nullable: true, description: 'Null when no compliant on-demand offer holds a replica (see unavailableReason)' })
  @Field(() => EstimateBaselineModel, { nullable: true, description: 'Null when no compliant on-demand offer holds a replica (see unavailableReason)' })
  naive: EstimateBaselineModel | null;
  @ApiProperty({ type: EstimateBaselineModel, nullable: true })
  @Field(() => EstimateBaselineModel, { nullable: true })
  onDemandAutoscaled: EstimateBaselineModel | null;
  @ApiProperty({ nullable: true, type: String, description: 'Why the baselines are not priced; null when they are' })
  @Field(() => String, { nullable: true, description: 'Why the baselines are not priced; null when they are' })
  unavailableReason: string | null;
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

const EGRESS_KNOWN =
  'False when a tier carries egress but its provider has no known egress price: that share is priced at egressFallbackPricePerGb, or counts as 0 without one (warnings say so)';
const EGRESS_FALLBACK =
  "Price per GB applied where a provider has none: the request's egressPricePerGb, else the dearest known price of the catalog version; null when neither exists";

@ObjectType('HiddenCosts')
export class HiddenCostsModel {
  @ApiProperty({ type: MoneyModel, description: "Added to monthlyCost: the tiers' egress, each at its own provider's price" })
  @Field(() => MoneyModel)
  egress: MoneyModel;
  @ApiProperty({ description: EGRESS_KNOWN })
  @Field({ description: EGRESS_KNOWN })
  egressPriceKnown: boolean;
  @ApiProperty({ type: [String], description: 'Those providers' }) @Field(() => [String], { description: 'Those providers' }) egressUnpricedProviders: string[];
  @ApiProperty({ type: MoneyModel, nullable: true, description: EGRESS_FALLBACK })
  @Field(() => MoneyModel, { nullable: true, description: EGRESS_FALLBACK })
  egressFallbackPricePerGb: MoneyModel | null;
  @ApiProperty({ type: MoneyModel, description: 'Inside the tier costs' }) @Field(() => MoneyModel) coldStarts: MoneyModel;
  @ApiProperty({ type: MoneyModel, description: 'Inside the tier costs' }) @Field(() => MoneyModel) spotRestarts: MoneyModel;
  @ApiProperty({ type: MoneyModel, description: 'Paid for and not used; inside the tier costs' }) @Field(() => MoneyModel) idleCapacity: MoneyModel;
}

@ObjectType('ApiComparison')
export class ApiComparisonModel {
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) apiPricePer1MTokens: MoneyModel;
  @ApiProperty() @Field(() => Float) tokensPerDay: number;
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) monthlyApiCost: MoneyModel;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Daily tokens at which the API costs what this plan costs; null when the API price is 0 (no volume reaches it)',
  })
  @Field(() => Float, { nullable: true })
  breakEvenTokensPerDay: number | null;
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
  @ApiProperty({ description: 'The period the profile describes: 24 (an average day) or 168 (an average week)' })
  @Field(() => Int, { description: 'The period the profile describes: 24 (an average day) or 168 (an average week)' })
  periodHours: number;
  @ApiProperty({ type: [EstimateTierModel] }) @Field(() => [EstimateTierModel]) tiers: EstimateTierModel[];
  @ApiProperty({ type: [EstimateHourModel], description: 'One row per hour of the period: 24 (day) or 168 (week)' })
  @Field(() => [EstimateHourModel], { description: 'One row per hour of the period: 24 (day) or 168 (week)' })
  hourlyPlan: EstimateHourModel[];
  @ApiProperty() @Field() gpu: string;
  @ApiProperty() @Field(() => Float) gpuMemoryGb: number;
  @ApiProperty() @Field() precision: string;
  @ApiProperty() @Field(() => Int) gpusPerReplica: number;
  @ApiProperty({ type: EstimateModelInfoModel }) @Field(() => EstimateModelInfoModel) model: EstimateModelInfoModel;
  @ApiProperty({ type: [ChosenOfferModel] }) @Field(() => [ChosenOfferModel]) chosenOffers: ChosenOfferModel[];
  @ApiProperty() @Field(() => Int) reservedInstances: number;
  @ApiProperty({ type: EstimateBaselinesModel }) @Field(() => EstimateBaselinesModel) baselines: EstimateBaselinesModel;
  @ApiProperty({ nullable: true, type: Number, description: 'Percent saved against the naive baseline; null without it' })
  @Field(() => Float, { nullable: true, description: 'Percent saved against the naive baseline; null without it' })
  savingsVsNaivePct: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Percent saved against on-demand autoscaling; null without it' })
  @Field(() => Float, { nullable: true, description: 'Percent saved against on-demand autoscaling; null without it' })
  savingsVsOnDemandAutoscaledPct: number | null;
  @ApiProperty({ type: ServerlessComparisonModel, nullable: true })
  @Field(() => ServerlessComparisonModel, { nullable: true })
  serverless: ServerlessComparisonModel | null;
  @ApiProperty({ type: UnitEconomicsModel }) @Field(() => UnitEconomicsModel) unitEconomics: UnitEconomicsModel;
  @ApiProperty({ type: ReplicaThroughputModel }) @Field(() => ReplicaThroughputModel) replicaThroughput: ReplicaThroughputModel;
  @ApiProperty({ type: HiddenCostsModel }) @Field(() => HiddenCostsModel) hiddenCosts: HiddenCostsModel;
  @ApiProperty({ type: ApiComparisonModel, nullable: true }) @Field(() => ApiComparisonModel, { nullable: true }) apiComparison: ApiComparisonModel | null;
  @ApiProperty({ type: [EstimateAlternativeModel] }) @Field(() => [EstimateAlternativeModel]) alternatives: EstimateAlternativeModel[];
  @ApiProperty({ type: EstimateCarbonModel, description: 'Energy and carbon of the plan, and the plan the other objective chooses (docs/carbon.md)' })
  @Field(() => EstimateCarbonModel, { description: 'Energy and carbon of the plan, and the plan the other objective chooses (docs/carbon.md)' })
  carbon: EstimateCarbonModel;
  @ApiProperty({ type: EstimateOwnedModel, nullable: true, description: 'Owning the base load against renting it; null unless `owned` was given' })
  @Field(() => EstimateOwnedModel, { nullable: true, description: 'Owning the base load against renting it; null unless `owned` was given' })
  owned: EstimateOwnedModel | null;
  @ApiProperty({ type: [String] }) @Field(() => [String]) assumptions: string[];
  @ApiProperty({ type: [String] }) @Field(() => [String]) warnings: string[];
  @ApiProperty({
    type: [String],
    description:
      'One sentence each for a choice a reader may find surprising (a large GPU for a small model, a plan nearly all spot): why it is cheapest per token',
  })
  @Field(() => [String], {
    description:
      'One sentence each for a choice a reader may find surprising (a large GPU for a small model, a plan nearly all spot): why it is cheapest per token',
  })
  explanations: string[];
  @ApiProperty({ type: ExchangeRateModel, nullable: true, description: 'The FX rate prices were converted with; null when none was converted' })
  @Field(() => ExchangeRateModel, { nullable: true, description: 'The FX rate prices were converted with; null when none was converted' })
  exchangeRate: ExchangeRateModel | null;
  @ApiProperty({ type: MeasuredModel, nullable: true, description: 'What the request’s measurements showed; null without measurements' })
  @Field(() => MeasuredModel, { nullable: true, description: 'What the request’s measurements showed; null without measurements' })
  measured: MeasuredModel | null;
}
