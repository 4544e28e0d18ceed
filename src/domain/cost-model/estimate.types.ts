// Input and result of estimateInferenceCost: plain data, money as Decimal, quantities as numbers.
import type { PlanHour } from './plan-period.js';
import type { Currency, PricingModel } from '../catalog/catalog.types.js';
import type { InterruptionTolerance } from '../compliance/policy.js';
import type { Decimal, Money } from '../money/money.js';
import type { ModelInput } from '../sizing/model.js';
import type { Precision } from '../sizing/precision.js';
import type { GpuSpec } from './gpu-spec.js';
import type { SpotInterruptionBasis, TierOfferInput } from './plan-tiers.js';

export type { SpotInterruptionBasis, TierOfferInput };

/**
 * One GPU type the request allows, with its compliant offers: the caller's cheapest of each pricing
 * model and instance size (so that a replica needing more GPUs than the cheapest instance holds
 * still finds the right offer). Missing models are simply absent.
 */
export interface GpuCandidate {
  gpu: GpuSpec;
  offers: readonly TierOfferInput[];
}

export interface WorkloadInput {
  /** 24 values of requests/s, hour 0 first (an average day). Or weeklyProfile, or requestsPerSecond. */
  hourlyProfile?: readonly number[];
  /** 168 values of requests/s, Monday 00:00 first (an average week): weekdays and weekends planned as they are. */
  weeklyProfile?: readonly number[];
  /** Flat rate, requests/s, used when hourlyProfile is absent. */
  requestsPerSecond?: number;
  avgInputTokens: number;
  avgOutputTokens: number;
  /** Share (0..1) of requests that are deferrable batch work. Default 0. */
  batchShare?: number;
  /** Time per output token the online batch must stay within, ms. Default 50. */
  interTokenLatencyMs?: number;
  /** u in N_h = ceil(λ_h / (μ·u)). Default 0.75. */
  targetUtilization?: number;
  /** Replicas kept running in every hour. Default 1. */
  minReplicas?: number;
  /** Allow 0 replicas in hours with no online demand (cold starts are charged). Default false. */
  scaleToZero?: boolean;
}

/** A caller's own measurement; replaces the roofline for matching GPUs/precisions. */
export interface MeasuredThroughputInput {
  /** GPU slug it was measured on; absent = applies to every GPU. */
  gpuSlug?: string;
  /** Precision it was measured at; absent = applies to every precision. */
  precision?: Precision;
  /** Per replica. Give this or outputTokensPerSecond. */
  requestsPerSecond?: number;
  outputTokensPerSecond?: number;
}

export interface SpotAssumptions {
  /**
   * Expected interruptions per instance-hour, for every spot offer. Default: from each offer's
   * Spot Instance Advisor band where it has one with an upper bound, else 0.05 (one per 20 hours).
   */
  interruptionsPerHour?: number;
  /** Work lost per interruption (since the last checkpoint / in-flight requests), minutes. Default 5. */
  lostWorkMinutes?: number;
}

export interface EstimateInput {
  model: ModelInput;
  /** Precisions right-sizing may use. Default: the model's native precision. */
  precisions?: readonly Precision[];
  workload: WorkloadInput;
  /** Default INTOLERANT: latency-critical traffic never lands on spot unless the caller says so. */
  tolerance?: InterruptionTolerance;
  /** GPU types allowed, each with its compliant offers. */
  candidates: readonly GpuCandidate[];
  currency: Currency;
  /** Default 730. The profile's period (24 or 168 hours) is scaled by hoursPerMonth / its hours. */
  hoursPerMonth?: number;
  /** RECOVERABLE: share of burst replicas on spot, the rest on on-demand fallback. Default 0.5. */
  recoverableSpotShare?: number;
  spot?: SpotAssumptions;
  /** Seconds from instance start to serving. Default 60 s + weights at 1 GB/s. */
  modelLoadSeconds?: number;
  /** Data sent out per month, GB. Default 0. */
  egressGbPerMonth?: number;
  /** Used when a candidate has no egressPricePerGb of its own. */
  egressPricePerGb?: Decimal;
  /** Compare against a hosted API at this price per 1M tokens (input + output), estimate currency. */
  apiPricePer1MTokens?: Decimal;
  measuredThroughput?: readonly MeasuredThroughputInput[];
  /** How many alternatives to return. Default 3. */
  maxAlternatives?: number;
  /**
   * COST (default): the cheapest plan; CARBON: the plan with the least g CO2e per month at the
   * plan's utilization, as the answer reports it (objective.ts, docs/carbon.md), then the cheapest.
   */
  optimizeFor?: 'COST' | 'CARBON';
  /**
   * The share of board power a GPU draws idle (docs/carbon.md, 0..1), for the carbon of a plan at
   * its utilization. Absent: full load (1), so unknown idle power never flatters a plan.
   */
  carbonIdleShare?: number;
}

export interface TierSummary {
  pricingModel: PricingModel;
  offerRef: string;
  /** The provider and region the tier buys from. */
  provider: string;
  region: string;
  instanceHours: number;
  gpuHours: number;
  cost: Money;
  /** Share of all GPU-hours (0..1). */
  capacityShare: number;
  /** Egress the tier carries per month: the plan's egress × capacityShare. */
  egressGb: number;
  /** Its provider's egress price per GB (or the caller's, where the provider's is unknown); null: unknown. */
  egressPricePerGb: Money | null;
  egress: Money;
  /** Inside `cost`: model loading after starts from zero, and the spot interruption overhead. */
  coldStarts: Money;
  spotRestarts: Money;
}

/** One hour of the chosen plan as answered: the planner's hour, with the demand it served. */
export interface HourlyPlanRow extends Omit<PlanHour, 'onlineReplicas'> {
  /** Requests/s of the whole profile this hour. */
  demandRequestsPerSecond: number;
  onlineRequestsPerSecond: number;
  replicasNeeded: number;
}

export interface ChosenOffer {
  pricingModel: PricingModel;
  ref: string;
  provider: string;
  region: string;
  gpusPerInstance: number;
  replicasPerInstance: number;
  pricePerInstanceHour: Money;
  /** Spot: including interruption overhead. */
  effectivePricePerInstanceHour: Money;
  /** Spot: the interruptions per instance-hour in that overhead; null for other pricing models. */
  interruptionsPerHour: number | null;
  /** Spot: where that rate came from; null for other pricing models. */
  interruptionBasis: SpotInterruptionBasis | null;
}

export interface Alternative {
  gpu: string;
  precision: Precision;
  gpusPerReplica: number;
  monthlyCost: Money;
  /** How much dearer than the chosen plan, percent (positive = dearer). */
  deltaVsChosenPct: number;
  /** e.g. "INT8 on l4-24gb instead of FP16 on a100-80gb: −58%". */
  summary: string;
}

export interface InferenceEstimate {
  currency: Currency;
  hoursPerMonth: number;
  /** The profile's period: 24 (an average day) or 168 (an average week). */
  periodHours: number;
  /** GPU capacity plus egress. */
  monthlyCost: Money;
  /** GPU capacity only (the sum of tiers). */
  gpuCost: Money;
  tiers: TierSummary[];
  hourlyPlan: HourlyPlanRow[];
  gpu: { slug: string; memoryGb: number };
  precision: Precision;
  gpusPerReplica: number;
  model: { slug: string; name: string; totalParametersB: number; activeParametersB: number };
  chosenOffers: ChosenOffer[];
  reservedInstances: number;
  /**
   * What buying on demand would cost, priced from the on-demand offer the plan would use: the
   * peak fleet around the clock (naive), and on-demand following demand. Null, with the reason,
   * when no compliant on-demand offer holds a replica: never a price of another model under
   * these labels.
   */
  baselines: {
    naive: { monthlyCost: Money; pricingModel: PricingModel; offerRef: string; instances: number; replicas: number } | null;
    onDemandAutoscaled: { monthlyCost: Money; pricingModel: PricingModel; offerRef: string; gpuHours: number } | null;
    unavailableReason: string | null;
  };
  savingsVsNaivePct: number | null;
  savingsVsOnDemandAutoscaledPct: number | null;
  /**
   * Serving everything serverless (busy replica-hours × serverless price) against the best plan
   * without serverless. breakEvenUtilization u* = that plan's price per paid replica-hour /
   * serverless price per busy replica-hour; cheaper ⇔ the plan's utilization is below u*.
   * Null without a serverless offer. The blended plan itself may already use serverless hours.
   */
  serverless: { breakEvenUtilization: number; cheaper: boolean; monthlyCost: Money } | null;
  unitEconomics: {
    costPer1MOutputTokens: Money | null;
    costPer1kRequests: Money | null;
    effectivePricePerGpuHour: Money | null;
    /** Busy replica-hours / paid dedicated replica-hours (0..1). */
    averageUtilization: number;
  };
  replicaThroughput: {
    requestsPerSecond: number;
    outputTokensPerSecond: number;
    batch: number;
    stepTimeMs: number | null;
    bound: 'MEMORY' | 'COMPUTE' | 'MEASURED';
  };
  /**
   * Egress is added to monthlyCost; coldStarts, spotRestarts and idleCapacity are already inside
   * the tier costs and are shown to explain them.
   */
  hiddenCosts: {
    /** The sum of the tiers' egress, each at its own provider's price. */
    egress: Money;
    /** False when a tier carries egress but its provider has no egress price of its own: that share is priced at the fallback (0 without one). */
    egressPriceKnown: boolean;
    /** Those providers. */
    egressUnpricedProviders: string[];
    /** The price per GB applied where a provider has none (the input's egressPricePerGb); null: none, such egress counts as 0. */
    egressFallbackPricePerGb: Money | null;
    coldStarts: Money;
    spotRestarts: Money;
    idleCapacity: Money;
  };
  apiComparison: {
    apiPricePer1MTokens: Money;
    tokensPerDay: number;
    monthlyApiCost: Money;
    /** Daily tokens at which the API would cost what this plan costs; null for an API priced at 0, which no volume reaches. */
    breakEvenTokensPerDay: number | null;
    selfHostingCheaper: boolean;
  } | null;
  alternatives: Alternative[];
  assumptions: string[];
  warnings: string[];
  /** One sentence each for what a reader may find surprising (a large GPU for a small model, a plan nearly all spot): why it is cheapest per token. */
  explanations: string[];
}

export type EstimateOutcome =
  | { kind: 'OK'; estimate: InferenceEstimate }
  | {
      kind: 'NO_FIT';
      largestGpuTried: { slug: string; memoryGb: number; gpusPerInstance: number } | null;
      reason: string;
    }
  | { kind: 'NO_USABLE_OFFER'; reason: string }
  /** Every plan would need more than MAX_PLANNED_GPUS GPUs at the peak. */
  | { kind: 'TOO_LARGE'; gpusAtPeak: number; reason: string }
  | { kind: 'INVALID_INPUT'; field: string; reason: string };
