// Rent or buy (docs/cost-model.md#rent-or-buy): the monthly cost of owning the plan's base load in
// whole servers, its parts, and where owning wins against renting. Pure; money in the estimate's
// currency. Power follows docs/carbon.md: board power × PUE × (idle + (1 − idle) × u).
//   servers       = ceil(base-load GPUs / GPUs per server),  N = servers × GPUs per server
//   n             = 12 × depreciation years,  i = cost of capital % / 100 / 12
//   capital cost  = servers × price × i / (1 − (1 + i)^−n)  (an annuity; price / n when i = 0)
//   depreciation  = servers × price / n;  capital = capital cost − depreciation
//   power         = N × TDP / 1000 × PUE × (idle + (1 − idle) × u) × hours × electricity price
//   colocation    = N × TDP / 1000 × price per kW-month
//   operations    = servers × price × operations % / 100 / 12
import { Decimal } from '../money/money.js';
import { powerShare } from '../energy/power-model.js';

export const DEFAULT_GPUS_PER_SERVER = 8;
export const DEFAULT_DEPRECIATION_YEARS = 4;
export const DEFAULT_COST_OF_CAPITAL_PERCENT = 0;
export const DEFAULT_OPERATIONS_SHARE_PERCENT = 0;

export interface OwnedTerms {
  /** One server, in the estimate's currency. */
  serverPrice: Decimal;
  gpusPerServer: number;
  depreciationYears: number;
  /** Annual. */
  costOfCapitalPercent: number;
  electricityPerKwh: Decimal;
  colocationPerKwMonth: Decimal;
  /** Per year, of the server price. */
  operationsSharePercent: number;
}

export interface OwnedLoad {
  /** GPUs of the base load (the plan's reserved GPUs, else its hourly floor). */
  baseGpus: number;
  tdpWatts: number;
  pue: number;
  idleShare: number;
  /** Share of hours the GPUs are busy (0..1), for power. */
  utilization: number;
  hoursPerMonth: number;
  /** Renting one GPU for a month reserved (the plan's reserved tier), null without one. */
  reservedPerGpuMonth: Decimal | null;
  /** Renting one GPU-hour on demand, null without an on-demand offer. */
  onDemandPerGpuHour: Decimal | null;
}

export interface OwnedCost {
  servers: number;
  gpus: number;
  /** IT load of the servers' GPUs (board power, no PUE), kW: what colocation bills. */
  itKw: number;
  kwhPerMonth: number;
  monthlyCost: Decimal;
  depreciation: Decimal;
  capital: Decimal;
  power: Decimal;
  colocation: Decimal;
  operations: Decimal;
  /** The same N GPUs rented reserved for the month; null without a reserved tier. */
  reservedMonthlyCost: Decimal | null;
  /** The same N GPUs on demand every hour; null without an on-demand price. */
  onDemandMonthlyCost: Decimal | null;
  /** Share of hours at which owning costs what renting the same GPUs on demand for those hours costs; null: not at or below 1. */
  crossoverUtilization: number | null;
  /** What the payback is measured against: the reserved rent, else on-demand every hour. */
  paybackAgainst: 'RESERVED' | 'ON_DEMAND' | null;
  /** Months until the discounted savings of owning repay the purchase; null: never. */
  paybackMonths: number | null;
}

export function ownedCost(terms: OwnedTerms, load: OwnedLoad): OwnedCost {
  const servers = Math.ceil(Math.max(1, load.baseGpus) / terms.gpusPerServer);
  const gpus = servers * terms.gpusPerServer;
  const n = 12 * terms.depreciationYears;
  const i = new Decimal(terms.costOfCapitalPercent).div(1200);
  const purchase = terms.serverPrice.mul(servers);
  const depreciation = purchase.div(n);
  const recovery = i.isZero() ? depreciation : purchase.mul(i).div(new Decimal(1).sub(i.add(1).pow(-n)));
  const capital = recovery.sub(depreciation);
  const itKw = (gpus * load.tdpWatts) / 1000;
  const kwhAt = (u: number): number => itKw * load.pue * powerShare(u, load.idleShare) * load.hoursPerMonth;
  const kwhPerMonth = kwhAt(load.utilization);
  const power = terms.electricityPerKwh.mul(kwhPerMonth);
  const colocation = terms.colocationPerKwMonth.mul(itKw);
  const operations = purchase.mul(terms.operationsSharePercent).div(1200);
  const monthlyCost = recovery.add(power).add(colocation).add(operations);

  const reservedMonthlyCost = load.reservedPerGpuMonth === null ? null : load.reservedPerGpuMonth.mul(gpus);
  const onDemandMonthlyCost = load.onDemandPerGpuHour === null ? null : load.onDemandPerGpuHour.mul(gpus).mul(load.hoursPerMonth);

  // owned(u) = A + B·u (power grows with u), on demand C·u: equal at u* = A / (C − B).
  let crossoverUtilization: number | null = null;
  if (onDemandMonthlyCost !== null) {
    const fixed = recovery.add(colocation).add(operations);
    const a = fixed.add(terms.electricityPerKwh.mul(kwhAt(0)));
    const b = terms.electricityPerKwh.mul(kwhAt(1) - kwhAt(0));
    const margin = onDemandMonthlyCost.sub(b);
    if (margin.gt(0)) {
      const u = a.div(margin);
      if (u.lte(1)) crossoverUtilization = u.toNumber();
    }
  }

  // Discounted payback: the month m at which Σ_{k=1..m} (rent − running) / (1 + i)^k reaches the purchase.
  const rent = reservedMonthlyCost ?? onDemandMonthlyCost;
  const paybackAgainst = reservedMonthlyCost !== null ? 'RESERVED' : onDemandMonthlyCost !== null ? 'ON_DEMAND' : null;
  let paybackMonths: number | null = null;
  if (rent !== null) {
    const saving = rent.sub(power).sub(colocation).sub(operations);
    if (saving.gt(0)) {
      if (i.isZero()) paybackMonths = purchase.div(saving).toNumber();
      else {
        const x = new Decimal(1).sub(purchase.mul(i).div(saving));
        if (x.gt(0)) paybackMonths = x.ln().neg().div(i.add(1).ln()).toNumber();
      }
    }
  }
  return {
    servers,
    gpus,
    itKw,
    kwhPerMonth,
    monthlyCost,
    depreciation,
    capital,
    power,
    colocation,
    operations,
    reservedMonthlyCost,
    onDemandMonthlyCost,
    crossoverUtilization,
    paybackAgainst,
    paybackMonths,
  };
}
