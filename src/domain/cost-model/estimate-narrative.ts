// The words of an estimate: assumptions with the numbers used, warnings, and the offers used. Every
// sentence is written from the plan that was chosen (its tiers, their shares, its providers), never
// from the request's defaults, so the words cannot contradict the figures beside them.
import type { PricingModel } from '../catalog/catalog.types.js';
import { formatAmount } from '../money/money.js';
import { USABLE_MEMORY_FRACTION } from '../sizing/fit.js';
import { EFFICIENCY } from './calibration.js';
import { HOURS_PER_DAY } from './demand.js';
import type { PricedEvaluation } from './estimate.js';
import type { ChosenOffer, EstimateInput } from './estimate.types.js';
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
const periodName = (hours: number): string => (hours === HOURS_PER_DAY ? 'day' : 'week');

interface Context {
  input: EstimateInput;
  s: RightSizingSettings;
  chosen: Evaluation;
  priced: PricedEvaluation;
  plan: PricedPlan;
}

export function describePlan(ctx: Context): { assumptions: string[]; warnings: string[]; chosenOffers: ChosenOffer[] } {
  return {
    assumptions: [...sizingAssumptions(ctx), ...mixAssumptions(ctx), ...egressAssumptions(ctx)],
    warnings: planWarnings(ctx),
    chosenOffers: chosenOffersOf(ctx),
  };
}

/** The period, the memory fit, the replica's throughput and how many replicas each hour needs. */
function sizingAssumptions({ s, chosen }: Context): string[] {
  const gpu = chosen.candidate.gpu.slug;
  const { memory, throughput: mu, demand, tiers } = chosen;
  const t = chosen.tensorParallel;
  const periodHours = demand.onlineReplicas.length;
  const out = [
    `Month = ${s.hoursPerMonth} h; the ${periodHours}-hour profile is an average ${periodName(periodHours)}, multiplied by ${n(s.hoursPerMonth / periodHours)}.`,
    `${s.model.name} at ${chosen.precision} on ${t} × ${gpu}: weights ${n(memory.weightsGb, 1)} GB + runtime ` +
      `${n(memory.overheadGb, 1)} GB + KV cache ${n(memory.kvPerSequenceGb, 3)} GB per sequence of ` +
      `${s.avgInputTokens + s.avgOutputTokens} tokens, within ${t} × ${chosen.candidate.gpu.memoryGb} GB × ` +
      `${USABLE_MEMORY_FRACTION} usable (vLLM default): room for ${memory.maxBatch} sequences.`,
  ];
  if (mu.bound === 'MEASURED') {
    out.push(`Replica throughput ${n(mu.requestsPerSecond, 3)} requests/s as measured by the caller.`);
  } else {
    const eff = EFFICIENCY[chosen.precision];
    out.push(
      `Replica throughput ${n(mu.requestsPerSecond, 3)} requests/s (${n(mu.outputTokensPerSecond, 0)} output ` +
        `tokens/s) at batch ${mu.batch}: ${n(mu.stepTimeMs ?? 0, 1)} ms per token against a ` +
        `${s.interTokenLatencyMs} ms target, ${mu.bound.toLowerCase()}-bound roofline with η_mem ${eff.etaMem} and ` +
        `η_flop ${eff.etaFlop}${mu.weightOnly ? ' (weight-only quantization: FP16 math)' : ''}.`,
    );
  }
  const perInstance = (tiers.onDemand ?? tiers.reserved ?? tiers.spot)?.replicasPerInstance ?? 1;
  out.push(
    `Replicas per hour = ceil(online requests/s ÷ (${n(mu.requestsPerSecond, 3)} × ${s.targetUtilization} target ` +
      `utilization)), at least ${s.minReplicas}${s.scaleToZero ? ' (zero in hours without online traffic)' : ''}; ` +
      `peak ${Math.max(...demand.onlineReplicas)} online replicas, ${perInstance} per instance.`,
  );
  return out;
}

/** What the chosen plan buys, tier by tier, and the rules that made it so. */
function mixAssumptions(ctx: Context): string[] {
  const { input, s, chosen, priced, plan } = ctx;
  const money = (tier: PlanTier): string => `${formatAmount(effectivePrice(tier))} ${input.currency}`;
  const out: string[] = [];
  const mix = priced.blended.tiers.map((t) => `${pctText(t.capacityShare)} ${t.pricingModel} (${t.provider}, ${t.region})`);
  out.push(`The plan buys its GPU-hours as ${mix.length ? mix.join(', ') : 'nothing'}.`);
  const { tiers } = plan;
  if (tiers.reserved && plan.plan.reservedInstances > 0) {
    const pRes = tiers.reserved.pricePerInstanceHour / tiers.reserved.replicasPerInstance;
    const alt = tiers.onDemand ? tiers.onDemand.pricePerInstanceHour / tiers.onDemand.replicasPerInstance : null;
    out.push(
      `Reserved ${tiers.reserved.offer.pricingModel} at ${money(tiers.reserved)} per instance-hour: a unit is reserved ` +
        `when the hours it would be busy pay for it around the clock` +
        (alt ? ` (against on-demand: busy at least ${pctText(pRes / alt)} of hours)` : '') +
        `; ${plan.plan.reservedInstances} instance(s) reserved.`,
    );
  }
  out.push(burstAssumption(ctx));
  if (tiers.spot && plan.plan.instanceHours.spot > 0) {
    const rate = tiers.spot.interruptionsPerHour ?? 0;
    out.push(
      `Spot effective price = list × (1 + ${Number(rate.toPrecision(3))} interruptions/h × (${n(chosen.modelLoadSeconds / 60, 1)} ` +
        `min model load + ${s.lostWorkMinutes} min lost work)) = ×${factorText(tiers.spot.overhead)}: ${money(tiers.spot)} per instance-hour` +
        (tiers.spot.offer.interruptionNoticeSeconds ? `; ${tiers.spot.offer.interruptionNoticeSeconds} s notice` : '') +
        `. Interruption rate: ${interruptionRateText(tiers.spot)}.`,
    );
  }
  const { demand } = chosen;
  if (demand.batchRequestsPerPeriod > 0) {
    const spill = plan.plan.batchSpillTier;
    const per = periodName(demand.onlineReplicas.length);
    out.push(
      `${pctText(s.batchShare)} of requests (${n(demand.batchRequestsPerPeriod, 0)}/${per}) are deferrable batch work: ` +
        `${n(demand.batchReplicaHoursPerPeriod, 2)} replica-hours/${per} at full speed, placed first in idle paid capacity` +
        (spill && spill !== 'RESERVED_IDLE' ? `, the rest on ${spill.toLowerCase().replace('_', '-')} in the lowest-demand hours.` : '.'),
    );
  }
  if (s.scaleToZero && plan.plan.scaleToZero) {
    out.push(`Each start from zero pays ${n(chosen.modelLoadSeconds / 60, 1)} min of model loading.`);
  } else if (s.scaleToZero) {
    out.push(
      `Scaling to zero is allowed, but keeping ${Math.max(1, s.minReplicas)} replica(s) warm in hours without traffic ` +
        `costs less than ${n(chosen.modelLoadSeconds / 60, 1)} min of model loading after each of them.`,
    );
  }
  return out;
}

/**
 * How the online burst above the reservation was bought, with what the plan actually did: the
 * tolerance's rule, and the hours in which spot, on-demand and serverless served it.
 */
function burstAssumption({ s, plan }: Context): string {
  const hours = plan.plan.hours;
  const reservedReplicas = plan.plan.reservedInstances * (plan.tiers.reserved?.replicasPerInstance ?? 0);
  let burstHours = 0;
  let spotHours = 0;
  let serverlessHours = 0;
  for (const row of hours) {
    if (row.onlineReplicas - reservedReplicas <= 0) continue;
    burstHours += 1;
    if (row.spotInstances - row.batchSpotInstances > 0) spotHours += 1;
    if (row.serverlessReplicaHours - row.batchServerlessReplicaHours > 0) serverlessHours += 1;
  }
  const observed =
    burstHours === 0
      ? 'no hour needs more than the reservation'
      : `${burstHours} of ${hours.length} hours need more than the reservation; spot serves online traffic in ${spotHours} of them, serverless in ${serverlessHours}`;
  if (plan.plan.burst === 'ON_DEMAND')
    return `${s.tolerance} burst above the reservation runs on on-demand, cheaper here than the tolerance's spot share (${observed}).`;
  switch (s.tolerance) {
    case 'RECOVERABLE':
      return (
        `RECOVERABLE burst above the reservation: at most ${pctText(s.recoverableSpotShare)} of its replicas on spot, ` +
        `the rest on on-demand fallback or serverless, never interrupted (${observed}).`
      );
    case 'TOLERANT':
      return `TOLERANT burst above the reservation runs on spot where a spot offer holds a replica (${observed}).`;
    case 'INTOLERANT':
      return `INTOLERANT burst above the reservation runs on on-demand or serverless, never on spot (${observed}).`;
  }
}

/** Egress per tier, at each tier's own provider's price. */
function egressAssumptions({ input, s, priced, chosen }: Context): string[] {
  if (s.egressGbPerMonth <= 0) return [];
  const left = chosen.leftOutForEgress.map(
    (o) => `${o.pricingModel} (${o.provider}, egress ${o.egressPricePerGb ? `${formatAmount(o.egressPricePerGb)} ${input.currency}/GB` : 'price unknown'})`,
  );
  const leftOut = left.length
    ? [`Left out for egress: ${left.join(', ')}: at ${s.egressGbPerMonth} GB/month they would add more in egress than they save in GPU capacity.`]
    : [];
  const parts = priced.blended.tiers
    .filter((t) => t.egressGb > 0)
    .map(
      (t) =>
        `${n(t.egressGb, 1)} GB on ${t.pricingModel} (${t.provider}) at ` +
        (t.egressPricePerGb
          ? `${formatAmount(t.egressPricePerGb.amount)} ${input.currency}/GB${priced.blended.egressUnpricedProviders.includes(t.provider) ? ' (the fallback)' : ''}`
          : 'an unknown price, counted as 0'),
    );
  return [`Egress ${s.egressGbPerMonth} GB/month, split over the tiers by their share of GPU-hours: ${parts.join('; ')}.`, ...leftOut];
}

function planWarnings({ input, s, chosen, priced }: Context): string[] {
  const gpu = chosen.candidate.gpu.slug;
  const { throughput: mu, demand, tiers } = chosen;
  const t = chosen.tensorParallel;
  const warnings: string[] = [];
  const fallback = s.egressPricePerGb;
  for (const provider of priced.blended.egressUnpricedProviders) {
    const gb = priced.blended.tiers.filter((x) => x.provider === provider).reduce((sum, x) => sum + x.egressGb, 0);
    warnings.push(
      `egress of ${n(gb, 1)} GB/month on ${provider} is not priced: ${provider} has no known internet egress price in this catalog, ` +
        (fallback
          ? `so it is priced at the fallback ${formatAmount(fallback)} ${input.currency}/GB (hiddenCosts.egressFallbackPricePerGb; egressPricePerGb sets it)`
          : `so it counts as 0 (hiddenCosts.egressPriceKnown = false)`),
    );
  }
  const allowsSpot = s.tolerance !== 'INTOLERANT';
  const spotOffers = offersInSlot(chosen.candidate.offers, 'SPOT');
  if (allowsSpot && !tiers.spot) {
    const work = demand.batchRequestsPerPeriod > 0 ? 'batch' : 'burst';
    warnings.push(
      spotOffers.length === 0
        ? `no compliant spot offer for ${gpu}: ${work} runs on-demand`
        : `no compliant spot offer of ${gpu} holds a ${t}-GPU replica: ${work} runs on-demand`,
    );
  }
  if (!allowsSpot && spotOffers.length > 0) warnings.push(`INTOLERANT workload: the spot offers for ${gpu} are not used`);
  if (!tiers.onDemand) {
    warnings.push(`no compliant on-demand offer of ${gpu} holds a ${t}-GPU replica: the on-demand baselines are not priced`);
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
  const baselineOffer = chosen.baselineTier?.offer;
  const used = priced.blended.tiers;
  if (baselineOffer && used.length > 0 && used.every((x) => x.offerRef === baselineOffer.ref) && chosen.candidate.offers.length > 1) {
    warnings.push(`no blend beat on-demand autoscaling for ${gpu}: the plan is pure ${baselineOffer.pricingModel}`);
  }
  return warnings;
}

/** The offers of the tiers the plan uses, with their effective prices. */
function chosenOffersOf({ input, plan, chosen }: Context): ChosenOffer[] {
  const t = chosen.tensorParallel;
  const hours = plan.plan.instanceHours;
  const used = new Map<PricingModel, PlanTier>();
  if (plan.tiers.reserved && hours.reserved > 0) used.set(plan.tiers.reserved.offer.pricingModel, plan.tiers.reserved);
  if (plan.tiers.onDemand && hours.onDemand > 0) used.set(plan.tiers.onDemand.offer.pricingModel, plan.tiers.onDemand);
  if (plan.tiers.spot && hours.spot > 0) used.set(plan.tiers.spot.offer.pricingModel, plan.tiers.spot);
  const offers: ChosenOffer[] = [...used.values()].map((tier) => ({
    pricingModel: tier.offer.pricingModel,
    ref: tier.offer.ref,
    provider: tier.offer.provider,
    region: tier.offer.region,
    gpusPerInstance: tier.offer.gpusPerInstance,
    replicasPerInstance: tier.replicasPerInstance,
    pricePerInstanceHour: { amount: tier.offer.pricePerInstanceHour, currency: input.currency },
    effectivePricePerInstanceHour: { amount: effectivePrice(tier), currency: input.currency },
    interruptionsPerHour: tier.interruptionsPerHour,
    interruptionBasis: tier.interruptionBasis,
  }));
  if (plan.tiers.serverless && plan.plan.serverlessReplicaHours > 0) {
    const offer = plan.tiers.serverless.offer;
    offers.push({
      pricingModel: offer.pricingModel,
      ref: offer.ref,
      provider: offer.provider,
      region: offer.region,
      gpusPerInstance: offer.gpusPerInstance,
      replicasPerInstance: Math.max(1, Math.floor(offer.gpusPerInstance / t)),
      pricePerInstanceHour: { amount: offer.pricePerInstanceHour, currency: input.currency },
      effectivePricePerInstanceHour: { amount: offer.pricePerInstanceHour, currency: input.currency },
      interruptionsPerHour: null,
      interruptionBasis: null,
    });
  }
  return offers;
}

/** Where a spot tier's interruption rate came from, in words (docs/cost-model.md#spot-interruption-overhead). */
function interruptionRateText(tier: PlanTier): string {
  const band = tier.offer.interruptionRate ?? null;
  switch (tier.interruptionBasis) {
    case 'REQUEST':
      return `as requested (spotInterruptionsPerHour)${band ? `; the offer's Spot Instance Advisor band ${band} is not used` : ''}`;
    case 'MARKET':
      return `the marketplace offer's own rate, ${tier.offer.marketInterruptionsPerHour ?? '?'}/h (its market figures say how it was derived)`;
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
