// The one place an estimate's answer is put together (docs/cost-model.md): from the plan the cost
// model made for the request's objective, the other objective's plan, the measurements' summary and
// the catalog version. It adds what only the version knows (price-age warnings, the FX rate used,
// the fleet's and the plans' energy and carbon from the version's figures, docs/carbon.md) and
// returns new objects; nothing changes the answer afterwards.
import type { CatalogVersionInfo, Currency } from '../../domain/catalog/catalog.types.js';
import { priceQualityWarnings, type CatalogIndex } from '../../domain/compliance/index.js';
import type { EstimateOutcome, InferenceEstimate } from '../../domain/cost-model/index.js';
import { carbonOfPlan, estimateCarbon, type EstimateCarbon } from '../../domain/energy/index.js';
import type { FleetAssessment, MeasuredSummary } from '../../domain/measurements/index.js';
import type { Money } from '../../domain/money/money.js';
import { exchangeRateUsed, staleExchangeRateWarning, type ExchangeRateUsed } from '../../domain/money/exchange-rate.js';
import { at, getOrThrow } from '../../domain/checked.js';
import type { OwnedInput } from './dto/estimate.input.js';
import { ownedAnswer, type OwnedAnswer } from './owned-answer.js';

/** The current fleet with its kWh and kg CO2e per month at its measured utilization (null without one or a figure). */
export type FleetAnswer = FleetAssessment & { kwhPerMonth: number | null; kgCo2ePerMonth: number | null };
export type MeasuredAnswer = Omit<MeasuredSummary, 'fleet'> & { fleet: FleetAnswer | null };

export interface EstimateAnswer {
  version: CatalogVersionInfo;
  estimate: InferenceEstimate;
  /** What the measurements showed, when the request had any. */
  measured: MeasuredAnswer | null;
  index: CatalogIndex;
  /** The FX rate the estimate's prices were converted with; null when none was. */
  exchangeRate: ExchangeRateUsed | null;
  /** Energy and carbon of the plan, and the plan the other objective chooses (docs/carbon.md). */
  carbon: EstimateCarbonAnswer;
  /** Owning the base load against renting it (docs/cost-model.md#rent-or-buy); null unless asked, or without a board power (a warning says so). */
  owned: OwnedAnswer | null;
}

const CARBON_OBJECTIVE_ASSUMPTION =
  'Optimized for carbon: the compliant offers with the least g CO2e per replica-hour of each GPU, pricing model and instance size are combined, and the plan with the least carbon at its own utilization (the figure reported below) wins, then the cheapest (docs/carbon.md).';

export function assembleAnswer({
  version,
  index,
  estimate,
  measured,
  other,
  optimizeFor,
  currency,
  referenceDate,
  avgOutputTokens,
  staleAfterDays,
  staleFxDays,
  owned,
}: {
  version: CatalogVersionInfo;
  index: CatalogIndex;
  /** The plan for the request's objective. */
  estimate: InferenceEstimate;
  measured: MeasuredSummary | null;
  /** The other objective's outcome, when planned. */
  other: EstimateOutcome | null;
  optimizeFor: OptimizeFor;
  currency: Currency;
  referenceDate: string;
  avgOutputTokens: number;
  /** STALE_PRICE_DAYS and STALE_FX_DAYS. */
  staleAfterDays: number;
  staleFxDays: number;
  /** The request's server terms, when it asks to compare owning. */
  owned?: OwnedInput;
}): EstimateAnswer {
  const chosen = estimate.chosenOffers.map((c) => at(index.offers, getOrThrow(index.offerByKeyHash, c.ref, 'offer')));
  const exchangeRate = exchangeRateUsed({ fxRates: index.fxRates, currency, priceCurrencies: chosen.map((o) => o.currency), referenceDate });
  const stale = exchangeRate ? staleExchangeRateWarning(exchangeRate, staleFxDays) : null;
  const assumptions = [
    ...estimate.assumptions,
    ...(optimizeFor === 'CARBON' ? [CARBON_OBJECTIVE_ASSUMPTION] : []),
    ...(exchangeRate
      ? [
          `Prices converted at 1 ${exchangeRate.base} = ${exchangeRate.rate} ${exchangeRate.currency}, the rate of ${exchangeRate.date} ` +
            `(${exchangeRate.ageDays} days before ${referenceDate}; ${exchangeRate.source}).`,
        ]
      : []),
  ];
  const warnings = [...estimate.warnings, ...priceQualityWarnings(chosen, { referenceDate, staleAfterDays }), ...(stale ? [stale] : [])];
  const fleet = measured?.fleet ?? null;
  const utilization = measured?.utilization ?? null;
  const carbon = carbonAnswer({ estimate, other: other?.kind === 'OK' ? other.estimate : null, index, avgOutputTokens, optimizeFor });
  const ownedOutcome = owned
    ? ownedAnswer({ input: owned, estimate, index, currency, utilization: carbon.figures?.utilization ?? estimate.unitEconomics.averageUtilization })
    : null;
  if (ownedOutcome?.kind === 'UNKNOWN') warnings.push(`owned: not priced, ${ownedOutcome.reason}`);
  return {
    version,
    index,
    exchangeRate,
    estimate: { ...estimate, assumptions, warnings },
    measured: measured && {
      ...measured,
      fleet: fleet && { ...fleet, ...(utilization ? fleetCarbon(fleet, utilization.meanPct / 100, estimate.hoursPerMonth, index) : NO_CARBON) },
    },
    carbon,
    owned: ownedOutcome?.kind === 'OK' ? ownedOutcome.owned : null,
  };
}

const NO_CARBON = { kwhPerMonth: null, kgCo2ePerMonth: null };

/** The fleet's kWh and kg CO2e per month at its measured utilization, by the same power model as a plan's (docs/carbon.md). */
function fleetCarbon(
  fleet: FleetAssessment,
  utilization: number,
  hoursPerMonth: number,
  index: CatalogIndex,
): Pick<FleetAnswer, 'kwhPerMonth' | 'kgCo2ePerMonth'> {
  const region = index.regionByCode.get(fleet.region);
  const country = region === undefined ? '' : (index.regions[region]?.country ?? '');
  const outcome = estimateCarbon({
    index: index.energy,
    gpu: fleet.gpu,
    tiers: [{ pricingModel: fleet.pricingModel, provider: fleet.provider, region: fleet.region, gpuHours: fleet.count * hoursPerMonth }],
    planUtilization: utilization,
    outputTokensPerMonth: 0,
    countryOf: () => country,
  });
  return outcome.kind === 'OK' ? { kwhPerMonth: outcome.carbon.kwhPerMonth, kgCo2ePerMonth: outcome.carbon.kgCo2ePerMonth } : NO_CARBON;
}

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
