// InferenceEstimate (domain, Decimal money) → EstimateModel (wire, decimal strings). Used by REST
// and GraphQL alike, so both answer with the same numbers.
import type { CatalogIndex } from '../../../domain/compliance/index.js';
import type { InferenceEstimate } from '../../../domain/cost-model/index.js';
import type { CatalogVersionInfo } from '../../../domain/catalog/catalog.types.js';
import type { Money } from '../../../domain/money/money.js';
import { MoneyModel } from '../../../common/models/money.model.js';
import { ExchangeRateModel } from '../../../common/models/exchange-rate.model.js';
import type { ExchangeRateUsed } from '../../../domain/money/exchange-rate.js';
import { CatalogVersionRefModel } from '../../catalog/index.js';
import { EstimateModel } from './estimate.model.js';
import type { Coverage } from '../../../domain/measurements/index.js';
import type { MeasuredAnswer } from '../estimate-answer.js';
import type { MeasuredCoverageModel, MeasuredModel } from './measured.model.js';
import { EstimateCarbonModel } from './estimate-carbon.model.js';
import { EstimateOwnedModel } from './estimate-owned.model.js';
import type { OwnedAnswer } from '../owned-answer.js';
import type { EstimateCarbonAnswer } from '../estimate-answer.js';
import type { TierCarbon } from '../../../domain/energy/index.js';
import { at, getOrThrow } from '../../../domain/checked.js';

/** A price or unit cost: 4 places. */
const m = (money: Money): MoneyModel => MoneyModel.of(money.amount, money.currency);
const mOrNull = (money: Money | null): MoneyModel | null => (money ? m(money) : null);
/** A total (a month's cost, a tier's, a hidden cost): cents. */
const total = (money: Money): MoneyModel => MoneyModel.ofTotal(money.amount, money.currency);
/** Ratios and shares rounded for the wire: 4 decimals (0.01% precision). */
const r4 = (x: number): number => Math.round(x * 10_000) / 10_000;

const NOT_COMPUTED: EstimateCarbonAnswer = { optimizedFor: 'COST', figures: null, unknownReason: 'not computed', otherPlan: null };

export function toEstimateModel({
  version,
  estimate: e,
  index,
  exchangeRate = null,
  measured = null,
  carbon = NOT_COMPUTED,
  owned = null,
}: {
  version: CatalogVersionInfo;
  estimate: InferenceEstimate;
  measured?: MeasuredAnswer | null;
  index: CatalogIndex;
  exchangeRate?: ExchangeRateUsed | null;
  /** The service always computes it (estimate-answer.ts); absent, the answer says it was not. */
  carbon?: EstimateCarbonAnswer;
  owned?: OwnedAnswer | null;
}): EstimateModel {
  return Object.assign(new EstimateModel(), {
    catalogVersion: CatalogVersionRefModel.of(version),
    monthlyCost: total(e.monthlyCost),
    gpuCost: total(e.gpuCost),
    hoursPerMonth: e.hoursPerMonth,
    periodHours: e.periodHours,
    tiers: tiersModel(e.tiers, carbon.figures?.tiers),
    hourlyPlan: hourlyPlanModel(e.hourlyPlan),
    gpu: e.gpu.slug,
    gpuMemoryGb: e.gpu.memoryGb,
    precision: e.precision,
    gpusPerReplica: e.gpusPerReplica,
    model: e.model,
    chosenOffers: chosenOffersModel(e.chosenOffers, index),
    reservedInstances: e.reservedInstances,
    baselines: baselinesModel(e.baselines),
    savingsVsNaivePct: e.savingsVsNaivePct === null ? null : r4(e.savingsVsNaivePct),
    savingsVsOnDemandAutoscaledPct: e.savingsVsOnDemandAutoscaledPct === null ? null : r4(e.savingsVsOnDemandAutoscaledPct),
    serverless: e.serverless
      ? { breakEvenUtilization: r4(e.serverless.breakEvenUtilization), cheaper: e.serverless.cheaper, monthlyCost: total(e.serverless.monthlyCost) }
      : null,
    unitEconomics: {
      costPer1MOutputTokens: mOrNull(e.unitEconomics.costPer1MOutputTokens),
      costPer1kRequests: mOrNull(e.unitEconomics.costPer1kRequests),
      effectivePricePerGpuHour: mOrNull(e.unitEconomics.effectivePricePerGpuHour),
      averageUtilization: r4(e.unitEconomics.averageUtilization),
    },
    replicaThroughput: {
      ...e.replicaThroughput,
      requestsPerSecond: r4(e.replicaThroughput.requestsPerSecond),
      outputTokensPerSecond: r4(e.replicaThroughput.outputTokensPerSecond),
      stepTimeMs: e.replicaThroughput.stepTimeMs === null ? null : r4(e.replicaThroughput.stepTimeMs),
    },
    hiddenCosts: {
      egress: total(e.hiddenCosts.egress),
      egressPriceKnown: e.hiddenCosts.egressPriceKnown,
      egressUnpricedProviders: e.hiddenCosts.egressUnpricedProviders,
      egressFallbackPricePerGb: mOrNull(e.hiddenCosts.egressFallbackPricePerGb),
      coldStarts: total(e.hiddenCosts.coldStarts),
      spotRestarts: total(e.hiddenCosts.spotRestarts),
      idleCapacity: total(e.hiddenCosts.idleCapacity),
    },
    apiComparison: apiComparisonModel(e.apiComparison),
    alternatives: e.alternatives.map((a) => ({ ...a, monthlyCost: total(a.monthlyCost), deltaVsChosenPct: r4(a.deltaVsChosenPct) })),
    assumptions: e.assumptions,
    warnings: e.warnings,
    explanations: e.explanations,
    exchangeRate: ExchangeRateModel.of(exchangeRate),
    measured: measuredModel(measured),
    carbon: EstimateCarbonModel.of(carbon),
    owned: EstimateOwnedModel.of(owned),
  });
}

function coverageModel(c: Coverage): MeasuredCoverageModel {
  return {
    series: c.series,
    samples: c.samples,
    stepSeconds: c.stepSeconds,
    from: new Date(c.from * 1000),
    to: new Date(c.to * 1000),
    days: r4(c.days),
    coveragePct: r4(c.coveragePct),
    gaps: c.gaps,
  };
}

function measuredModel(measured: MeasuredAnswer | null): MeasuredModel | null {
  if (!measured) return null;
  const { traffic: t, utilization: u, memoryUsed: mem, fleet: f } = measured;
  return {
    timezone: measured.timezone,
    percentile: measured.percentile,
    // The profile unrounded: typed in as workload.weeklyProfile, it gives the same plan.
    traffic: t
      ? {
          ...coverageModel(t),
          unit: t.unit,
          kind: t.kind,
          counterResets: t.counterResets,
          percentile: t.percentile,
          profile: t.profile,
          filledHours: t.filledHours,
        }
      : null,
    utilization: u
      ? { ...coverageModel(u), meanPct: r4(u.meanPct), p95Pct: r4(u.p95Pct), byHourOfWeek: u.byHourOfWeek.map((x) => (x === null ? null : r4(x))) }
      : null,
    memoryUsed: mem ? { ...coverageModel(mem), maxGib: r4(mem.maxGib), p95Gib: r4(mem.p95Gib) } : null,
    fleet: f
      ? {
          gpu: f.gpu,
          count: f.count,
          pricingModel: f.pricingModel,
          provider: f.provider,
          region: f.region,
          offerId: f.offerRef,
          pricePerGpuHour: m(f.pricePerGpuHour),
          monthlyCost: total(f.monthlyCost),
          idleGpuHours: f.idleGpuHours === null ? null : r4(f.idleGpuHours),
          waste: f.waste ? total(f.waste) : null,
          saving: total(f.saving),
          savingPct: r4(f.savingPct),
          kwhPerMonth: f.kwhPerMonth === null ? null : r4(f.kwhPerMonth),
          kgCo2ePerMonth: f.kgCo2ePerMonth === null ? null : r4(f.kgCo2ePerMonth),
        }
      : null,
  };
}

function tiersModel(tiers: InferenceEstimate['tiers'], carbon: readonly TierCarbon[] | undefined): EstimateModel['tiers'] {
  return tiers.map((t, i) => ({
    pricingModel: t.pricingModel,
    offerId: t.offerRef,
    provider: t.provider,
    region: t.region,
    gpuHours: r4(t.gpuHours),
    instanceHours: r4(t.instanceHours),
    cost: total(t.cost),
    capacityShare: r4(t.capacityShare),
    egressGb: r4(t.egressGb),
    egressPricePerGb: mOrNull(t.egressPricePerGb),
    egress: total(t.egress),
    coldStarts: total(t.coldStarts),
    spotRestarts: total(t.spotRestarts),
    // estimateCarbon keeps the tiers' order (src/domain/energy/estimate-carbon.ts).
    kwhPerMonth: carbon?.[i] ? r4(carbon[i].kwhPerMonth) : null,
    kgCo2ePerMonth: carbon?.[i] ? r4(carbon[i].kgCo2ePerMonth) : null,
  }));
}

function hourlyPlanModel(hours: InferenceEstimate['hourlyPlan']): EstimateModel['hourlyPlan'] {
  return hours.map((h) => ({
    ...h,
    demandRequestsPerSecond: r4(h.demandRequestsPerSecond),
    onlineRequestsPerSecond: r4(h.onlineRequestsPerSecond),
    serverlessReplicaHours: r4(h.serverlessReplicaHours),
    batchReplicaHours: r4(h.batchReplicaHours),
    batchServerlessReplicaHours: r4(h.batchServerlessReplicaHours),
  }));
}

/** Each offer the plan buys, with what the catalog says about it (where, how fresh, from where). */
function chosenOffersModel(chosenOffers: InferenceEstimate['chosenOffers'], index: CatalogIndex): EstimateModel['chosenOffers'] {
  return chosenOffers.map((c) => {
    const offer = at(index.offers, getOrThrow(index.offerByKeyHash, c.ref, 'offer'));
    const region = at(index.regions, getOrThrow(index.regionByCode, offer.regionCode, 'region'));
    return {
      pricingModel: c.pricingModel,
      offerId: c.ref,
      provider: offer.providerSlug,
      region: offer.regionCode,
      country: region.country,
      gpu: offer.gpuSlug,
      instanceType: offer.instanceType,
      observedAt: offer.observedAt,
      priceKind: offer.priceKind,
      sourceKind: offer.sourceKind,
      availability: offer.availability,
      gpusPerInstance: c.gpusPerInstance,
      replicasPerInstance: c.replicasPerInstance,
      pricePerInstanceHour: m(c.pricePerInstanceHour),
      effectivePricePerInstanceHour: m(c.effectivePricePerInstanceHour),
      interruptionsPerHour: c.interruptionsPerHour,
      interruptionBasis: c.interruptionBasis,
      interruptionRate: offer.interruptionRate ?? null,
      source: offer.sourceUrl,
    };
  });
}

function baselinesModel({ naive, onDemandAutoscaled, unavailableReason }: InferenceEstimate['baselines']): EstimateModel['baselines'] {
  return {
    naive: naive
      ? {
          monthlyCost: total(naive.monthlyCost),
          pricingModel: naive.pricingModel,
          offerId: naive.offerRef,
          description: `${naive.replicas} replicas (peak) on ${naive.instances} instance(s), ${naive.pricingModel}, every hour`,
        }
      : null,
    onDemandAutoscaled: onDemandAutoscaled
      ? {
          monthlyCost: total(onDemandAutoscaled.monthlyCost),
          pricingModel: onDemandAutoscaled.pricingModel,
          offerId: onDemandAutoscaled.offerRef,
          description: `${onDemandAutoscaled.pricingModel} instances following the hourly demand (${r4(onDemandAutoscaled.gpuHours)} GPU-hours a month)`,
        }
      : null,
    unavailableReason,
  };
}

function apiComparisonModel(api: InferenceEstimate['apiComparison']): EstimateModel['apiComparison'] {
  return api
    ? {
        apiPricePer1MTokens: m(api.apiPricePer1MTokens),
        tokensPerDay: Math.round(api.tokensPerDay),
        monthlyApiCost: total(api.monthlyApiCost),
        breakEvenTokensPerDay: api.breakEvenTokensPerDay === null ? null : Math.round(api.breakEvenTokensPerDay),
        selfHostingCheaper: api.selfHostingCheaper,
      }
    : null;
}
