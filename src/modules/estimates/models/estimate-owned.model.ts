// The estimate's `owned` object (docs/cost-model.md#rent-or-buy): owning the base load in whole
// servers, the parts of its monthly cost, the rents it is compared with, and the crossover.
import { Field, Float, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { MoneyModel } from '../../../common/models/money.model.js';
import { EnergyFigureAppliedModel } from '../../../common/models/energy-figure.model.js';
import type { OwnedAnswer } from '../owned-answer.js';

const CROSSOVER = 'Share of hours (0..1) the GPUs must be busy for owning to cost what renting them on demand for those hours costs; null: not at or below 1';
const SOURCE = "Where the price came from: REQUEST (the caller's), else the sourced default's source";
const PAYBACK = 'Months until the discounted savings against paybackAgainst repay the purchase; null: never';

@ObjectType('EstimateOwned', { description: 'Owning the base load against renting it (docs/cost-model.md#rent-or-buy)' })
export class EstimateOwnedModel {
  @ApiProperty({ description: 'GPUs of the base load: the plan’s reserved GPUs, else its hourly floor' }) @Field(() => Int) baseGpus: number;
  @ApiProperty({ example: 'RESERVED', description: 'RESERVED or FLOOR (no reservation in the plan)' }) @Field() baseLoadBasis: string;
  @ApiProperty() @Field(() => Int) servers: number;
  @ApiProperty({ description: 'GPUs owned: servers × GPUs per server' }) @Field(() => Int) gpus: number;
  @ApiProperty({ type: MoneyModel, description: 'Depreciation + capital + power + colocation + operations' })
  @Field(() => MoneyModel)
  monthlyCost: MoneyModel;
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) depreciation: MoneyModel;
  @ApiProperty({ type: MoneyModel, description: 'Interest of the annuity at costOfCapitalPercent' }) @Field(() => MoneyModel) capital: MoneyModel;
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) power: MoneyModel;
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) colocation: MoneyModel;
  @ApiProperty({ type: MoneyModel }) @Field(() => MoneyModel) operations: MoneyModel;
  @ApiProperty({ description: 'GPU board power of the servers, kW (what colocation bills)' }) @Field(() => Float) itKw: number;
  @ApiProperty({ description: 'Energy drawn, PUE included, at `utilization` (docs/carbon.md)' }) @Field(() => Float) kwhPerMonth: number;
  @ApiProperty({ description: 'Utilization power is priced at: the plan’s carbon utilization' }) @Field(() => Float) utilization: number;
  @ApiProperty({ type: EnergyFigureAppliedModel }) @Field(() => EnergyFigureAppliedModel) tdpWatts: EnergyFigureAppliedModel;
  @ApiProperty({ type: EnergyFigureAppliedModel }) @Field(() => EnergyFigureAppliedModel) pue: EnergyFigureAppliedModel;
  @ApiProperty({ type: MoneyModel, nullable: true, description: 'The same GPUs at the plan’s reserved price; null without a reserved tier' })
  @Field(() => MoneyModel, { nullable: true })
  reservedMonthlyCost: MoneyModel | null;
  @ApiProperty({ type: MoneyModel, nullable: true, description: 'The same GPUs on demand every hour; null without an on-demand offer' })
  @Field(() => MoneyModel, { nullable: true })
  onDemandMonthlyCost: MoneyModel | null;
  @ApiProperty({ nullable: true, type: Boolean, description: 'monthlyCost < reservedMonthlyCost; null without a reserved tier' })
  @Field(() => Boolean, { nullable: true })
  cheaperThanReserved: boolean | null;
  @ApiProperty({ nullable: true, type: Number, description: CROSSOVER })
  @Field(() => Float, { nullable: true, description: CROSSOVER })
  crossoverUtilization: number | null;
  @ApiProperty({ nullable: true, type: String, example: 'RESERVED', description: 'RESERVED, else ON_DEMAND every hour' })
  @Field(() => String, { nullable: true })
  paybackAgainst: string | null;
  @ApiProperty({ nullable: true, type: Number, description: PAYBACK })
  @Field(() => Float, { nullable: true, description: PAYBACK })
  paybackMonths: number | null;
  @ApiProperty({ type: MoneyModel, description: 'Price of one server used' }) @Field(() => MoneyModel) serverPrice: MoneyModel;
  @ApiProperty({ description: SOURCE }) @Field({ description: SOURCE }) serverPriceSource: string;
  @ApiProperty({ type: MoneyModel, description: 'Electricity price per kWh used' }) @Field(() => MoneyModel) electricityPerKwh: MoneyModel;
  @ApiProperty({ description: SOURCE }) @Field({ description: SOURCE }) electricitySource: string;
  @ApiProperty({ type: MoneyModel, description: 'Colocation per kW-month used' }) @Field(() => MoneyModel) colocationPerKwMonth: MoneyModel;
  @ApiProperty({ description: SOURCE }) @Field({ description: SOURCE }) colocationSource: string;
  @ApiProperty({ nullable: true, type: String, example: 'DE', description: 'The site as asked (owned.site); null: none given' })
  @Field(() => String, { nullable: true, description: 'The site as asked (owned.site); null: none given' })
  site: string | null;
  @ApiProperty({ type: EnergyFigureAppliedModel, nullable: true, description: "The site country's grid intensity, g CO2e/kWh; null: no site or no figure" })
  @Field(() => EnergyFigureAppliedModel, { nullable: true, description: "The site country's grid intensity, g CO2e/kWh; null: no site or no figure" })
  gridIntensity: EnergyFigureAppliedModel | null;
  @ApiProperty({ nullable: true, type: Number, description: 'kwhPerMonth × gridIntensity / 1000; null without a grid figure' })
  @Field(() => Float, { nullable: true, description: 'kwhPerMonth × gridIntensity / 1000; null without a grid figure' })
  kgCo2ePerMonth: number | null;

  static of(o: OwnedAnswer | null): EstimateOwnedModel | null {
    if (!o) return null;
    const c = o.cost;
    const t = (d: typeof c.monthlyCost): MoneyModel => MoneyModel.ofTotal(d, o.currency);
    const r = (v: number, digits = 4): number => Number(v.toFixed(digits));
    return Object.assign(new EstimateOwnedModel(), {
      baseGpus: o.baseGpus,
      baseLoadBasis: o.baseLoadBasis,
      servers: c.servers,
      gpus: c.gpus,
      monthlyCost: t(c.monthlyCost),
      depreciation: t(c.depreciation),
      capital: t(c.capital),
      power: t(c.power),
      colocation: t(c.colocation),
      operations: t(c.operations),
      itKw: r(c.itKw),
      kwhPerMonth: r(c.kwhPerMonth),
      utilization: r(o.utilization),
      tdpWatts: EnergyFigureAppliedModel.of(o.tdpWatts),
      pue: EnergyFigureAppliedModel.of(o.pue),
      reservedMonthlyCost: c.reservedMonthlyCost === null ? null : t(c.reservedMonthlyCost),
      onDemandMonthlyCost: c.onDemandMonthlyCost === null ? null : t(c.onDemandMonthlyCost),
      cheaperThanReserved: c.reservedMonthlyCost === null ? null : c.monthlyCost.lt(c.reservedMonthlyCost),
      crossoverUtilization: c.crossoverUtilization === null ? null : r(c.crossoverUtilization),
      paybackAgainst: c.paybackAgainst,
      paybackMonths: c.paybackMonths === null ? null : r(c.paybackMonths, 2),
      serverPrice: MoneyModel.ofTotal(o.serverPrice.amount, o.currency),
      serverPriceSource: o.serverPrice.source,
      electricityPerKwh: MoneyModel.of(o.electricityPerKwh.amount, o.currency),
      electricitySource: o.electricityPerKwh.source,
      colocationPerKwMonth: MoneyModel.ofTotal(o.colocationPerKwMonth.amount, o.currency),
      colocationSource: o.colocationPerKwMonth.source,
      site: o.site,
      gridIntensity: o.gridIntensity ? EnergyFigureAppliedModel.of(o.gridIntensity) : null,
      kgCo2ePerMonth: o.kgCo2ePerMonth === null ? null : r(o.kgCo2ePerMonth, 3),
    });
  }
}
