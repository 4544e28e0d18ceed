// The estimate's `carbon` object (docs/carbon.md): energy and kg CO2e per month and per 1M output
// tokens, per tier and in total, the figures applied, and the plan the other objective chooses.
import { Field, Float, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { MoneyModel } from '../../../common/models/money.model.js';
import { EnergyFigureAppliedModel } from '../../../common/models/energy-figure.model.js';
import type { EstimateCarbonAnswer } from '../estimate-answer.js';

@ObjectType('EstimateTierCarbon')
export class EstimateTierCarbonModel {
  @ApiProperty() @Field() pricingModel: string;
  @ApiProperty() @Field() provider: string;
  @ApiProperty() @Field() region: string;
  @ApiProperty() @Field(() => Float) gpuHours: number;
  @ApiProperty() @Field(() => Float) kwhPerMonth: number;
  @ApiProperty() @Field(() => Float) kgCo2ePerMonth: number;
  @ApiProperty({ type: EnergyFigureAppliedModel, description: 'g CO2e per kWh' })
  @Field(() => EnergyFigureAppliedModel)
  gridIntensity: EnergyFigureAppliedModel;
  @ApiProperty({ type: EnergyFigureAppliedModel }) @Field(() => EnergyFigureAppliedModel) pue: EnergyFigureAppliedModel;
}

@ObjectType('OtherPlan', { description: 'The plan the other objective chooses within the same policy, and its differences from this one' })
export class OtherPlanModel {
  @ApiProperty({ example: 'CARBON' }) @Field() optimizedFor: string;
  @ApiProperty() @Field() gpu: string;
  @ApiProperty() @Field() precision: string;
  @ApiProperty({ type: [String] }) @Field(() => [String]) regions: string[];
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) monthlyCost: MoneyModel;
  @ApiProperty({ nullable: true, type: Number }) @Field(() => Float, { nullable: true }) kgCo2ePerMonth: number | null;
  @ApiProperty({ type: MoneyModel, description: 'Its monthly cost minus this plan’s' }) @Field(() => MoneyModel) costDifference: MoneyModel;
  @ApiProperty({ nullable: true, type: Number, description: 'Its kg CO2e per month minus this plan’s' })
  @Field(() => Float, { nullable: true, description: 'Its kg CO2e per month minus this plan’s' })
  kgCo2eDifference: number | null;
}

@ObjectType('EstimateCarbon', {
  description: 'Energy and location-based carbon of the plan (docs/carbon.md): no embodied emissions, not market-based',
})
export class EstimateCarbonModel {
  @ApiProperty({ example: 'COST' }) @Field() optimizedFor: string;
  @ApiProperty({ nullable: true, type: Number, description: 'Utilization the power model applied (0..1)' })
  @Field(() => Float, { nullable: true })
  utilization: number | null;
  @ApiProperty({ nullable: true, type: Number }) @Field(() => Float, { nullable: true }) kwhPerMonth: number | null;
  @ApiProperty({ nullable: true, type: Number }) @Field(() => Float, { nullable: true }) kgCo2ePerMonth: number | null;
  @ApiProperty({ nullable: true, type: Number }) @Field(() => Float, { nullable: true }) kwhPer1MOutputTokens: number | null;
  @ApiProperty({ nullable: true, type: Number }) @Field(() => Float, { nullable: true }) kgCo2ePer1MOutputTokens: number | null;
  @ApiProperty({ type: EnergyFigureAppliedModel, nullable: true, description: 'Board power (TDP), W' })
  @Field(() => EnergyFigureAppliedModel, { nullable: true })
  tdpWatts: EnergyFigureAppliedModel | null;
  @ApiProperty({ type: EnergyFigureAppliedModel, nullable: true, description: 'Share of board power drawn idle' })
  @Field(() => EnergyFigureAppliedModel, { nullable: true })
  idleShare: EnergyFigureAppliedModel | null;
  @ApiProperty({ type: [EstimateTierCarbonModel] }) @Field(() => [EstimateTierCarbonModel]) tiers: EstimateTierCarbonModel[];
  @ApiProperty({ nullable: true, type: String, description: 'Why there are no figures (a missing board power, PUE or grid intensity)' })
  @Field(() => String, { nullable: true })
  unknownReason: string | null;
  @ApiProperty({ type: OtherPlanModel, nullable: true }) @Field(() => OtherPlanModel, { nullable: true }) otherPlan: OtherPlanModel | null;

  static of(c: EstimateCarbonAnswer): EstimateCarbonModel {
    const f = c.figures;
    const round = (v: number | null | undefined, digits = 4): number | null => (v === null || v === undefined ? null : Number(v.toFixed(digits)));
    const o = c.otherPlan;
    return Object.assign(new EstimateCarbonModel(), {
      optimizedFor: c.optimizedFor,
      utilization: round(f?.utilization),
      kwhPerMonth: round(f?.kwhPerMonth),
      kgCo2ePerMonth: round(f?.kgCo2ePerMonth),
      kwhPer1MOutputTokens: round(f?.kwhPer1MOutputTokens, 6),
      kgCo2ePer1MOutputTokens: round(f?.kgCo2ePer1MOutputTokens, 6),
      tdpWatts: f ? EnergyFigureAppliedModel.of(f.tdpWatts) : null,
      idleShare: f ? EnergyFigureAppliedModel.of(f.idleShare) : null,
      tiers: (f?.tiers ?? []).map((t) => ({
        ...t,
        gpuHours: Number(t.gpuHours.toFixed(4)),
        kwhPerMonth: Number(t.kwhPerMonth.toFixed(4)),
        kgCo2ePerMonth: Number(t.kgCo2ePerMonth.toFixed(4)),
        gridIntensity: EnergyFigureAppliedModel.of(t.gridIntensity),
        pue: EnergyFigureAppliedModel.of(t.pue),
      })),
      unknownReason: c.unknownReason,
      otherPlan: o
        ? {
            ...o,
            monthlyCost: MoneyModel.ofTotal(o.monthlyCost.amount, o.monthlyCost.currency),
            costDifference: MoneyModel.ofTotal(o.costDifference.amount, o.costDifference.currency),
            kgCo2ePerMonth: round(o.kgCo2ePerMonth),
            kgCo2eDifference: round(o.kgCo2eDifference),
          }
        : null,
    });
  }
}
