// estimateInferenceCost: validate, right-size, then price the winner in Decimal and explain it.
import { Decimal } from '../money/money.js';
import { resolveModel } from '../sizing/model.js';
import type { ModelSpec } from '../sizing/model-presets.js';
import { isPrecision, type Precision } from '../sizing/precision.js';
import { DEFAULT_INTER_TOKEN_LATENCY_MS } from './calibration.js';
import { DEFAULT_MIN_REPLICAS, DEFAULT_TARGET_UTILIZATION, HOURS_PER_DAY, HOURS_PER_WEEK } from './demand.js';
import { describePlan } from './estimate-narrative.js';
import { explainPlan } from './estimate-explanations.js';
import type { Alternative, EstimateInput, EstimateOutcome, InferenceEstimate } from './estimate.types.js';
import { costPlan, monthly, toMoney, type PlanCosting } from './plan-costing.js';
import type { PricedPlan } from './right-sizing.js';
import { compareEvaluations, evaluateCandidates, MAX_PLANNED_GPUS, type Evaluation, type RightSizingSettings } from './right-sizing.js';
import { at } from '../checked.js';
import { byCarbonThenCost } from './carbon-ranking.js';
import { planUtilization } from './objective.js';

export const DEFAULT_HOURS_PER_MONTH = 730;
export const DEFAULT_RECOVERABLE_SPOT_SHARE = 0.5;
export { DEFAULT_SPOT_INTERRUPTIONS_PER_HOUR } from './plan-tiers.js';
/** Half of a 10-minute checkpoint interval, or the in-flight requests of an online replica. */
export const DEFAULT_SPOT_LOST_WORK_MINUTES = 5;
export const DEFAULT_MAX_ALTERNATIVES = 3;

type Invalid = Extract<EstimateOutcome, { kind: 'INVALID_INPUT' }>;

export function estimateInferenceCost(input: EstimateInput): EstimateOutcome {
  const resolved = resolveModel({ model: input.model });
  if (!resolved.ok) return { kind: 'INVALID_INPUT', field: resolved.field, reason: resolved.reason };
  const settings = settingsFrom(input, resolved.model);
  if ('kind' in settings) return settings;

  // The answer names the winner and the best plan of up to maxAlternatives other GPU × precision
  // pairs (at least one, see alternatives()): options that cannot be among those are not planned.
  const maxAlternatives = input.maxAlternatives ?? DEFAULT_MAX_ALTERNATIVES;
  // Pruning by cost bounds holds for the cost objective only: CARBON plans every option.
  const keep = Number.isFinite(maxAlternatives) && settings.objective === 'COST' ? 1 + Math.max(1, Math.ceil(maxAlternatives)) : Infinity;
  const sizing = evaluateCandidates(settings, { keep });
  if (sizing.evaluations.length === 0) {
    if (sizing.tooLargeGpus !== null) {
      const gpus = sizing.tooLargeGpus;
      return {
        kind: 'TOO_LARGE',
        gpusAtPeak: gpus,
        reason:
          `the workload needs at least ${gpus.toLocaleString('en-US')} GPUs at its peak; ` +
          `one estimate plans at most ${MAX_PLANNED_GPUS.toLocaleString('en-US')}`,
      };
    }
    const tried = sizing.largestTried;
    // No candidate had an offer at all: that is the policy's doing, not the model's size.
    if (!tried && !sizing.anyFit) {
      return { kind: 'NO_USABLE_OFFER', reason: sizing.notes.join('; ') || 'no compliant offer for any allowed GPU' };
    }
    if (!sizing.anyFit) {
      return {
        kind: 'NO_FIT',
        largestGpuTried: tried ? { slug: tried.candidate.gpu.slug, memoryGb: tried.candidate.gpu.memoryGb, gpusPerInstance: tried.gpusPerInstance } : null,
        reason: tried?.reason ?? 'no GPU candidate with an offer was given',
      };
    }
    return { kind: 'NO_USABLE_OFFER', reason: sizing.notes.join('; ') || 'no usable offer' };
  }
  const rank = settings.objective === 'CARBON' ? byCarbonThenCost : compareEvaluations;
  const ranked = [...sizing.evaluations].sort(rank);
  const chosen = at(ranked, 0);
  const estimate = assemble({ input, settings, chosen });
  estimate.alternatives = alternatives({ ranked, chosen, estimate, input, settings });
  estimate.warnings.push(...sizing.notes.map((n) => `skipped: ${n}`));
  const outputTokensPerMonth = new Decimal(settings.hoursPerMonth)
    .div(chosen.demand.onlineReplicas.length)
    .mul(chosen.demand.totalRequestsPerPeriod)
    .mul(settings.avgOutputTokens);
  estimate.explanations = explainPlan({
    estimate,
    chosen,
    evaluations: ranked,
    alternativeCostPer1MOutputTokens: (e) => {
      if (outputTokensPerMonth.isZero()) return null;
      const p = priceEvaluation({ input, settings, evaluation: e });
      return p.blended.gpuCost.add(p.blended.egress).div(outputTokensPerMonth).mul(1e6);
    },
  });
  return { kind: 'OK', estimate };
}

function settingsFrom(input: EstimateInput, model: ModelSpec): RightSizingSettings | Invalid {
  const w = input.workload;
  const invalid = (field: string, reason: string): Invalid => ({ kind: 'INVALID_INPUT', field, reason });
  const given = [w.hourlyProfile, w.weeklyProfile, w.requestsPerSecond].filter((v) => v !== undefined).length;
  if (given !== 1) return invalid('workload', 'give exactly one of hourlyProfile (24 values), weeklyProfile (168 values) and requestsPerSecond');
  const profileField = w.weeklyProfile ? 'workload.weeklyProfile' : 'workload.hourlyProfile';
  const profile = w.weeklyProfile ?? w.hourlyProfile ?? Array<number>(HOURS_PER_DAY).fill(w.requestsPerSecond ?? 0);
  const periodHours = w.weeklyProfile ? HOURS_PER_WEEK : HOURS_PER_DAY;
  if (profile.length !== periodHours) return invalid(profileField, `needs exactly ${periodHours} hourly values`);
  if (profile.some((v) => !(Number.isFinite(v) && v >= 0))) {
    return invalid(w.requestsPerSecond !== undefined ? 'workload.requestsPerSecond' : profileField, 'requests/s must be finite and ≥ 0');
  }
  const positive = (v: number | undefined): boolean => v === undefined || (Number.isFinite(v) && v > 0);
  if (!(w.avgInputTokens >= 0 && Number.isFinite(w.avgInputTokens))) return invalid('workload.avgInputTokens', 'must be ≥ 0');
  if (!(w.avgOutputTokens >= 1 && Number.isFinite(w.avgOutputTokens))) return invalid('workload.avgOutputTokens', 'must be ≥ 1');
  const batchShare = w.batchShare ?? 0;
  if (!(batchShare >= 0 && batchShare < 1)) return invalid('workload.batchShare', 'must be in [0, 1)');
  const targetUtilization = w.targetUtilization ?? DEFAULT_TARGET_UTILIZATION;
  if (!(targetUtilization > 0 && targetUtilization <= 1)) return invalid('workload.targetUtilization', 'must be in (0, 1]');
  if (!positive(w.interTokenLatencyMs)) return invalid('workload.interTokenLatencyMs', 'must be > 0');
  const minReplicas = w.minReplicas ?? DEFAULT_MIN_REPLICAS;
  if (!(Number.isInteger(minReplicas) && minReplicas >= 0)) return invalid('workload.minReplicas', 'must be an integer ≥ 0');
  const hoursPerMonth = input.hoursPerMonth ?? DEFAULT_HOURS_PER_MONTH;
  if (!positive(hoursPerMonth)) return invalid('hoursPerMonth', 'must be > 0');
  const idleShare = input.carbonIdleShare ?? 1;
  if (!(idleShare >= 0 && idleShare <= 1)) return invalid('carbonIdleShare', 'must be in [0, 1]');
  const share = input.recoverableSpotShare ?? DEFAULT_RECOVERABLE_SPOT_SHARE;
  if (!(share >= 0 && share <= 1)) return invalid('recoverableSpotShare', 'must be in [0, 1]');
  const precisions: readonly Precision[] = input.precisions?.length ? input.precisions : [model.nativePrecision];
  const bad = precisions.find((p) => !isPrecision(p));
  if (bad !== undefined) return invalid('precisions', `unknown precision ${String(bad)}`);
  if (input.candidates.length === 0) return invalid('candidates', 'at least one GPU candidate is needed');
  for (const m of input.measuredThroughput ?? []) {
    if (!positive(m.requestsPerSecond) || !positive(m.outputTokensPerSecond)) {
      return invalid('measuredThroughput', 'measured throughput must be > 0');
    }
    if (m.requestsPerSecond === undefined && m.outputTokensPerSecond === undefined) {
      return invalid('measuredThroughput', 'give requestsPerSecond or outputTokensPerSecond');
    }
  }
  return {
    model,
    precisions: [...new Set(precisions)],
    candidates: input.candidates,
    hourlyRequestsPerSecond: profile,
    avgInputTokens: w.avgInputTokens,
    avgOutputTokens: w.avgOutputTokens,
    batchShare,
    interTokenLatencyMs: w.interTokenLatencyMs ?? DEFAULT_INTER_TOKEN_LATENCY_MS,
    targetUtilization,
    minReplicas,
    scaleToZero: w.scaleToZero ?? false,
    tolerance: input.tolerance ?? 'INTOLERANT',
    recoverableSpotShare: share,
    interruptionsPerHour: input.spot?.interruptionsPerHour,
    lostWorkMinutes: input.spot?.lostWorkMinutes ?? DEFAULT_SPOT_LOST_WORK_MINUTES,
    modelLoadSeconds: input.modelLoadSeconds,
    hoursPerMonth,
    egressGbPerMonth: input.egressGbPerMonth ?? 0,
    egressPricePerGb: input.egressPricePerGb,
    measuredThroughput: input.measuredThroughput ?? [],
    objective: input.optimizeFor ?? 'COST',
    carbon: { idleShare },
  };
}

export interface PricedEvaluation {
  blended: PlanCosting;
  /** The on-demand baselines; null when no on-demand offer holds a replica. */
  autoscaled: PlanCosting | null;
  naive: PlanCosting | null;
}

/**
 * Float noise allowed between plans the optimizer priced as equal: its float costs only choose,
 * the Decimal recomputation can differ from them in the last digits.
 */
const SAME_COST = new Decimal('1e-9');

/**
 * Prices the blended plan and the on-demand baselines in Decimal, egress included tier by tier.
 * blended ≤ autoscaled ≤ naive holds in total by construction (the optimizer's space holds both
 * baselines, autoscaling may keep replicas warm, and the plan competes with the on-demand baseline
 * on GPU capacity plus egress); a violation is a bug in the optimizer, never a plan to report.
 */
export function priceEvaluation({
  input,
  settings,
  evaluation,
}: {
  input: EstimateInput;
  settings: RightSizingSettings;
  evaluation: Evaluation;
}): PricedEvaluation {
  const cost = (priced: PricedPlan): PlanCosting =>
    costPlan({
      priced,
      tensorParallel: evaluation.tensorParallel,
      hoursPerMonth: settings.hoursPerMonth,
      currency: input.currency,
      egress: { gbPerMonth: settings.egressGbPerMonth, fallbackPricePerGb: settings.egressPricePerGb },
    });
  const blended = cost(evaluation.blended);
  const naive = evaluation.naive ? cost(evaluation.naive) : null;
  const autoscaled = evaluation.autoscaled ? cost(evaluation.autoscaled) : null;
  // The cost objective's guarantee; a CARBON plan may cost more than buying on demand.
  if (naive && autoscaled && settings.objective === 'COST') {
    assertNotDearer({ plan: autoscaled, than: naive, what: 'on-demand autoscaling', baseline: 'the naive plan' });
    assertNotDearer({ plan: blended, than: autoscaled, what: 'the blended plan', baseline: 'on-demand autoscaling' });
  }
  return { blended, autoscaled, naive };
}

/** Compared in total (GPU capacity and egress): what the answer reports as the monthly cost. */
function assertNotDearer({ plan, than, what, baseline }: { plan: PlanCosting; than: PlanCosting; what: string; baseline: string }): void {
  const [a, b] = [plan.gpuCost.add(plan.egress), than.gpuCost.add(than.egress)];
  if (a.gt(b.mul(SAME_COST.add(1)).add(SAME_COST))) {
    throw new Error(`cost model: ${what} (${a.toString()}) is dearer than ${baseline} (${b.toString()})`);
  }
}

const pct = (part: Decimal, whole: Decimal): number => (whole.isZero() ? 0 : part.div(whole).mul(100).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN).toNumber());

/** A baseline's total (GPU capacity and egress), or null. */
const totalOf = (c: PlanCosting | null): Decimal | null => (c ? c.gpuCost.add(c.egress) : null);

function assemble({ input, settings, chosen }: { input: EstimateInput; settings: RightSizingSettings; chosen: Evaluation }): InferenceEstimate {
  const { currency } = input;
  const { hoursPerMonth } = settings;
  const priced = priceEvaluation({ input, settings, evaluation: chosen });
  const { blended, autoscaled, naive } = priced;
  const plan = chosen.blended;
  const demand = chosen.demand;
  const periodHours = demand.onlineReplicas.length;
  const periods = new Decimal(hoursPerMonth).div(periodHours);
  const monthlyCost = blended.gpuCost.add(blended.egress);
  const naiveTotal = totalOf(naive);
  const autoscaledTotal = totalOf(autoscaled);
  const { averageUtilization, idleCapacity } = utilizationOf({ blended, plan, demand });

  const requestsPerMonth = periods.mul(demand.totalRequestsPerPeriod);
  const outputTokensPerMonth = requestsPerMonth.mul(settings.avgOutputTokens);
  const perUnit = (units: Decimal, per: number) => (units.isZero() ? null : toMoney(monthlyCost.div(units).mul(per), currency));

  const serverless = serverlessComparison({ input, settings, chosen });
  const apiComparison = compareWithApi({ input, settings, demand, monthlyCost, periods });

  const { assumptions, warnings, chosenOffers } = describePlan({ input, s: settings, chosen, priced, plan });
  return {
    currency,
    hoursPerMonth,
    periodHours,
    monthlyCost: toMoney(monthlyCost, currency),
    gpuCost: toMoney(blended.gpuCost, currency),
    tiers: blended.tiers,
    hourlyPlan: hourlyPlanOf(settings, chosen),
    gpu: { slug: chosen.candidate.gpu.slug, memoryGb: chosen.candidate.gpu.memoryGb },
    precision: chosen.precision,
    gpusPerReplica: chosen.tensorParallel,
    model: {
      slug: settings.model.slug,
      name: settings.model.name,
      totalParametersB: settings.model.totalParametersB,
      activeParametersB: settings.model.activeParametersB,
    },
    chosenOffers,
    reservedInstances: plan.plan.reservedInstances,
    baselines: baselinesOf({ chosen, naiveTotal, autoscaled, autoscaledTotal, currency }),
    savingsVsNaivePct: naiveTotal ? pct(naiveTotal.sub(monthlyCost), naiveTotal) : null,
    savingsVsOnDemandAutoscaledPct: autoscaledTotal ? pct(autoscaledTotal.sub(monthlyCost), autoscaledTotal) : null,
    serverless,
    unitEconomics: {
      costPer1MOutputTokens: perUnit(outputTokensPerMonth, 1e6),
      costPer1kRequests: perUnit(requestsPerMonth, 1e3),
      effectivePricePerGpuHour: blended.gpuHours > 0 ? toMoney(blended.gpuCost.div(blended.gpuHours), currency) : null,
      averageUtilization,
    },
    replicaThroughput: {
      requestsPerSecond: chosen.throughput.requestsPerSecond,
      outputTokensPerSecond: chosen.throughput.outputTokensPerSecond,
      batch: chosen.throughput.batch,
      stepTimeMs: chosen.throughput.stepTimeMs,
      bound: chosen.throughput.bound,
    },
    hiddenCosts: {
      egress: toMoney(blended.egress, currency),
      egressPriceKnown: blended.egressUnpricedProviders.length === 0,
      egressUnpricedProviders: blended.egressUnpricedProviders,
      egressFallbackPricePerGb: settings.egressPricePerGb === undefined ? null : toMoney(settings.egressPricePerGb, currency),
      coldStarts: toMoney(blended.coldStarts, currency),
      spotRestarts: toMoney(blended.spotRestarts, currency),
      idleCapacity: toMoney(idleCapacity, currency),
    },
    apiComparison,
    alternatives: [],
    assumptions,
    warnings,
    explanations: [],
  };
}

/** Utilization: busy replica-hours over paid ones (serverless is paid only when busy). */
function utilizationOf({ blended, plan, demand }: { blended: PlanCosting; plan: PricedPlan; demand: Evaluation['demand'] }): {
  averageUtilization: number;
  /** What the dedicated capacity costs while it idles. */
  idleCapacity: Decimal;
} {
  const serverlessHours = plan.plan.serverlessReplicaHours;
  // The utilization the carbon objective weighs plans at (objective.ts): one definition for both.
  const averageUtilization = planUtilization(plan.plan, plan.tiers, demand.busyReplicaHoursPerPeriod);
  const dedicatedBusy = Math.max(0, demand.busyReplicaHoursPerPeriod - serverlessHours);
  const dedicatedUtilization = blended.dedicatedReplicaHoursPerPeriod > 0 ? Math.min(1, dedicatedBusy / blended.dedicatedReplicaHoursPerPeriod) : 1;
  return { averageUtilization, idleCapacity: blended.dedicatedCost.mul(1 - dedicatedUtilization) };
}

/** The chosen plan hour by hour, with the demand it serves. */
function hourlyPlanOf(settings: RightSizingSettings, chosen: Evaluation): InferenceEstimate['hourlyPlan'] {
  return chosen.blended.plan.hours.map((row) => ({
    hour: row.hour,
    demandRequestsPerSecond: at(settings.hourlyRequestsPerSecond, row.hour),
    onlineRequestsPerSecond: at(chosen.demand.onlineRequestsPerSecond, row.hour),
    replicasNeeded: row.onlineReplicas,
    reservedInstances: row.reservedInstances,
    onDemandInstances: row.onDemandInstances,
    spotInstances: row.spotInstances,
    serverlessReplicaHours: row.serverlessReplicaHours,
    batchReplicaHours: row.batchReplicaHours,
    batchOnDemandInstances: row.batchOnDemandInstances,
    batchSpotInstances: row.batchSpotInstances,
    batchServerlessReplicaHours: row.batchServerlessReplicaHours,
  }));
}

/** The on-demand baselines the savings are measured against, or why they are not priced. */
function baselinesOf({
  chosen,
  naiveTotal,
  autoscaled,
  autoscaledTotal,
  currency,
}: {
  chosen: Evaluation;
  naiveTotal: Decimal | null;
  autoscaled: PlanCosting | null;
  autoscaledTotal: Decimal | null;
  currency: EstimateInput['currency'];
}): InferenceEstimate['baselines'] {
  const demand = chosen.demand;
  const baselineOffer = chosen.baselineTier?.offer ?? null;
  return {
    naive:
      naiveTotal && baselineOffer
        ? {
            monthlyCost: toMoney(naiveTotal, currency),
            pricingModel: baselineOffer.pricingModel,
            offerRef: baselineOffer.ref,
            instances: Math.ceil(demand.naivePeakReplicas / (chosen.baselineTier?.replicasPerInstance ?? 1)),
            replicas: demand.naivePeakReplicas,
          }
        : null,
    onDemandAutoscaled:
      autoscaledTotal && autoscaled && baselineOffer
        ? {
            monthlyCost: toMoney(autoscaledTotal, currency),
            pricingModel: baselineOffer.pricingModel,
            offerRef: baselineOffer.ref,
            gpuHours: autoscaled.gpuHours,
          }
        : null,
    unavailableReason: baselineOffer
      ? null
      : `no compliant on-demand offer of ${chosen.candidate.gpu.slug} holds a ${chosen.tensorParallel}-GPU replica, so what buying on demand would cost is not priced`,
  };
}

/** What the same tokens would cost from a per-token API, when the request gives its price. */
function compareWithApi({
  input,
  settings,
  demand,
  monthlyCost,
  periods,
}: {
  input: EstimateInput;
  settings: RightSizingSettings;
  demand: Evaluation['demand'];
  monthlyCost: Decimal;
  periods: Decimal;
}): InferenceEstimate['apiComparison'] {
  if (!input.apiPricePer1MTokens) return null;
  const { currency } = input;
  const periodHours = demand.onlineReplicas.length;
  const tokensPerPeriod = demand.totalRequestsPerPeriod * (settings.avgInputTokens + settings.avgOutputTokens);
  const monthlyApiCost = input.apiPricePer1MTokens.mul(tokensPerPeriod).mul(periods).div(1e6);
  const dayShare = HOURS_PER_DAY / periodHours;
  // A free API is cheaper at every volume: there is no break-even to state.
  const breakEvenPerPeriod = input.apiPricePer1MTokens.isZero() ? null : monthlyCost.div(periods).div(input.apiPricePer1MTokens).mul(1e6).toNumber();
  return {
    apiPricePer1MTokens: toMoney(input.apiPricePer1MTokens, currency),
    tokensPerDay: tokensPerPeriod * dayShare,
    monthlyApiCost: toMoney(monthlyApiCost, currency),
    breakEvenTokensPerDay: breakEvenPerPeriod === null ? null : Math.round(breakEvenPerPeriod * dayShare),
    selfHostingCheaper: monthlyCost.lt(monthlyApiCost),
  };
}

/**
 * Serverless against the best dedicated-only plan: cost = busy replica-hours × serverless price;
 * u* = dedicated price per paid replica-hour / serverless price per busy replica-hour, and
 * serverless is cheaper exactly when the dedicated plan's utilization is below u*.
 */
function serverlessComparison({
  input,
  settings,
  chosen,
}: {
  input: EstimateInput;
  settings: RightSizingSettings;
  chosen: Evaluation;
}): InferenceEstimate['serverless'] {
  const tier = chosen.tiers.serverless;
  if (!tier || !chosen.dedicatedOnly) return null;
  const { hoursPerMonth } = settings;
  const perReplicaBusyHour = tier.offer.pricePerInstanceHour.mul(chosen.tensorParallel).div(tier.offer.gpusPerInstance);
  const periodHours = chosen.demand.onlineReplicas.length;
  const serverlessMonthly = monthly({ perPeriod: perReplicaBusyHour.mul(chosen.demand.busyReplicaHoursPerPeriod), periodHours, hoursPerMonth });
  const dedicated = costPlan({
    priced: chosen.dedicatedOnly,
    tensorParallel: chosen.tensorParallel,
    hoursPerMonth,
    currency: input.currency,
  });
  const paidReplicaHours = new Decimal(hoursPerMonth).div(periodHours).mul(dedicated.dedicatedReplicaHoursPerPeriod);
  const dedicatedPerReplicaHour = paidReplicaHours.isZero() ? new Decimal(0) : dedicated.dedicatedCost.div(paidReplicaHours);
  return {
    breakEvenUtilization: perReplicaBusyHour.isZero()
      ? Infinity
      : dedicatedPerReplicaHour.div(perReplicaBusyHour).toDecimalPlaces(4, Decimal.ROUND_HALF_EVEN).toNumber(),
    cheaper: serverlessMonthly.lt(dedicated.gpuCost),
    monthlyCost: toMoney(serverlessMonthly, input.currency),
  };
}

const label = (e: Evaluation): string => `${e.precision} on ${e.candidate.gpu.slug}`;

/** The best plan of each other GPU × precision, with how it compares to the chosen one. */
function alternatives({
  ranked,
  chosen,
  estimate,
  input,
  settings,
}: {
  ranked: Evaluation[];
  chosen: Evaluation;
  estimate: InferenceEstimate;
  input: EstimateInput;
  settings: RightSizingSettings;
}): Alternative[] {
  const seen = new Set<string>([`${chosen.candidateIndex}/${chosen.precision}`]);
  const picked: Evaluation[] = [];
  for (const e of ranked) {
    const key = `${e.candidateIndex}/${e.precision}`;
    if (seen.has(key)) continue;
    seen.add(key);
    picked.push(e);
    if (picked.length >= (input.maxAlternatives ?? DEFAULT_MAX_ALTERNATIVES)) break;
  }
  const chosenCost = estimate.monthlyCost.amount;
  return picked.map((e) => {
    const p = priceEvaluation({ input, settings, evaluation: e });
    const cost = p.blended.gpuCost.add(p.blended.egress);
    const delta = pct(cost.sub(chosenCost), chosenCost);
    const saving = cost.isZero() ? 0 : pct(chosenCost.sub(cost), cost);
    return {
      gpu: e.candidate.gpu.slug,
      precision: e.precision,
      gpusPerReplica: e.tensorParallel,
      monthlyCost: toMoney(cost, input.currency),
      deltaVsChosenPct: delta,
      summary: `${label(chosen)} instead of ${label(e)}: ${saving <= 0 ? '−' : '+'}${Math.abs(saving).toFixed(0)}%`,
    };
  });
}
