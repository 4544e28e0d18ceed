// One sentence for each choice of a plan a reader may find surprising, saying why it is the
// cheapest per token: a GPU far larger than the model needs, a plan nearly all spot, a plan mostly
// serverless. Written from the figures of the answer, so the sentence and the numbers agree.
import { PRICING_MODEL_TRAITS } from '../catalog/pricing-model-traits.js';
import { formatAmount, type Decimal } from '../money/money.js';
import type { InferenceEstimate } from './estimate.types.js';
import { offersInSlot } from './plan-tiers.js';
import type { Evaluation } from './right-sizing.js';

/** A plan at least this share spot, or serverless, is explained. */
export const MOSTLY = 0.8;
/** A GPU with at least this many times the memory of the smallest GPU that fits is explained. */
export const LARGE_GPU_FACTOR = 2;

const pct = (x: number): string => `${Number((x * 100).toFixed(0))}%`;
const money = (d: Decimal, currency: string): string => `${formatAmount(d)} ${currency}`;

export function explainPlan({
  estimate,
  chosen,
  evaluations,
  alternativeCostPer1MOutputTokens,
}: {
  estimate: InferenceEstimate;
  chosen: Evaluation;
  /** Every planned GPU × precision option (the chosen one included). */
  evaluations: readonly Evaluation[];
  /** The cost per 1M output tokens of a planned option, priced as the chosen one is. */
  alternativeCostPer1MOutputTokens: (e: Evaluation) => Decimal | null;
}): string[] {
  const out: string[] = [];
  const { currency } = estimate;
  const perToken = estimate.unitEconomics.costPer1MOutputTokens;
  const replicaMemory = (e: Evaluation): number => e.candidate.gpu.memoryGb * e.tensorParallel;
  const chosenMemory = replicaMemory(chosen);
  const smaller = evaluations
    .filter((e) => replicaMemory(e) * LARGE_GPU_FACTOR <= chosenMemory)
    .map((e) => ({ e, cost: alternativeCostPer1MOutputTokens(e) }))
    .filter((x): x is { e: Evaluation; cost: Decimal } => x.cost !== null)
    .sort((a, b) => a.cost.cmp(b.cost))[0];
  if (smaller && perToken) {
    const name = (e: { tensorParallel: number; candidate: { gpu: { slug: string } } }): string =>
      e.tensorParallel > 1 ? `${e.tensorParallel} × ${e.candidate.gpu.slug}` : e.candidate.gpu.slug;
    out.push(
      `${name(chosen)} (${chosenMemory} GB per replica) is chosen although ${name(smaller.e)} (${replicaMemory(smaller.e)} GB) fits ` +
        `${estimate.model.name}: one replica serves ${Math.round(estimate.replicaThroughput.outputTokensPerSecond)} output tokens/s at batch ` +
        `${estimate.replicaThroughput.batch}, ${money(perToken.amount, currency)} per 1M output tokens against ${money(smaller.cost, currency)} ` +
        `on the best plan of ${name(smaller.e)}.`,
    );
  }
  const spot = estimate.tiers.filter((t) => PRICING_MODEL_TRAITS[t.pricingModel].interruptible).reduce((s, t) => s + t.capacityShare, 0);
  if (spot >= MOSTLY) {
    const spotOffer = estimate.chosenOffers.find((o) => PRICING_MODEL_TRAITS[o.pricingModel].interruptible);
    const onDemand = offersInSlot(chosen.candidate.offers, 'ON_DEMAND')
      .filter((o) => o.gpusPerInstance >= chosen.tensorParallel)
      .sort((a, b) => a.pricePerInstanceHour.div(a.gpusPerInstance).cmp(b.pricePerInstanceHour.div(b.gpusPerInstance)))[0];
    const spotPerGpu = spotOffer ? spotOffer.effectivePricePerInstanceHour.amount.div(spotOffer.gpusPerInstance) : null;
    const odPerGpu = onDemand ? onDemand.pricePerInstanceHour.div(onDemand.gpusPerInstance) : null;
    const versus =
      spotPerGpu && odPerGpu && odPerGpu.gt(0)
        ? `: spot at ${money(spotPerGpu, currency)} per GPU-hour with its interruption overhead is ${pct(1 - spotPerGpu.div(odPerGpu).toNumber())} below on-demand (${money(odPerGpu, currency)})`
        : ': no on-demand offer is cheaper';
    const batch = estimate.hourlyPlan.reduce((sum, r) => sum + r.batchReplicaHours, 0) > 0 ? ', its batch work can wait,' : '';
    out.push(
      `${pct(spot)} of the GPU-hours are spot because the workload tolerates interruptions${batch} and spot is the cheapest capacity per token${versus}.`,
    );
  }
  const serverless = estimate.tiers.filter((t) => PRICING_MODEL_TRAITS[t.pricingModel].billedByBusyTime).reduce((s, t) => s + t.capacityShare, 0);
  if (serverless >= MOSTLY) {
    const breakEven = estimate.serverless?.breakEvenUtilization ?? null;
    const utilization = dedicatedUtilization(chosen);
    out.push(
      breakEven !== null && utilization !== null && utilization < breakEven
        ? `${pct(serverless)} of the GPU-hours are serverless because it bills busy time only: without it, the dedicated replicas would be busy ` +
            `${pct(utilization)} of the hours they are paid for, below the ${pct(breakEven)} at which a dedicated replica costs what serverless does.`
        : `${pct(serverless)} of the GPU-hours are serverless because it bills busy time only, and no mix of dedicated capacity serves these hours for less.`,
    );
  }
  return out;
}

/** Busy replica-hours over paid ones in the best plan without serverless; null without one. */
function dedicatedUtilization(chosen: Evaluation): number | null {
  const plan = chosen.dedicatedOnly;
  if (!plan) return null;
  const per = (t: { replicasPerInstance: number } | null): number => t?.replicasPerInstance ?? 0;
  const paid = plan.plan.hours.reduce(
    (sum, h) => sum + h.reservedInstances * per(plan.tiers.reserved) + h.onDemandInstances * per(plan.tiers.onDemand) + h.spotInstances * per(plan.tiers.spot),
    0,
  );
  return paid > 0 ? Math.min(1, chosen.demand.busyReplicaHoursPerPeriod / paid) : null;
}
