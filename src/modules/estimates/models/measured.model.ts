// What an estimate's measurements showed (docs/measurements.md): coverage of each measurement, the
// demand profile derived from traffic, the fleet's utilization by hour of the week, and the
// current fleet priced beside the plan. REST and GraphQL answer the same model.
import { Field, Float, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { PRICING_MODELS, type PricingModel } from '../../../domain/catalog/catalog.types.js';
import { SERIES_KINDS, TRAFFIC_UNITS, type SeriesKind, type TrafficUnit } from '../../../domain/measurements/index.js';
import { PricingModelEnum } from '../../../common/models/enums.js';
import { MoneyModel } from '../../../common/models/money.model.js';
import { SeriesKindEnum, TrafficUnitEnum } from '../dto/measurements.input.js';

const FLEET_KWH = "kWh per month of the fleet at its measured mean utilization (docs/carbon.md's power model); null without utilization or an energy figure";
const FLEET_KG = 'kg CO2e per month of the fleet at its measured mean utilization (location-based); null without utilization or an energy figure';
const WEEK = 'Monday 00:00 in the measurements’ time zone first, 168 values';

@ObjectType({ isAbstract: true })
export class MeasuredCoverageModel {
  @ApiProperty({ description: 'Series in the measurement (one per GPU for utilization)' }) @Field(() => Int) series: number;
  @ApiProperty() @Field(() => Int) samples: number;
  @ApiProperty({ description: 'The median spacing of samples, seconds' }) @Field(() => Float) stepSeconds: number;
  @ApiProperty({ description: 'First sample' }) @Field() from: Date;
  @ApiProperty({ description: 'Last sample plus one step' }) @Field() to: Date;
  @ApiProperty({ description: 'Length of the window, days (under 7 is answered with a warning)' }) @Field(() => Float) days: number;
  @ApiProperty({ description: 'Share of the window the samples hold, percent' }) @Field(() => Float) coveragePct: number;
  @ApiProperty({ description: 'Places where samples are more than 1.5 steps apart' }) @Field(() => Int) gaps: number;
}

@ObjectType('MeasuredTraffic', { description: 'Measured traffic and the demand profile the plan was made from' })
export class MeasuredTrafficModel extends MeasuredCoverageModel {
  @ApiProperty({ enum: TRAFFIC_UNITS, enumName: 'TrafficUnit' }) @Field(() => TrafficUnitEnum) unit: TrafficUnit;
  @ApiProperty({ enum: SERIES_KINDS, enumName: 'SeriesKind', description: 'How the series was read' }) @Field(() => SeriesKindEnum) kind: SeriesKind;
  @ApiProperty({ description: 'Counter resets seen (COUNTER only)' }) @Field(() => Int) counterResets: number;
  @ApiProperty({ description: 'Each hour was sized on this percentile of its samples' }) @Field(() => Float) percentile: number;
  @ApiProperty({ type: [Number], description: `Requests/s per hour of an average week, ${WEEK}: the plan's weeklyProfile, unrounded` })
  @Field(() => [Float], { description: `Requests/s per hour of an average week, ${WEEK}: the plan's weeklyProfile, unrounded` })
  profile: number[];
  @ApiProperty({ description: 'Hours of the week without a sample, filled from the same hour of other days' }) @Field(() => Int) filledHours: number;
}

@ObjectType('MeasuredUtilization', { description: 'DCGM_FI_DEV_GPU_UTIL of the current fleet' })
export class MeasuredUtilizationModel extends MeasuredCoverageModel {
  @ApiProperty({ description: 'Time-weighted mean over every GPU and sample, percent' }) @Field(() => Float) meanPct: number;
  @ApiProperty({ description: '95th percentile of all samples, percent' }) @Field(() => Float) p95Pct: number;
  @ApiProperty({
    type: 'array',
    items: { type: 'number', nullable: true },
    description: `Mean utilization per hour of the week, percent, ${WEEK}; null: no sample`,
  })
  @Field(() => [Float], { nullable: 'items', description: `Mean utilization per hour of the week, percent, ${WEEK}; null: no sample` })
  byHourOfWeek: (number | null)[];
}

@ObjectType('MeasuredMemory', { description: 'DCGM_FI_DEV_FB_USED of the current fleet' })
export class MeasuredMemoryModel extends MeasuredCoverageModel {
  @ApiProperty({ description: 'The most any GPU used, GiB' }) @Field(() => Float) maxGib: number;
  @ApiProperty({ description: '95th percentile of all samples, GiB' }) @Field(() => Float) p95Gib: number;
}

@ObjectType('FleetAssessment', { description: 'The current fleet at list price beside the plan' })
export class FleetAssessmentModel {
  @ApiProperty() @Field() gpu: string;
  @ApiProperty() @Field(() => Int) count: number;
  @ApiProperty({ enum: PRICING_MODELS, enumName: 'PricingModel' }) @Field(() => PricingModelEnum) pricingModel: PricingModel;
  @ApiProperty() @Field() provider: string;
  @ApiProperty() @Field() region: string;
  @ApiProperty({ description: 'The catalog offer that prices it (cheapest LIST offer of that GPU, region and pricing model)' }) @Field() offerId: string;
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) pricePerGpuHour: MoneyModel;
  @ApiProperty({ type: MoneyModel, description: 'count × hoursPerMonth × pricePerGpuHour, in cents' }) @Field(() => MoneyModel) monthlyCost: MoneyModel;
  @ApiProperty({ nullable: true, type: Number, description: 'count × hoursPerMonth × (1 − mean utilization); null without utilization' })
  @Field(() => Float, { nullable: true, description: 'count × hoursPerMonth × (1 − mean utilization); null without utilization' })
  idleGpuHours: number | null;
  @ApiProperty({ type: MoneyModel, nullable: true, description: 'The idle GPU-hours at pricePerGpuHour, in cents; null without utilization' })
  @Field(() => MoneyModel, { nullable: true, description: 'The idle GPU-hours at pricePerGpuHour, in cents; null without utilization' })
  waste: MoneyModel | null;
  @ApiProperty({ type: MoneyModel, description: "monthlyCost minus the plan's gpuCost, in cents (negative: the plan costs more)" })
  @Field(() => MoneyModel)
  saving: MoneyModel;
  @ApiProperty({ description: 'saving / monthlyCost, percent' }) @Field(() => Float) savingPct: number;
  @ApiProperty({ nullable: true, type: Number, description: FLEET_KWH })
  @Field(() => Float, { nullable: true, description: FLEET_KWH })
  kwhPerMonth: number | null;
  @ApiProperty({ nullable: true, type: Number, description: FLEET_KG })
  @Field(() => Float, { nullable: true, description: FLEET_KG })
  kgCo2ePerMonth: number | null;
}

@ObjectType('Measured', { description: 'What the measurements showed' })
export class MeasuredModel {
  @ApiProperty({ example: 'Europe/Berlin' }) @Field() timezone: string;
  @ApiProperty() @Field(() => Float) percentile: number;
  @ApiProperty({ type: MeasuredTrafficModel, nullable: true }) @Field(() => MeasuredTrafficModel, { nullable: true }) traffic: MeasuredTrafficModel | null;
  @ApiProperty({ type: MeasuredUtilizationModel, nullable: true })
  @Field(() => MeasuredUtilizationModel, { nullable: true })
  utilization: MeasuredUtilizationModel | null;
  @ApiProperty({ type: MeasuredMemoryModel, nullable: true }) @Field(() => MeasuredMemoryModel, { nullable: true }) memoryUsed: MeasuredMemoryModel | null;
  @ApiProperty({ type: FleetAssessmentModel, nullable: true }) @Field(() => FleetAssessmentModel, { nullable: true }) fleet: FleetAssessmentModel | null;
}
