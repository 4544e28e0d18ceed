// The estimate's energy and carbon (docs/carbon.md): the finished plan's figures from the version's
// energy data (src/domain/energy), and the plan the other objective would choose within the same
// policy (the lowest-carbon plan when optimizing for cost, the cheapest when optimizing for carbon),
// with its cost and carbon difference.
import type { CatalogIndex } from '../../domain/compliance/index.js';
import type { InferenceEstimate } from '../../domain/cost-model/index.js';
import { carbonOfPlan, type EstimateCarbon } from '../../domain/energy/index.js';
import type { Money } from '../../domain/money/money.js';

export type OptimizeFor = 'COST' | 'CARBON';
export const OPTIMIZE_FOR = ['COST', 'CARBON'] as const;

export interface OtherPlan {
  optimizedFor: OptimizeFor;
  gpu: string;
  precision: string;
  regions: string[];
  monthlyCost: Money;
  kgCo2ePerMonth: number | null;
  /** The other plan's monthly cost minus this one's. */
  costDifference: Money;
  /** The other plan's kg CO2e per month minus this one's; null when either is unknown. */
  kgCo2eDifference: number | null;
}

export interface EstimateCarbonAnswer {
  optimizedFor: OptimizeFor;
  /** Null when a figure is missing (unknownReason says which). */
  figures: EstimateCarbon | null;
  unknownReason: string | null;
  /** The plan the other objective chooses; null when it is this plan or could not be planned. */
  otherPlan: OtherPlan | null;
}

export function carbonAnswer({
  estimate,
  other,
  index,
  avgOutputTokens,
  optimizeFor,
  utilizationOverride,
}: {
  estimate: InferenceEstimate;
  other: InferenceEstimate | null;
  index: CatalogIndex;
  avgOutputTokens: number;
  optimizeFor: OptimizeFor;
  utilizationOverride?: number;
}): EstimateCarbonAnswer {
  const countryOf = (code: string): string | null => {
    const r = index.regionByCode.get(code);
    return r === undefined ? null : (index.regions[r]?.country ?? null);
  };
  const of = (plan: InferenceEstimate) => carbonOfPlan({ plan, index: index.energy, avgOutputTokens, countryOf, utilizationOverride });
  const mine = of(estimate);
  const figures = mine.kind === 'OK' ? mine.carbon : null;
  return {
    optimizedFor: optimizeFor,
    figures,
    unknownReason: mine.kind === 'OK' ? null : mine.reason,
    otherPlan: other && !samePlan(estimate, other) ? otherPlanOf({ estimate, other, figures, theirs: of(other), optimizeFor }) : null,
  };
}

const planKey = (e: InferenceEstimate): string => JSON.stringify([e.gpu.slug, e.precision, e.tiers.map((t) => [t.offerRef, Math.round(t.gpuHours)])]);
const samePlan = (a: InferenceEstimate, b: InferenceEstimate): boolean => planKey(a) === planKey(b);

function otherPlanOf({
  estimate,
  other,
  figures,
  theirs,
  optimizeFor,
}: {
  estimate: InferenceEstimate;
  other: InferenceEstimate;
  figures: EstimateCarbon | null;
  theirs: ReturnType<typeof carbonOfPlan>;
  optimizeFor: OptimizeFor;
}): OtherPlan {
  const kg = theirs.kind === 'OK' ? theirs.carbon.kgCo2ePerMonth : null;
  return {
    optimizedFor: optimizeFor === 'COST' ? 'CARBON' : 'COST',
    gpu: other.gpu.slug,
    precision: other.precision,
    regions: [...new Set(other.tiers.map((t) => t.region))],
    monthlyCost: other.monthlyCost,
    kgCo2ePerMonth: kg,
    costDifference: { amount: other.monthlyCost.amount.sub(estimate.monthlyCost.amount), currency: other.monthlyCost.currency },
    kgCo2eDifference: kg === null || figures === null ? null : kg - figures.kgCo2ePerMonth,
  };
}
