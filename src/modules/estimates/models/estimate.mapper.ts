// InferenceEstimate (domain, Decimal money) → EstimateModel (wire, decimal strings). Used by REST
// and GraphQL alike, so both answer with the same numbers.
import type { CatalogIndex } from '../../../domain/compliance/index.js';
import type { InferenceEstimate } from '../../../domain/cost-model/index.js';
import type { CatalogVersionInfo } from '../../../domain/catalog/catalog.types.js';
import type { Money } from '../../../domain/money/money.js';
import { MoneyModel } from '../../../common/models/money.model.js';
import { CatalogVersionRefModel } from '../../catalog/models/catalog-version.model.js';
import { EstimateModel } from './estimate.model.js';
import { at, getOrThrow } from '../../../domain/checked.js';

const m = (money: Money): MoneyModel => MoneyModel.of(money.amount, money.currency);
const mOrNull = (money: Money | null): MoneyModel | null => (money ? m(money) : null);
/** Ratios and shares rounded for the wire: 4 decimals (0.01% precision). */
const r4 = (x: number): number => Math.round(x * 10_000) / 10_000;

export function toEstimateModel({
  version,
  estimate: e,
  index,
}: {
  version: CatalogVersionInfo;
  estimate: InferenceEstimate;
  index: CatalogIndex;
}): EstimateModel {
  return Object.assign(new EstimateModel(), {
    catalogVersion: CatalogVersionRefModel.of(version),
    monthlyCost: m(e.monthlyCost),
    gpuCost: m(e.gpuCost),
    hoursPerMonth: e.hoursPerMonth,
    tiers: e.tiers.map((t) => ({
      pricingModel: t.pricingModel,
      gpuHours: r4(t.gpuHours),
      instanceHours: r4(t.instanceHours),
      cost: m(t.cost),
      capacityShare: r4(t.capacityShare),
    })),
    hourlyPlan: e.hourlyPlan.map((h) => ({
      ...h,
      demandRequestsPerSecond: r4(h.demandRequestsPerSecond),
      onlineRequestsPerSecond: r4(h.onlineRequestsPerSecond),
      serverlessReplicaHours: r4(h.serverlessReplicaHours),
      batchReplicaHours: r4(h.batchReplicaHours),
    })),
    gpu: e.gpu.slug,
    gpuMemoryGb: e.gpu.memoryGb,
    precision: e.precision,
    gpusPerReplica: e.gpusPerReplica,
    model: e.model,
    chosenOffers: e.chosenOffers.map((c) => {
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
        gpusPerInstance: c.gpusPerInstance,
        replicasPerInstance: c.replicasPerInstance,
        pricePerInstanceHour: m(c.pricePerInstanceHour),
        effectivePricePerInstanceHour: m(c.effectivePricePerInstanceHour),
        interruptionsPerHour: c.interruptionsPerHour,
        interruptionBasis: c.interruptionBasis,
        interruptionRate: offer.interruptionRate ?? null,
        source: offer.sourceUrl,
      };
    }),
    reservedInstances: e.reservedInstances,
    baselines: {
      naive: {
        monthlyCost: m(e.baselines.naive.monthlyCost),
        pricingModel: e.baselines.naive.pricingModel,
        description:
          `${e.baselines.naive.replicas} replicas (peak) on ${e.baselines.naive.instances} instance(s), ` + `${e.baselines.naive.pricingModel}, every hour`,
      },
      onDemandAutoscaled: {
        monthlyCost: m(e.baselines.onDemandAutoscaled.monthlyCost),
        pricingModel: e.baselines.onDemandAutoscaled.pricingModel,
        description:
          `${e.baselines.onDemandAutoscaled.pricingModel} instances following the hourly demand ` +
          `(${r4(e.baselines.onDemandAutoscaled.gpuHours)} GPU-hours a month)`,
      },
    },
    savingsVsNaivePct: r4(e.savingsVsNaivePct),
    savingsVsOnDemandAutoscaledPct: r4(e.savingsVsOnDemandAutoscaledPct),
    serverless: e.serverless
      ? { breakEvenUtilization: r4(e.serverless.breakEvenUtilization), cheaper: e.serverless.cheaper, monthlyCost: m(e.serverless.monthlyCost) }
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
      egress: m(e.hiddenCosts.egress),
      egressPriceKnown: e.hiddenCosts.egressPriceKnown,
      coldStarts: m(e.hiddenCosts.coldStarts),
      spotRestarts: m(e.hiddenCosts.spotRestarts),
      idleCapacity: m(e.hiddenCosts.idleCapacity),
    },
    apiComparison: e.apiComparison
      ? {
          apiPricePer1MTokens: m(e.apiComparison.apiPricePer1MTokens),
          tokensPerDay: Math.round(e.apiComparison.tokensPerDay),
          monthlyApiCost: m(e.apiComparison.monthlyApiCost),
          breakEvenTokensPerDay: Math.round(e.apiComparison.breakEvenTokensPerDay),
          selfHostingCheaper: e.apiComparison.selfHostingCheaper,
        }
      : null,
    alternatives: e.alternatives.map((a) => ({ ...a, monthlyCost: m(a.monthlyCost), deltaVsChosenPct: r4(a.deltaVsChosenPct) })),
    assumptions: e.assumptions,
    warnings: e.warnings,
  });
}
