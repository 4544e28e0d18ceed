// The one place an estimate's answer is put together (docs/cost-model.md): from the plan the cost
// model made for the request's objective, the other objective's plan, the measurements' summary and
// the catalog version. It adds what only the version knows (price-age warnings, the FX rate used,
// the fleet's and the plans' carbon) and returns new objects; nothing changes the answer afterwards.
import type { CatalogVersionInfo, Currency } from '../../domain/catalog/catalog.types.js';
import { priceQualityWarnings, type CatalogIndex } from '../../domain/compliance/index.js';
import type { EstimateOutcome, InferenceEstimate } from '../../domain/cost-model/index.js';
import { estimateCarbon } from '../../domain/energy/index.js';
import type { FleetAssessment, MeasuredSummary } from '../../domain/measurements/index.js';
import { exchangeRateUsed, staleExchangeRateWarning, type ExchangeRateUsed } from '../../domain/money/exchange-rate.js';
import { at, getOrThrow } from '../../domain/checked.js';
import { carbonAnswer, type EstimateCarbonAnswer, type OptimizeFor } from './estimate-carbon.js';

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
}

export const CARBON_OBJECTIVE_ASSUMPTION =
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
  return {
    version,
    index,
    exchangeRate,
    estimate: { ...estimate, assumptions, warnings },
    measured: measured && {
      ...measured,
      fleet: fleet && { ...fleet, ...(utilization ? fleetCarbon(fleet, utilization.meanPct / 100, estimate.hoursPerMonth, index) : NO_CARBON) },
    },
    carbon: carbonAnswer({ estimate, other: other?.kind === 'OK' ? other.estimate : null, index, avgOutputTokens, optimizeFor }),
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
