// The monthly cost of an inference workload: compliant offers per GPU type and pricing model
// from the catalog (through the same compliance core as the cheapest-offer answer), then the
// pure cost model. Reads only; stores nothing. Same input and version, same numbers.
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { CatalogVersionInfo, Currency } from '../../domain/catalog/catalog.types.js';
import {
  ANY_REQUIREMENT,
  assertKnownIdentifiers,
  cheapestPerGpuModelAndSize,
  cleanestPerGpuModelAndSize,
  priceQualityWarnings,
  priceReferenceDate,
  resolveDiscounts,
  resolvePolicy,
  type CatalogIndex,
  type CompliancePolicy,
  type Discounts,
} from '../../domain/compliance/index.js';
import {
  gpuSpecFromCatalog,
  type EstimateInput as CostModelInput,
  type GpuCandidate,
  type InferenceEstimate,
  type TierOfferInput,
} from '../../domain/cost-model/index.js';
import { convert, Decimal } from '../../domain/money/money.js';
import { exchangeRateUsed, staleExchangeRateWarning, type ExchangeRateUsed } from '../../domain/money/exchange-rate.js';
import type { ModelInput } from '../../domain/sizing/index.js';
import { badInput, unprocessable } from '../../common/errors/app-error.js';
import { CatalogService } from '../catalog/index.js';
import { toAppError } from '../../common/errors/domain-errors.js';
import { policyInputFrom } from '../../common/inputs/policy.input.js';
import type { EstimateInput } from './dto/estimate.input.js';
import { EstimatePool } from './estimate-pool.js';
import { MeasurementInputs } from './measurement-inputs.js';
import type { FleetAssessment, MeasuredOutcome, MeasuredSummary, MeasurementsInput as PreparedMeasurements } from '../../domain/measurements/index.js';
import { estimateCarbon } from '../../domain/energy/index.js';
import { carbonAnswer, type EstimateCarbonAnswer, type OptimizeFor } from './estimate-carbon.js';
import { at, defined, getOrThrow } from '../../domain/checked.js';
import { LRUCache } from 'lru-cache';

export interface EstimateAnswer {
  version: CatalogVersionInfo;
  estimate: InferenceEstimate;
  /** What the measurements showed, when the request had any. */
  measured: MeasuredSummary | null;
  index: CatalogIndex;
  /** The FX rate the estimate's prices were converted with; null when none was. */
  exchangeRate: ExchangeRateUsed | null;
  /** Energy and carbon of the plan, and the plan the other objective chooses (docs/carbon.md). */
  carbon: EstimateCarbonAnswer;
}

type CandidateContext = { index: CatalogIndex; policy: CompliancePolicy; discounts: Discounts; currency: Currency; optimizeFor: OptimizeFor };

/** Candidate lists kept per catalog version (the index), for this many distinct policies each. */
const CANDIDATE_SETS_PER_VERSION = 64;

@Injectable()
export class EstimatesService {
  /**
   * The candidates are a function of the version (immutable), the resolved policy (reference date
   * included), the discounts, the currency and the GPUs: kept per index, so requests that differ
   * only in the workload or the model skip the catalog walk. They are only read afterwards.
   */
  private readonly candidateSets = new WeakMap<CatalogIndex, LRUCache<string, GpuCandidate[]>>();

  constructor(
    private readonly catalog: CatalogService,
    private readonly pool: EstimatePool,
    private readonly measurements: MeasurementInputs,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'STALE_PRICE_DAYS' | 'STALE_FX_DAYS'>,
  ) {}

  async estimate(input: EstimateInput): Promise<EstimateAnswer> {
    checkProfile(input);
    if (input.measurements) this.measurements.check(input.measurements);
    if ((input.model.preset === undefined) === (input.model.parametersB === undefined)) {
      throw badInput('REQUEST.INVALID', [{ field: 'model.preset', message: 'give exactly one of preset and parametersB' }]);
    }
    const { version, index } = await this.catalog.indexedSnapshot({ version: input.version, asOf: input.asOf });
    const currency: Currency = input.currency ?? 'USD';
    const referenceDate = priceReferenceDate(input.asOf);
    let policy: CompliancePolicy;
    let discounts: Discounts;
    try {
      policy = resolvePolicy({ ...policyInputFrom(input.policy), referenceDate });
    } catch (error) {
      throw toAppError(error, 'policy.');
    }
    try {
      discounts = resolveDiscounts(input.discounts);
    } catch (error) {
      throw toAppError(error);
    }
    const gpuSlugs = input.gpus ?? index.gpus.map((g) => g.slug);
    // The same rule as the offer queries: an unknown GPU or provider is a 400 with suggestions.
    try {
      assertKnownIdentifiers(index, { requirement: { ...ANY_REQUIREMENT, gpus: gpuSlugs }, discounts });
    } catch (error) {
      throw toAppError(error);
    }
    try {
      assertKnownIdentifiers(index, { policy });
    } catch (error) {
      throw toAppError(error, 'policy.');
    }

    const measurements = input.measurements ? await this.measurements.prepare(input.measurements, { index, currency, referenceDate }) : undefined;
    const { outcome, carbon } = await this.plan(
      input,
      { index, policy, discounts, currency, gpuSlugs, optimizeFor: input.optimizeFor ?? 'COST' },
      measurements,
    );
    switch (outcome.kind) {
      case 'OK': {
        const estimate = outcome.estimate;
        const measured = outcome.measured ?? null;
        if (measured?.fleet && measured.utilization)
          Object.assign(measured.fleet, fleetCarbon(measured.fleet, measured.utilization.meanPct / 100, estimate.hoursPerMonth, index));
        const chosen = estimate.chosenOffers.map((c) => at(index.offers, getOrThrow(index.offerByKeyHash, c.ref, 'offer')));
        estimate.warnings.push(...priceQualityWarnings(chosen, { referenceDate, staleAfterDays: this.config.STALE_PRICE_DAYS }));
        const exchangeRate = exchangeRateUsed({ fxRates: index.fxRates, currency, priceCurrencies: chosen.map((o) => o.currency), referenceDate });
        if (exchangeRate) {
          estimate.assumptions.push(
            `Prices converted at 1 ${exchangeRate.base} = ${exchangeRate.rate} ${exchangeRate.currency}, the rate of ${exchangeRate.date} ` +
              `(${exchangeRate.ageDays} days before ${referenceDate}; ${exchangeRate.source}).`,
          );
          const stale = staleExchangeRateWarning(exchangeRate, this.config.STALE_FX_DAYS);
          if (stale) estimate.warnings.push(stale);
        }
        return { version, estimate, measured, index, exchangeRate, carbon: defined(carbon, 'the carbon of a planned estimate') };
      }
      case 'INVALID_INPUT':
        throw badInput('REQUEST.INVALID', [{ field: outcome.field, message: outcome.reason }]);
      case 'NO_FIT': {
        const largest = outcome.largestGpuTried;
        const tried = largest ? ` The largest GPU tried was ${largest.slug} (${largest.memoryGb} GB, up to ${largest.gpusPerInstance} per instance).` : '';
        throw unprocessable('ESTIMATE.MODEL_DOES_NOT_FIT', `The model fits no allowed GPU: ${outcome.reason}.${tried}`, [
          { field: 'model', message: outcome.reason },
        ]);
      }
      case 'TOO_LARGE':
        throw unprocessable(
          'ESTIMATE.TOO_LARGE',
          `The workload is too large to plan: ${outcome.reason}. Split it, or check the request rate and token counts.`,
          [{ field: 'workload', message: outcome.reason }],
        );
      case 'NO_USABLE_OFFER':
        throw unprocessable('ESTIMATE.NO_COMPLIANT_OFFER', `No compliant offer can serve this workload: ${outcome.reason}`, [
          { field: 'policy', message: outcome.reason },
        ]);
    }
  }

  /**
   * The plan for the request's objective and, when there is one, its carbon with the plan the other
   * objective chooses (estimate-carbon.ts): two runs of the cost model.
   */
  private async plan(
    input: EstimateInput,
    ctx: CandidateContext & { gpuSlugs: string[] },
    measurements?: PreparedMeasurements,
  ): Promise<{ outcome: MeasuredOutcome; carbon: EstimateCarbonAnswer | null }> {
    const planFor = (optimizeFor: OptimizeFor, request: EstimateInput, m?: PreparedMeasurements) =>
      this.pool.run(this.costModelInput(request, { ...ctx, optimizeFor }), m);
    const outcome = await planFor(ctx.optimizeFor, input, measurements);
    if (outcome.kind !== 'OK') return { outcome, carbon: null };
    // Only the other plan itself is answered: one alternative (the least the cost model plans) keeps
    // its run short. Its demand is the profile the measurements gave, not their texts parsed again.
    const profile = outcome.measured?.traffic?.profile;
    const otherInput = { ...input, maxAlternatives: 1, ...(profile ? { workload: { ...input.workload, weeklyProfile: profile } } : {}) };
    const other = await planFor(ctx.optimizeFor === 'COST' ? 'CARBON' : 'COST', otherInput);
    const carbon = carbonAnswer({
      estimate: outcome.estimate,
      other: other.kind === 'OK' ? other.estimate : null,
      index: ctx.index,
      avgOutputTokens: input.workload.avgOutputTokens,
      optimizeFor: ctx.optimizeFor,
    });
    if (ctx.optimizeFor === 'CARBON') {
      outcome.estimate.assumptions.push(
        'Optimized for carbon: the compliant offers with the least g CO2e per replica-hour of each GPU, pricing model and instance size are combined, and the plan with the least carbon at its own utilization (the figure reported below) wins, then the cheapest (docs/carbon.md).',
      );
    }
    return { outcome, carbon };
  }

  private costModelInput(input: EstimateInput, ctx: CandidateContext & { gpuSlugs: string[] }): CostModelInput {
    const { preset, precision, ...shape } = input.model;
    // With a null or empty preset, parametersB may be missing: the cost model's resolveModel then
    // answers on model.parametersB, as for any unusable size (NaN, like undefined, is not a positive number).
    const model: ModelInput = preset ? { preset } : { ...shape, parametersB: shape.parametersB ?? NaN, ...(precision ? { nativePrecision: precision } : {}) };
    const precisions = input.precisions ?? (precision ? [precision] : undefined);
    return {
      model,
      precisions,
      // Without hourlyProfile etc. when measurements.traffic gives the profile (the worker sets weeklyProfile).
      workload: { ...input.workload },
      tolerance: ctx.policy.tolerance ?? undefined,
      candidates: this.candidates(
        ctx.gpuSlugs.map((slug) => slug.toLowerCase()),
        ctx,
      ),
      currency: ctx.currency,
      hoursPerMonth: input.hoursPerMonth,
      recoverableSpotShare: input.recoverableSpotShare,
      spot: input.spotInterruptionsPerHour === undefined ? undefined : { interruptionsPerHour: input.spotInterruptionsPerHour },
      modelLoadSeconds: input.modelLoadSeconds,
      egressGbPerMonth: input.egressGbPerMonth,
      egressPricePerGb: input.egressPricePerGb === undefined ? dearestKnownEgress(ctx) : new Decimal(input.egressPricePerGb),
      apiPricePer1MTokens: input.apiPricePer1MTokens === undefined ? undefined : new Decimal(input.apiPricePer1MTokens),
      measuredThroughput: input.measuredThroughput?.map((m) => ({
        gpuSlug: m.gpu?.toLowerCase(),
        precision: m.precision,
        requestsPerSecond: m.requestsPerSecond,
        outputTokensPerSecond: m.outputTokensPerSecond,
      })),
      maxAlternatives: input.maxAlternatives,
      optimizeFor: ctx.optimizeFor,
      // The carbon objective weighs plans at their utilization, by the idle share the answer's carbon uses.
      carbonIdleShare: ctx.index.energy.idleShare()?.value,
    };
  }

  private candidates(slugs: string[], ctx: CandidateContext): GpuCandidate[] {
    let sets = this.candidateSets.get(ctx.index);
    if (!sets) this.candidateSets.set(ctx.index, (sets = new LRUCache({ max: CANDIDATE_SETS_PER_VERSION })));
    // Decimals (price cap, discounts) serialize as their exact text.
    const key = JSON.stringify([ctx.policy, [...ctx.discounts.entries()], ctx.currency, slugs, ctx.optimizeFor]);
    let candidates = sets.get(key);
    if (!candidates) sets.set(key, (candidates = this.selectCandidates(slugs, ctx)));
    return candidates;
  }

  /** The cheapest compliant offer of each pricing model and instance size for each GPU type, from one query over the catalog. */
  private selectCandidates(slugs: string[], ctx: CandidateContext): GpuCandidate[] {
    // CARBON: the cleanest compliant offer of each model and size instead of the cheapest (docs/carbon.md).
    const select = ctx.optimizeFor === 'CARBON' ? cleanestPerGpuModelAndSize : cheapestPerGpuModelAndSize;
    const cheapest = select({ catalog: ctx.index, gpus: slugs, policy: ctx.policy, currency: ctx.currency, discounts: ctx.discounts });
    return slugs.map((slug) => {
      const gpu = at(ctx.index.gpus, getOrThrow(ctx.index.gpuBySlug, slug, 'GPU'));
      const offers = getOrThrow(cheapest, slug, 'GPU').map((quote): TierOfferInput => ({
        ref: quote.offer.keyHash,
        provider: quote.provider.slug,
        region: quote.region.code,
        // Egress is the provider's, per GB in USD in the catalog; the estimate's currency here.
        egressPricePerGb: quote.provider.egressUsdPerGb ? convert(quote.provider.egressUsdPerGb, 'USD', ctx.currency, ctx.index.fxRates) : null,
        pricingModel: quote.offer.pricingModel,
        gpusPerInstance: quote.offer.gpuCount,
        pricePerInstanceHour: quote.pricePerInstanceHour,
        interruptionNoticeSeconds: quote.offer.interruptionNoticeSeconds,
        interruptionRate: quote.offer.interruptionRate ?? null,
        gCo2ePerGpuHour: quote.energy?.gCo2ePerGpuHour ?? null,
      }));
      return { gpu: gpuSpecFromCatalog({ gpu }), offers };
    });
  }
}

/** Exactly one of the workload's profiles, or none with measured traffic (which gives it). */
function checkProfile(input: EstimateInput): void {
  const profiles = [input.workload.hourlyProfile, input.workload.weeklyProfile, input.workload.requestsPerSecond].filter((p) => p !== undefined);
  const measuredTraffic = input.measurements?.traffic !== undefined;
  if (profiles.length !== (measuredTraffic ? 0 : 1)) {
    const message = measuredTraffic
      ? 'measurements.traffic gives the profile: leave out hourlyProfile, weeklyProfile and requestsPerSecond'
      : 'give exactly one of hourlyProfile (24 values), weeklyProfile (168 values) and requestsPerSecond, or measurements.traffic';
    throw badInput('REQUEST.INVALID', [{ field: 'workload.hourlyProfile', message }]);
  }
}

/** The fleet's kWh and kg CO2e per month at its measured utilization, by the same power model as a plan's (docs/carbon.md). */
function fleetCarbon(
  fleet: FleetAssessment,
  utilization: number,
  hoursPerMonth: number,
  index: CatalogIndex,
): Pick<FleetAssessment, 'kwhPerMonth' | 'kgCo2ePerMonth'> {
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
  return outcome.kind === 'OK'
    ? { kwhPerMonth: outcome.carbon.kwhPerMonth, kgCo2ePerMonth: outcome.carbon.kgCo2ePerMonth }
    : { kwhPerMonth: null, kgCo2ePerMonth: null };
}

/**
 * The default egress price for providers without one: the dearest known internet egress price of
 * the catalog version, in the estimate's currency, so that an unknown price never makes a provider
 * win on egress (docs/cost-model.md#hidden-costs). Undefined when no provider has a price.
 */
function dearestKnownEgress(ctx: CandidateContext): Decimal | undefined {
  const known = ctx.index.providers.map((p) => p.egressUsdPerGb).filter((usd): usd is Decimal => usd !== null);
  if (known.length === 0) return undefined;
  return convert(Decimal.max(...known), 'USD', ctx.currency, ctx.index.fxRates);
}
