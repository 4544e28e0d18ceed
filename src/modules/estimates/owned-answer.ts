// The estimate's `owned` answer (docs/cost-model.md#rent-or-buy): the request's server terms in the
// estimate's currency, the plan's base load and rents, and the energy figures of docs/carbon.md
// (the GPU's board power, the default PUE: an own site is no cloud region), through ownedCost.
import type { Currency } from '../../domain/catalog/catalog.types.js';
import { pricingModelTraits } from '../../domain/catalog/pricing-model-traits.js';
import type { CatalogIndex } from '../../domain/compliance/index.js';
import {
  DEFAULT_COST_OF_CAPITAL_PERCENT,
  DEFAULT_DEPRECIATION_YEARS,
  DEFAULT_GPUS_PER_SERVER,
  DEFAULT_OPERATIONS_SHARE_PERCENT,
  ownedCost,
  type InferenceEstimate,
  type OwnedCost,
} from '../../domain/cost-model/index.js';
import type { AppliedFigure } from '../../domain/energy/index.js';
import { COLOCATION_DEFAULT, ELECTRICITY_BY_SITE, SERVER_PRICE_BY_GPU, type SourcedPrice } from '../../domain/cost-model/owned-defaults.js';
import { convert, Decimal } from '../../domain/money/money.js';
import type { OwnedInput } from './dto/estimate.input.js';

export interface OwnedAnswer {
  currency: Currency;
  baseGpus: number;
  /** Where the base load came from: the plan's reserved GPUs, or its hourly floor without a reservation. */
  baseLoadBasis: 'RESERVED' | 'FLOOR';
  utilization: number;
  tdpWatts: AppliedFigure;
  pue: AppliedFigure;
  idleShare: AppliedFigure;
  cost: OwnedCost;
  /** The prices used, in the estimate's currency, each with where it came from ('REQUEST' or a source). */
  serverPrice: UsedPrice;
  electricityPerKwh: UsedPrice;
  colocationPerKwMonth: UsedPrice;
  site: string | null;
  /** The site's grid (its country's row, docs/carbon.md); null without a site or a figure for it. */
  gridIntensity: AppliedFigure | null;
  /** cost.kwhPerMonth × gridIntensity / 1000; null without a grid figure. */
  kgCo2ePerMonth: number | null;
}

export interface UsedPrice {
  amount: Decimal;
  source: string;
}

export type OwnedOutcome = { kind: 'OK'; owned: OwnedAnswer } | { kind: 'UNKNOWN'; reason: string };

export function ownedAnswer({
  input,
  estimate,
  index,
  currency,
  utilization,
}: {
  input: OwnedInput;
  estimate: InferenceEstimate;
  index: CatalogIndex;
  currency: Currency;
  /** The utilization the plan's carbon figures use (docs/carbon.md). */
  utilization: number;
}): OwnedOutcome {
  const tdpWatts = index.energy.gpuPowerWatts(estimate.gpu.slug);
  const pue = index.energy.pue('', '');
  const idleShare = index.energy.idleShare();
  if (!tdpWatts) return { kind: 'UNKNOWN', reason: `no sourced board power (TDP) for ${estimate.gpu.slug}` };
  if (!pue || !idleShare) return { kind: 'UNKNOWN', reason: 'no default PUE or idle share in this catalog version' };
  const prices = ownedPrices(input, estimate.gpu.slug, currency, index);
  if ('reason' in prices) return { kind: 'UNKNOWN', reason: prices.reason };
  const { serverPrice, electricity, colocation, gpusPerServer } = prices;
  const site = input.site ?? null;
  const gridIntensity = site === null ? null : index.energy.gridIntensity('', site.slice(0, 2));

  // The base load's slot: reservations and monthly servers (both paid every hour of their term).
  const reserved = estimate.tiers.filter((t) => pricingModelTraits(t.pricingModel).planSlot === 'RESERVED');
  const reservedGpus = Math.round(reserved.reduce((s, t) => s + t.gpuHours, 0) / estimate.hoursPerMonth);
  const floor = Math.max(1, Math.min(...estimate.hourlyPlan.map((h) => h.replicasNeeded))) * estimate.gpusPerReplica;
  const baseGpus = reservedGpus > 0 ? reservedGpus : floor;
  const reservedCost = reserved.reduce((s, t) => s.add(t.cost.amount), new Decimal(0));
  const onDemand = estimate.chosenOffers.find((o) => o.pricingModel === 'ON_DEMAND');

  const cost = ownedCost(
    {
      serverPrice: serverPrice.amount,
      gpusPerServer,
      depreciationYears: input.depreciationYears ?? DEFAULT_DEPRECIATION_YEARS,
      costOfCapitalPercent: input.costOfCapitalPercent ?? DEFAULT_COST_OF_CAPITAL_PERCENT,
      electricityPerKwh: electricity.amount,
      colocationPerKwMonth: colocation.amount,
      operationsSharePercent: input.operationsSharePercent ?? DEFAULT_OPERATIONS_SHARE_PERCENT,
    },
    {
      baseGpus,
      tdpWatts: tdpWatts.value,
      pue: pue.value,
      idleShare: idleShare.value,
      utilization,
      hoursPerMonth: estimate.hoursPerMonth,
      reservedPerGpuMonth: reservedGpus > 0 ? reservedCost.div(reservedGpus) : null,
      onDemandPerGpuHour: onDemand ? onDemand.effectivePricePerInstanceHour.amount.div(onDemand.gpusPerInstance) : null,
    },
  );
  return {
    kind: 'OK',
    owned: {
      currency,
      baseGpus,
      baseLoadBasis: reservedGpus > 0 ? 'RESERVED' : 'FLOOR',
      utilization,
      tdpWatts,
      pue,
      idleShare,
      cost,
      serverPrice,
      electricityPerKwh: electricity,
      colocationPerKwMonth: colocation,
      site,
      gridIntensity,
      kgCo2ePerMonth: gridIntensity ? (cost.kwhPerMonth * gridIntensity.value) / 1000 : null,
    },
  };
}

/** The prices owning is priced at, in `currency`: the caller's, else the sourced defaults (owned-defaults.ts). */
function ownedPrices(
  input: OwnedInput,
  gpu: string,
  currency: Currency,
  index: CatalogIndex,
): { serverPrice: UsedPrice; electricity: UsedPrice; colocation: UsedPrice; gpusPerServer: number } | { reason: string } {
  const used = (given: string | undefined, fallback: SourcedPrice | undefined): UsedPrice | null =>
    given !== undefined
      ? { amount: convert(new Decimal(given), 'USD', currency, index.fxRates), source: 'REQUEST' }
      : fallback
        ? { amount: convert(new Decimal(fallback.value), fallback.currency, currency, index.fxRates), source: fallback.source }
        : null;
  const listed = SERVER_PRICE_BY_GPU[gpu];
  const gpusPerServer = input.gpusPerServer ?? DEFAULT_GPUS_PER_SERVER;
  // A sourced price is for a server of its own size: no default for another size.
  const serverPrice = used(input.serverPriceUsd, listed?.gpusPerServer === gpusPerServer ? listed : undefined);
  if (!serverPrice) return { reason: `no sourced price of a ${gpusPerServer}-GPU ${gpu} server: give owned.serverPriceUsd` };
  // EstimatesService refuses an owned request with neither an electricity price nor a site that has one.
  const electricity = used(input.electricityUsdPerKwh, input.site === undefined ? undefined : ELECTRICITY_BY_SITE[input.site]);
  if (!electricity) return { reason: 'no electricity price: give owned.electricityUsdPerKwh or owned.site' };
  const colocation = used(input.colocationUsdPerKwMonth, COLOCATION_DEFAULT) as UsedPrice;
  return { serverPrice, electricity, colocation, gpusPerServer };
}
