// The carbon of a finished inference plan as the cost model answers it (docs/carbon.md): its tiers
// (GPU-hours per month by offer and region), its hourly plan (for the month's output tokens), its
// GPU and its average utilization, or a utilization override (a measured one). Nothing of the
// cost model's planning is repeated here.
import type { InferenceEstimate } from '../cost-model/index.js';
import type { EnergyIndex } from './energy-index.js';
import { estimateCarbon, type EstimateCarbonOutcome } from './estimate-carbon.js';

export type FinishedPlan = Pick<InferenceEstimate, 'tiers' | 'hourlyPlan' | 'gpu' | 'hoursPerMonth' | 'periodHours'> & {
  unitEconomics: Pick<InferenceEstimate['unitEconomics'], 'averageUtilization'>;
};

/** Output tokens per month: every hour's requests/s × 3,600 s × tokens per request, the period scaled to the month. */
export function outputTokensPerMonth(plan: Pick<FinishedPlan, 'hourlyPlan' | 'hoursPerMonth' | 'periodHours'>, avgOutputTokens: number): number {
  const requestsPerPeriod = plan.hourlyPlan.reduce((s, h) => s + h.demandRequestsPerSecond * 3600, 0);
  return (requestsPerPeriod * avgOutputTokens * plan.hoursPerMonth) / plan.periodHours;
}

export function carbonOfPlan({
  plan,
  index,
  avgOutputTokens,
  countryOf,
  utilizationOverride,
}: {
  plan: FinishedPlan;
  index: EnergyIndex;
  avgOutputTokens: number;
  countryOf: (region: string) => string | null;
  /** 0..1: applied instead of the plan's average utilization (e.g. measured). */
  utilizationOverride?: number;
}): EstimateCarbonOutcome {
  return estimateCarbon({
    index,
    gpu: plan.gpu.slug,
    tiers: plan.tiers.map((t) => ({ pricingModel: t.pricingModel, provider: t.provider, region: t.region, gpuHours: t.gpuHours })),
    planUtilization: plan.unitEconomics.averageUtilization,
    utilizationOverride,
    outputTokensPerMonth: outputTokensPerMonth(plan, avgOutputTokens),
    countryOf,
  });
}
