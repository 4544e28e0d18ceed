// The words of an estimate: assumptions with the numbers used, warnings, and the offers used.
import type { PricingModel } from '../catalog/catalog.types.js';
import { formatAmount } from '../money/money.js';
import { USABLE_MEMORY_FRACTION } from '../sizing/fit.js';
import { EFFICIENCY } from './calibration.js';
import { HOURS_PER_DAY } from './demand.js';
import type { PricedEvaluation } from './estimate.js';
import type { ChosenOffer, EstimateInput, GpuCandidate } from './estimate.types.js';
import { effectivePrice } from './plan-costing.js';
import { ADVISOR_BAND_HOURS, ADVISOR_BAND_UPPER_BOUND, DEFAULT_SPOT_INTERRUPTIONS_PER_HOUR, offersInSlot, type PlanTier } from './plan-tiers.js';
import type { Evaluation, PricedPlan, RightSizingSettings } from './right-sizing.js';

const n = (x: number, digits = 2): string => (Number.isFinite(x) ? Number(x.toFixed(digits)).toString() : String(x));
const pctText = (x: number): string => `${n(x * 100, 1)}%`;
/** A price factor: 4 decimals, or 3 significant digits of a smaller excess over 1 (a band's spot overhead: ×1.00000734). */
const factorText = (x: number): string => {
  const excess = x - 1;
  return excess > 0 && excess < 1e-3 ? n(x, 2 - Math.floor(Math.log10(excess))) : n(x, 4);
};

export function describePlan({
  input,
  settings: s,
  chosen,
  priced,
  plan,
}: {
  input: EstimateInput;
  settings: RightSizingSettings;
  chosen: Evaluation;
  priced: PricedEvaluation;
  plan: PricedPlan;
}): { assumptions: string[]; warnings: string[]; chosenOffers: ChosenOffer[] } {
  const gpu = chosen.candidate.gpu.slug;
  const { memory, throughput: mu, demand, tiers } = chosen;
  const t = chosen.tensorParallel;
  const money = (tier: PlanTier): string => `${formatAmount(effectivePrice(tier))} ${input.currency}`;
  const assumptions: string[] = [];
  const warnings: string[] = [];

  assumptions.push(
    `Month = ${s.hoursPerMonth} h; the 24-hour profile is an average day, multiplied by ${n(s.hoursPerMonth / HOURS_PER_DAY)}.`,
    `${s.model.name} at ${chosen.precision} on ${t} × ${gpu}: weights ${n(memory.weightsGb, 1)} GB + runtime ` +
      `${n(memory.overheadGb, 1)} GB + KV cache ${n(memory.kvPerSequenceGb, 3)} GB per sequence of ` +
      `${s.avgInputTokens + s.avgOutputTokens} tokens, within ${t} × ${chosen.candidate.gpu.memoryGb} GB × ` +
      `${USABLE_MEMORY_FRACTION} usable (vLLM default): room for ${memory.maxBatch} sequences.`,
  );
  if (mu.bound === 'MEASURED') {
    assumptions.push(`Replica throughput ${n(mu.requestsPerSecond, 3)} requests/s as measured by the caller.`);
  } else {
    const eff = EFFICIENCY[chosen.precision];
    assumptions.push(
      `Replica throughput ${n(mu.requestsPerSecond, 3)} requests/s (${n(mu.outputTokensPerSecond, 0)} output ` +
        `tokens/s) at batch ${mu.batch}: ${n(mu.stepTimeMs ?? 0, 1)} ms per token against a ` +
        `${s.interTokenLatencyMs} ms target, ${mu.bound.toLowerCase()}-bound roofline with η_mem ${eff.etaMem} and ` +
        `η_flop ${eff.etaFlop}${mu.weightOnly ? ' (weight-only quantization: FP16 math)' : ''}.`,
    );
  }
  assumptions.push(
    `Replicas per hour = ceil(online requests/s ÷ (${n(mu.requestsPerSecond, 3)} × ${s.targetUtilization} target ` +
      `utilization)), at least ${s.minReplicas}${s.scaleToZero ? ' (zero in hours without online traffic)' : ''}; ` +
      `peak ${Math.max(...demand.onlineReplicas)} online replicas, ${tiers.onDemand?.replicasPerInstance ?? 1} per instance.`,
  );
  if (tiers.reserved) {
    const pRes = tiers.reserved.pricePerInstanceHour / tiers.reserved.replicasPerInstance;
    const alt = tiers.onDemand ? tiers.onDemand.pricePerInstanceHour / tiers.onDemand.replicasPerInstance : null;
    assumptions.push(
      `Reserved ${tiers.reserved.offer.pricingModel} at ${money(tiers.reserved)} per instance-hour: a unit is reserved ` +
        `when the hours it would be busy pay for it around the clock` +
        (alt ? ` (against on-demand: busy at least ${pctText(pRes / alt)} of hours)` : '') +
        `; ${plan.plan.reservedInstances} instance(s) reserved.`,
    );
  }
  const byTolerance =
    s.tolerance === 'RECOVERABLE'
      ? `${pctText(s.recoverableSpotShare)} spot, ${pctText(1 - s.recoverableSpotShare)} on-demand fallback`
      : s.tolerance === 'TOLERANT'
        ? 'spot'
        : 'on-demand';
  if (plan.plan.burst === 'ON_DEMAND') {
    assumptions.push(`${s.tolerance} burst above the reservation runs on on-demand: cheaper here than ${byTolerance}.`);
  } else if (s.tolerance === 'RECOVERABLE') {
    assumptions.push(`RECOVERABLE burst above the reservation: ${byTolerance}.`);
  } else {
    assumptions.push(`${s.tolerance} burst above the reservation runs on ${byTolerance}.`);
  }
  if (tiers.spot) {
    const rate = tiers.spot.interruptionsPerHour ?? 0;
    assumptions.push(
      `Spot effective price = list × (1 + ${Number(rate.toPrecision(3))} interruptions/h × (${n(chosen.modelLoadSeconds / 60, 1)} ` +
        `min model load + ${s.lostWorkMinutes} min lost work)) = ×${factorText(tiers.spot.overhead)}: ${money(tiers.spot)} per instance-hour` +
        (tiers.spot.offer.interruptionNoticeSeconds ? `; ${tiers.spot.offer.interruptionNoticeSeconds} s notice` : '') +
        `. Interruption rate: ${interruptionRateText(tiers.spot)}.`,
    );
  }
  if (demand.batchRequestsPerDay > 0) {
    const spill = plan.plan.batchSpillTier;
    assumptions.push(
      `${pctText(s.batchShare)} of requests (${n(demand.batchRequestsPerDay, 0)}/day) are deferrable batch work: ` +
        `${n(demand.batchReplicaHoursPerDay, 2)} replica-hours/day at full speed, placed first in idle paid capacity` +
        (spill && spill !== 'RESERVED_IDLE' ? `, the rest on ${spill.toLowerCase().replace('_', '-')} in the lowest-demand hours.` : '.'),
    );
  }
  if (s.scaleToZero && plan.plan.scaleToZero) {
    assumptions.push(`Each start from zero pays ${n(chosen.modelLoadSeconds / 60, 1)} min of model loading.`);
  } else if (s.scaleToZero) {
    assumptions.push(
      `Scaling to zero is allowed, but keeping ${Math.max(1, s.minReplicas)} replica(s) warm in hours without traffic ` +
        `costs less than ${n(chosen.modelLoadSeconds / 60, 1)} min of model loading after each of them.`,
    );
  }
  if (egressUnpriced({ input, settings: s, candidate: chosen.candidate })) {
    const who = chosen.candidate.egressProvider ?? 'the chosen provider';
    warnings.push(
      `egress of ${s.egressGbPerMonth} GB/month is not priced: ${who} has no known internet egress price in this catalog, ` +
        `so it counts as 0 (hiddenCosts.egressPriceKnown = false)`,
    );
  } else if (s.egressGbPerMonth > 0) {
    assumptions.push(`Egress ${s.egressGbPerMonth} GB/month at ${formatAmount(priced.egress.div(s.egressGbPerMonth))} ${input.currency}/GB.`);
  }

  const allowsSpot = s.tolerance !== 'INTOLERANT';
  const spotOffered = offersInSlot(chosen.candidate.offers, 'SPOT').length > 0;
  if (allowsSpot && !spotOffered) {
    warnings.push(`no compliant spot offer for ${gpu}: ${demand.batchRequestsPerDay > 0 ? 'batch' : 'burst'} runs on-demand`);
  }
  if (!allowsSpot && spotOffered) {
    warnings.push(`INTOLERANT workload: the spot offer for ${gpu} is not used`);
  }
  if (!tiers.onDemand) {
    warnings.push(`no on-demand offer for ${gpu}: baselines are priced at ${chosen.baselineTier.offer.pricingModel}`);
  }
  if (!mu.meetsLatencyTarget) {
    warnings.push(
      `${gpu} at ${chosen.precision} cannot meet ${s.interTokenLatencyMs} ms per token even at batch 1 ` +
        `(${n(mu.stepTimeMs ?? 0, 1)} ms): no allowed GPU can`,
    );
  }
  if (s.model.shapeAssumed) {
    warnings.push(
      `shape of the custom model assumed (${s.model.layers} layers, ${s.model.kvHeads} KV heads of ${s.model.headDim}): ` +
        `pass layers/kvHeads/headDim for an exact KV cache`,
    );
  }
  const hours = plan.plan.instanceHours;
  const usedOffers = [
    hours.reserved > 0 ? plan.tiers.reserved?.offer : undefined,
    hours.onDemand > 0 ? plan.tiers.onDemand?.offer : undefined,
    hours.spot > 0 ? plan.tiers.spot?.offer : undefined,
    plan.plan.serverlessReplicaHours > 0 ? plan.tiers.serverless?.offer : undefined,
  ].filter((o) => o !== undefined);
  const baselineOffer = chosen.baselineTier.offer;
  const otherTiers = [tiers.reserved, tiers.onDemand, tiers.spot, tiers.serverless].some((t) => t && t.offer !== baselineOffer);
  if (otherTiers && usedOffers.every((o) => o === baselineOffer)) {
    warnings.push(`no blend beat on-demand autoscaling for ${gpu}: the plan is pure ${chosen.baselineTier.offer.pricingModel}`);
  }

  const used = new Map<PricingModel, PlanTier>();
  if (plan.tiers.reserved && hours.reserved > 0) used.set(plan.tiers.reserved.offer.pricingModel, plan.tiers.reserved);
  if (plan.tiers.onDemand && hours.onDemand > 0) used.set(plan.tiers.onDemand.offer.pricingModel, plan.tiers.onDemand);
  if (plan.tiers.spot && hours.spot > 0) used.set(plan.tiers.spot.offer.pricingModel, plan.tiers.spot);
  const chosenOffers: ChosenOffer[] = [...used.values()].map((tier) => ({
    pricingModel: tier.offer.pricingModel,
    ref: tier.offer.ref,
    gpusPerInstance: tier.offer.gpusPerInstance,
    replicasPerInstance: tier.replicasPerInstance,
    pricePerInstanceHour: { amount: tier.offer.pricePerInstanceHour, currency: input.currency },
    effectivePricePerInstanceHour: { amount: effectivePrice(tier), currency: input.currency },
    interruptionsPerHour: tier.interruptionsPerHour,
    interruptionBasis: tier.interruptionBasis,
  }));
  if (plan.tiers.serverless && plan.plan.serverlessReplicaHours > 0) {
    const offer = plan.tiers.serverless.offer;
    chosenOffers.push({
      pricingModel: offer.pricingModel,
      ref: offer.ref,
      gpusPerInstance: offer.gpusPerInstance,
      replicasPerInstance: Math.max(1, Math.floor(offer.gpusPerInstance / t)),
      pricePerInstanceHour: { amount: offer.pricePerInstanceHour, currency: input.currency },
      effectivePricePerInstanceHour: { amount: offer.pricePerInstanceHour, currency: input.currency },
      interruptionsPerHour: null,
      interruptionBasis: null,
    });
  }
  return { assumptions, warnings, chosenOffers };
}

/** Where a spot tier's interruption rate came from, in words (docs/cost-model.md#spot-interruption-overhead). */
function interruptionRateText(tier: PlanTier): string {
  const band = tier.offer.interruptionRate ?? null;
  switch (tier.interruptionBasis) {
    case 'REQUEST':
      return `as requested (spotInterruptionsPerHour)${band ? `; the offer's Spot Instance Advisor band ${band} is not used` : ''}`;
    case 'ADVISOR_BAND': {
      const p = band ? ADVISOR_BAND_UPPER_BOUND[band] : null;
      return (
        `from the AWS Spot Instance Advisor band ${band ?? '?'} of the offer: −ln(1 − ${p ?? '?'}) / ${ADVISOR_BAND_HOURS} h, reading the band's ` +
        `upper bound as the chance that an instance running a whole month is interrupted at least once (an assumption)`
      );
    }
    case 'DEFAULT':
    case null:
      return band
        ? `the default ${DEFAULT_SPOT_INTERRUPTIONS_PER_HOUR}/h: the offer's Spot Instance Advisor band ${band} has no upper bound`
        : `the default ${DEFAULT_SPOT_INTERRUPTIONS_PER_HOUR}/h (an assumption: the offer has no Spot Instance Advisor band)`;
  }
}

/** True when egress is asked for but neither the provider nor the input prices it (counted as 0). */
export function egressUnpriced({ input, settings, candidate }: { input: EstimateInput; settings: RightSizingSettings; candidate: GpuCandidate }): boolean {
  return settings.egressGbPerMonth > 0 && candidate.egressPricePerGb == null && input.egressPricePerGb === undefined;
}
