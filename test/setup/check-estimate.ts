// The invariants every estimate answer must keep, checked against the answer as the API sends it
// (amounts as decimal strings, ratios rounded for the wire), the request and the catalog version it
// names. Shared by the tests: a scenario matrix over REST and GraphQL (test/estimate-invariants.e2e-spec.ts)
// and a property over synthetic catalogs (src/modules/estimates/estimate-invariants.spec.ts).
// Each rule is stated from the answer's own figures and the catalog, never from the code that
// computed them (docs/cost-model.md#invariants): nothing here comes from src/domain/cost-model, so a
// fault there cannot hide by being imported into its own check.
import { Decimal } from '../../src/domain/money/money.js';
import type { CatalogContent, Currency, Offer } from '../../src/domain/catalog/catalog.types.js';
import { PRICING_MODEL_TRAITS } from '../../src/domain/catalog/pricing-model-traits.js';
import { indexCatalog, type CatalogIndex } from '../../src/domain/compliance/catalog-index.js';
import { filterOffers } from '../../src/domain/compliance/filter-offers.js';
import type { CompliancePolicy, InterruptionTolerance } from '../../src/domain/compliance/policy.js';
import { resolveRequirement } from '../../src/domain/compliance/requirement.js';

/** The parts of an answer (EstimateModel as JSON) the checker reads. */
export interface WireMoney {
  amount: string;
  currency: string;
}
export interface WireEstimate {
  monthlyCost: WireMoney;
  gpuCost: WireMoney;
  gpu: string;
  gpusPerReplica: number;
  periodHours: number;
  tiers: {
    pricingModel: string;
    offerId: string;
    provider: string;
    region: string;
    cost: WireMoney;
    capacityShare: number;
    egressGb: number;
    egressPricePerGb: WireMoney | null;
    egress: WireMoney;
  }[];
  hourlyPlan: WireHour[];
  chosenOffers: { pricingModel: string; offerId: string; provider: string; replicasPerInstance: number; gpusPerInstance: number }[];
  reservedInstances: number;
  baselines: {
    naive: { monthlyCost: WireMoney; pricingModel: string; offerId: string } | null;
    onDemandAutoscaled: { monthlyCost: WireMoney; pricingModel: string; offerId: string } | null;
    unavailableReason: string | null;
  };
  savingsVsNaivePct: number | null;
  savingsVsOnDemandAutoscaledPct: number | null;
  replicaThroughput: { requestsPerSecond: number };
  hiddenCosts: { egress: WireMoney; egressPriceKnown: boolean; egressUnpricedProviders: string[]; egressFallbackPricePerGb: WireMoney | null };
  assumptions: string[];
  warnings: string[];
  exchangeRate: { base: string; currency: string; rate: string; date: string } | null;
}

/** One row of hourlyPlan (EstimateHour on the wire), ratios rounded. */
export interface WireHour {
  hour: number;
  demandRequestsPerSecond: number;
  onlineRequestsPerSecond: number;
  replicasNeeded: number;
  reservedInstances: number;
  onDemandInstances: number;
  spotInstances: number;
  serverlessReplicaHours: number;
  batchReplicaHours: number;
  batchOnDemandInstances: number;
  batchSpotInstances: number;
  batchServerlessReplicaHours: number;
}

/** What was asked, resolved as the service resolves it. */
export interface EstimateCheckRequest {
  profile: readonly number[];
  batchShare: number;
  targetUtilization: number;
  tolerance: InterruptionTolerance;
  recoverableSpotShare: number;
  egressGbPerMonth: number;
  /** The request's egressPricePerGb (its currency), for providers with no known price; null when not given (the catalog's dearest applies). */
  fallbackEgressPricePerGb: string | null;
  currency: Currency;
  /** The resolved policy, its referenceDate the answer's. */
  policy: CompliancePolicy;
}

const CENT = new Decimal('0.01');
const near = (a: number, b: number, relative = 1e-3, absolute = 1e-3): boolean =>
  Math.abs(a - b) <= Math.max(absolute, relative * Math.max(Math.abs(a), Math.abs(b)));
const dec = (m: WireMoney): Decimal => new Decimal(m.amount);

/** Every rule the answer breaks, in words; empty when it keeps them all. */
export function checkEstimate({
  request,
  answer: e,
  catalog,
  twin = null,
}: {
  request: EstimateCheckRequest;
  answer: WireEstimate;
  catalog: CatalogContent | CatalogIndex;
  /** The same request answered in the other currency, to check the conversion. */
  twin?: WireEstimate | null;
}): string[] {
  const index = 'pricesIn' in catalog ? catalog : indexCatalog(catalog);
  const out: string[] = [];
  const offerOf = (id: string): Offer | undefined => {
    const i = index.offerByKeyHash.get(id);
    return i === undefined ? undefined : index.offers[i];
  };
  totals(e, out);
  capacity(e, request, out);
  tolerance(e, request, out);
  providers(e, request, index, offerOf, out);
  baselines(e, request, index, offerOf, out);
  warnings(e, request, index, offerOf, out);
  mix(e, out);
  if (twin) conversion(e, twin, out);
  return out;
}

/** Tiers sum to the GPU cost; GPU cost and egress to the month; tiers' egress to the egress. */
function totals(e: WireEstimate, out: string[]): void {
  const n = e.tiers.length;
  const tierSum = e.tiers.reduce((s, t) => s.add(dec(t.cost)), new Decimal(0));
  // Each figure is rounded to cents on its own: a sum of n may differ from the rounded total by n/2 cents.
  const slack = CENT.mul(n + 1).div(2);
  if (tierSum.sub(dec(e.gpuCost)).abs().gt(slack)) out.push(`tiers sum to ${tierSum.toString()}, not the GPU cost ${e.gpuCost.amount}`);
  const month = dec(e.gpuCost).add(dec(e.hiddenCosts.egress));
  if (month.sub(dec(e.monthlyCost)).abs().gt(CENT))
    out.push(`GPU cost ${e.gpuCost.amount} + egress ${e.hiddenCosts.egress.amount} is not the month ${e.monthlyCost.amount}`);
  const egressSum = e.tiers.reduce((s, t) => s.add(dec(t.egress)), new Decimal(0));
  if (egressSum.sub(dec(e.hiddenCosts.egress)).abs().gt(slack)) out.push(`tiers' egress sums to ${egressSum.toString()}, not ${e.hiddenCosts.egress.amount}`);
  const shares = e.tiers.reduce((s, t) => s + t.capacityShare, 0);
  if (n > 0 && !near(shares, 1, 1e-3)) out.push(`tier shares sum to ${shares}, not 1`);
  if (e.hourlyPlan.length !== e.periodHours) out.push(`${e.hourlyPlan.length} hourly rows for a period of ${e.periodHours} hours`);
}

/** Replicas per instance of the tier a pricing model fills, from the chosen offers. */
function replicasPerInstance(e: WireEstimate, model: (m: string) => boolean): number {
  return e.chosenOffers.find((o) => model(o.pricingModel))?.replicasPerInstance ?? 0;
}

/** Every hour's online capacity covers its online demand, and batch work is all placed. */
function capacity(e: WireEstimate, r: EstimateCheckRequest, out: string[]): void {
  const mu = e.replicaThroughput.requestsPerSecond;
  const u = r.targetUtilization;
  const rRes = replicasPerInstance(e, inReservedSlot);
  const rOd = replicasPerInstance(e, (m) => m === 'ON_DEMAND');
  const rSpot = replicasPerInstance(e, (m) => m === 'SPOT');
  let batchPlaced = 0;
  for (const h of e.hourlyPlan) {
    const expected = (r.profile[h.hour] ?? NaN) * (1 - r.batchShare);
    if (!near(h.onlineRequestsPerSecond, expected, 1e-6, 1e-3))
      out.push(`hour ${h.hour}: online demand ${h.onlineRequestsPerSecond}, the request says ${expected}`);
    const dedicated = h.reservedInstances * rRes + (h.onDemandInstances - h.batchOnDemandInstances) * rOd + (h.spotInstances - h.batchSpotInstances) * rSpot;
    const serverless = h.serverlessReplicaHours - h.batchServerlessReplicaHours;
    // The throughput and the replica-hours travel with 4 decimals: allow half a unit on each.
    const muHigh = mu + 0.00005;
    const served = dedicated * muHigh * u + (serverless + 2 * 0.00005) * muHigh;
    if (served < h.onlineRequestsPerSecond * (1 - 1e-4) - 1e-3) {
      out.push(`hour ${h.hour}: capacity for ${served.toFixed(4)} requests/s online, demand ${h.onlineRequestsPerSecond}`);
    }
    batchPlaced += h.batchReplicaHours;
  }
  const batchWork = r.profile.reduce((s, rps) => s + rps * r.batchShare, 0) / mu;
  if (!near(batchPlaced, batchWork, 1e-3, 1e-2))
    out.push(`batch work placed ${batchPlaced.toFixed(4)} replica-hours, the workload has ${batchWork.toFixed(4)}`);
}

/** Reservations and monthly servers: the tiers the plan's reservedInstances count. */
const inReservedSlot = (m: string): boolean => PRICING_MODEL_TRAITS[m as keyof typeof PRICING_MODEL_TRAITS]?.planSlot === 'RESERVED';

/** INTOLERANT never runs on spot; a RECOVERABLE hour on spot keeps its on-demand or serverless fallback. */
function tolerance(e: WireEstimate, r: EstimateCheckRequest, out: string[]): void {
  const spotTier = e.tiers.some((t) => t.pricingModel === 'SPOT');
  if (r.tolerance === 'INTOLERANT') {
    if (spotTier || e.hourlyPlan.some((h) => h.spotInstances > 0)) out.push('an INTOLERANT plan runs on spot');
    return;
  }
  if (r.tolerance !== 'RECOVERABLE') return;
  const rRes = replicasPerInstance(e, inReservedSlot);
  const rOd = replicasPerInstance(e, (m) => m === 'ON_DEMAND');
  for (const h of e.hourlyPlan) {
    const onlineSpot = h.spotInstances - h.batchSpotInstances;
    if (onlineSpot <= 0) continue;
    const burst = h.replicasNeeded - h.reservedInstances * rRes;
    const needed = recoverableFallback(burst, r.recoverableSpotShare);
    const fallback = (h.onDemandInstances - h.batchOnDemandInstances) * rOd;
    if (fallback < needed) out.push(`hour ${h.hour}: RECOVERABLE burst of ${burst} replicas on spot with ${fallback} on-demand fallback, ${needed} needed`);
  }
}

/**
 * The on-demand fallback a RECOVERABLE burst of `burst` replicas keeps, as docs/cost-model.md#the-recoverable-split
 * states it: ceil(burst × (1 − recoverableSpotShare)). In decimals, so a share like 0.7 does not
 * round 10 × 0.3 up to 4.
 */
function recoverableFallback(burst: number, spotShare: number): number {
  return new Decimal(burst).mul(new Decimal(1).sub(spotShare)).ceil().toNumber();
}

/** Every tier buys from a chosen offer's provider, and its egress is that provider's, at that provider's price. */
function providers(e: WireEstimate, r: EstimateCheckRequest, index: CatalogIndex, offerOf: (id: string) => Offer | undefined, out: string[]): void {
  const chosen = new Set(e.chosenOffers.map((o) => o.offerId));
  for (const t of e.tiers) {
    const offer = offerOf(t.offerId);
    if (!offer) {
      out.push(`tier ${t.pricingModel} buys offer ${t.offerId}, which the version lacks`);
      continue;
    }
    if (!chosen.has(t.offerId)) out.push(`tier ${t.pricingModel} buys ${t.offerId}, which is not a chosen offer`);
    if (offer.providerSlug !== t.provider || offer.regionCode !== t.region)
      out.push(`tier ${t.pricingModel} names ${t.provider} ${t.region}, its offer is ${offer.providerSlug} ${offer.regionCode}`);
    if (offer.pricingModel !== t.pricingModel) out.push(`tier ${t.pricingModel} buys a ${offer.pricingModel} offer`);
    const expectedGb = r.egressGbPerMonth * t.capacityShare;
    const charged = t.egressPricePerGb ? dec(t.egressPricePerGb).mul(t.egressGb) : new Decimal(0);
    // egressGb and the unit price are rounded for the wire (4 places each): allow their error.
    if (
      charged
        .sub(dec(t.egress))
        .abs()
        .gt(CENT.add(dec(t.egressPricePerGb ?? { amount: '0', currency: '' }).mul('0.0001')).add(new Decimal(t.egressGb).mul('0.0001')))
    ) {
      out.push(`tier ${t.pricingModel} charges ${t.egress.amount} for ${t.egressGb} GB at ${t.egressPricePerGb?.amount ?? 'no price'}`);
    }
    // capacityShare travels with 4 decimals: half a unit of it on the whole egress.
    if (Math.abs(t.egressGb - expectedGb) > r.egressGbPerMonth * 0.00005 + 0.0001)
      out.push(`tier ${t.pricingModel} carries ${t.egressGb} GB, its share of ${r.egressGbPerMonth} GB is ${expectedGb}`);
    const provider = index.providers[index.providerBySlug.get(offer.providerSlug) ?? -1];
    const usd = provider?.egressUsdPerGb ?? null;
    if (usd === null) {
      const fallback = e.hiddenCosts.egressFallbackPricePerGb;
      if (fallback ? t.egressPricePerGb === null || !dec(t.egressPricePerGb).eq(dec(fallback)) : t.egressPricePerGb !== null)
        out.push(`tier ${t.pricingModel} on ${t.provider} (no known egress price) is not priced at the fallback ${fallback?.amount ?? 'none'}`);
      if (t.egressGb > 0 && !e.hiddenCosts.egressUnpricedProviders.includes(t.provider))
        out.push(`${t.provider} carries egress at an unknown price but is not listed as unpriced`);
    } else if (t.egressPricePerGb) {
      const expected = convertUsd(usd, r.currency, index);
      if (dec(t.egressPricePerGb).sub(expected).abs().gt('0.0001'))
        out.push(`tier ${t.pricingModel} egress at ${t.egressPricePerGb.amount}, ${t.provider}'s is ${expected.toFixed(4)}`);
    } else {
      out.push(`tier ${t.pricingModel} has no egress price though ${t.provider} has one`);
    }
  }
  egressFallback(e, r, index, out);
  if (e.hiddenCosts.egressPriceKnown !== (e.hiddenCosts.egressUnpricedProviders.length === 0))
    out.push('egressPriceKnown disagrees with the unpriced providers');
  const tierProviders = new Set(e.tiers.map((t) => t.provider));
  for (const p of e.hiddenCosts.egressUnpricedProviders) if (!tierProviders.has(p)) out.push(`egress unpriced for ${p}, which the plan does not buy from`);
  for (const o of e.chosenOffers) if (!tierProviders.has(o.provider)) out.push(`chosen offer ${o.offerId} of ${o.provider} is in no tier`);
}

/** The fallback egress price: the request's, else the dearest price any provider of the version publishes. */
function egressFallback(e: WireEstimate, r: EstimateCheckRequest, index: CatalogIndex, out: string[]): void {
  const known = index.providers.flatMap((p) => (p.egressUsdPerGb === null ? [] : [p.egressUsdPerGb]));
  const expected =
    r.fallbackEgressPricePerGb !== null
      ? new Decimal(r.fallbackEgressPricePerGb)
      : known.length
        ? convertUsd(
            known.reduce((a, b) => (b.gt(a) ? b : a)),
            r.currency,
            index,
          )
        : null;
  const given = e.hiddenCosts.egressFallbackPricePerGb;
  if ((expected === null) !== (given === null) || (expected && given && dec(given).sub(expected).abs().gt('0.0001')))
    out.push(`egress fallback ${given?.amount ?? 'none'}, expected ${expected?.toFixed(4) ?? 'none'}`);
}

function convertUsd(usd: Decimal, currency: Currency, index: CatalogIndex): Decimal {
  if (currency === 'USD') return usd;
  const rate = index.fxRates.rates[currency];
  return rate === undefined ? usd : usd.mul(rate);
}

/** Baselines are on-demand list offers of the chosen GPU that hold a replica; the plan costs no more than either. */
function baselines(e: WireEstimate, r: EstimateCheckRequest, index: CatalogIndex, offerOf: (id: string) => Offer | undefined, out: string[]): void {
  const { naive, onDemandAutoscaled, unavailableReason } = e.baselines;
  for (const [name, b] of [
    ['naive', naive],
    ['onDemandAutoscaled', onDemandAutoscaled],
  ] as const) {
    if (!b) continue;
    if (b.pricingModel !== 'ON_DEMAND') out.push(`baseline ${name} is labelled ${b.pricingModel}`);
    const offer = offerOf(b.offerId);
    if (!offer || offer.pricingModel !== 'ON_DEMAND') out.push(`baseline ${name} is priced from ${offer ? offer.pricingModel : 'no'} offer ${b.offerId}`);
    else if (offer.gpuSlug !== e.gpu || offer.gpuCount < e.gpusPerReplica)
      out.push(`baseline ${name}'s offer ${b.offerId} does not hold a ${e.gpusPerReplica}-GPU replica of ${e.gpu}`);
    if (dec(e.monthlyCost).gt(dec(b.monthlyCost).add(CENT)))
      out.push(`the plan (${e.monthlyCost.amount}) costs more than baseline ${name} (${b.monthlyCost.amount})`);
  }
  if ((naive === null) !== (onDemandAutoscaled === null)) out.push('one baseline is priced and the other not');
  if ((naive === null) !== (unavailableReason !== null)) out.push('unavailableReason does not match the baselines');
  if ((naive === null) !== (e.savingsVsNaivePct === null) || (onDemandAutoscaled === null) !== (e.savingsVsOnDemandAutoscaledPct === null)) {
    out.push('savings reported without a baseline, or the other way round');
  }
  for (const pct of [e.savingsVsNaivePct, e.savingsVsOnDemandAutoscaledPct]) if (pct !== null && pct < -0.01) out.push(`negative savings ${pct}%`);
  const holders = compliantOffers(e.gpu, 'ON_DEMAND', r.policy, index).filter((o) => o.gpuCount >= e.gpusPerReplica);
  if (naive === null && holders.length > 0)
    out.push(`no baseline, though ${holders.length} compliant on-demand offer(s) hold a replica (${holders[0]?.keyHash})`);
}

/** Compliant offers of a GPU under one pricing model, as the policy allows them. */
function compliantOffers(gpu: string, pricingModel: string, policy: CompliancePolicy, index: CatalogIndex): Offer[] {
  if (policy.pricingModels && !policy.pricingModels.includes(pricingModel as never)) return [];
  if (!index.gpuBySlug.has(gpu)) return [];
  const page = filterOffers({
    catalog: index,
    requirement: resolveRequirement({ gpus: [gpu] }),
    policy: { ...policy, pricingModels: [pricingModel as never] },
    currency: 'USD',
    limit: 100_000,
  });
  return page.items.map((i) => i.offer);
}

/** Each warning's claim is true. */
function warnings(e: WireEstimate, r: EstimateCheckRequest, index: CatalogIndex, offerOf: (id: string) => Offer | undefined, out: string[]): void {
  for (const w of e.warnings) {
    let m = /^no compliant on-demand offer of (\S+) holds a (\d+)-GPU replica/.exec(w);
    if (m) {
      const holders = compliantOffers(m[1] ?? '', 'ON_DEMAND', r.policy, index).filter((o) => o.gpuCount >= Number(m?.[2]));
      if (holders.length > 0) out.push(`warning "${w}" is false: ${holders[0]?.keyHash} holds one`);
      continue;
    }
    m = /^no compliant spot offer for (\S+):/.exec(w);
    if (m) {
      if (compliantOffers(m[1] ?? '', 'SPOT', r.policy, index).length > 0) out.push(`warning "${w}" is false: a compliant spot offer exists`);
      continue;
    }
    m = /^no compliant spot offer of (\S+) holds a (\d+)-GPU replica/.exec(w);
    if (m) {
      const spot = compliantOffers(m[1] ?? '', 'SPOT', r.policy, index);
      if (spot.length === 0 || spot.some((o) => o.gpuCount >= Number(m?.[2]))) out.push(`warning "${w}" is false`);
      continue;
    }
    m = /^egress of [\d.]+ GB\/month on (\S+) is not priced/.exec(w);
    if (m) {
      const provider = index.providers[index.providerBySlug.get(m[1] ?? '') ?? -1];
      if (!provider || provider.egressUsdPerGb !== null || !e.tiers.some((t) => t.provider === provider.slug && t.egressGb > 0))
        out.push(`warning "${w}" is false`);
      continue;
    }
    m = /^(\S+) (.+) (\S+:\S+) (ON_DEMAND|SPOT|RESERVED_1Y|RESERVED_3Y|SERVERLESS|MONTHLY): availability UNCONFIRMED/.exec(w);
    if (m) {
      const [, provider, instanceType, region, model] = m;
      const offer = e.chosenOffers
        .map((o) => offerOf(o.offerId))
        .find((o) => o !== undefined && o.providerSlug === provider && o.instanceType === instanceType && o.regionCode === region && o.pricingModel === model);
      if (!offer || offer.availability !== 'UNCONFIRMED') out.push(`warning "${w}" is false`);
      continue;
    }
    if (/^INTOLERANT workload: the spot offers/.test(w) && r.tolerance !== 'INTOLERANT') out.push(`warning "${w}" is false`);
  }
  for (const o of e.chosenOffers) {
    const offer = offerOf(o.offerId);
    if (offer?.availability === 'UNCONFIRMED' && !e.warnings.some((w) => w.includes('availability UNCONFIRMED') && w.includes(offer.instanceType))) {
      out.push(`chosen offer ${o.offerId} is UNCONFIRMED and no warning says so`);
    }
  }
  const named = e.exchangeRate !== null;
  if (r.currency !== 'USD' && !named) out.push(`an answer in ${r.currency} names no FX rate`);
}

/** The mix sentence names every tier with its share. */
function mix(e: WireEstimate, out: string[]): void {
  const sentence = e.assumptions.find((a) => a.startsWith('The plan buys its GPU-hours as'));
  if (!sentence) {
    out.push('no assumption says what the plan buys');
    return;
  }
  const said = new Map<string, number>();
  for (const m of sentence.matchAll(/([\d.]+)% (\S+) \(([^,]+), ([^)]+)\)/g)) said.set(`${m[2]} ${m[3]} ${m[4]}`, Number(m[1]));
  for (const t of e.tiers) {
    const key = `${t.pricingModel} ${t.provider} ${t.region}`;
    const pct = said.get(key);
    // The sentence rounds to 0.1 point, the share travels with 4 decimals.
    if (pct === undefined || Math.abs(pct - t.capacityShare * 100) > 0.051)
      out.push(`the mix sentence says ${pct ?? 'nothing'}% for ${key}, its share is ${t.capacityShare}`);
    said.delete(key);
  }
  for (const key of said.keys()) out.push(`the mix sentence names ${key}, which is no tier`);
}

/** The same request in the other currency: amounts converted at the named rate, within rounding. */
function conversion(e: WireEstimate, twin: WireEstimate, out: string[]): void {
  const [usd, other] = e.monthlyCost.currency === 'USD' ? [e, twin] : [twin, e];
  const rate = other.exchangeRate;
  if (!rate) {
    out.push(`the ${other.monthlyCost.currency} answer names no rate`);
    return;
  }
  const expected = dec(usd.monthlyCost).mul(rate.rate);
  // Both totals are rounded to cents; the optimizer's choice is the same in either currency.
  if (expected.sub(dec(other.monthlyCost)).abs().gt(expected.mul('1e-6').add('0.02'))) {
    out.push(`${other.monthlyCost.amount} ${other.monthlyCost.currency} is not ${usd.monthlyCost.amount} USD × ${rate.rate} = ${expected.toFixed(2)}`);
  }
}
