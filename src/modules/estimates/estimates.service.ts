// The monthly cost of an inference workload: compliant offers per GPU type and pricing model
// from the catalog (through the same compliance core as the cheapest-offer answer), then the
// pure cost model. Reads only; stores nothing. Same input and version, same numbers.
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { Currency } from '../../domain/catalog/catalog.types.js';
import {
  ANY_REQUIREMENT,
  assertKnownIdentifiers,
  cheapestPerGpuModelAndSize,
  cleanestPerGpuModelAndSize,
  priceReferenceDate,
  resolveDiscounts,
  resolvePolicy,
  type CatalogIndex,
  type CompliancePolicy,
  type Discounts,
} from '../../domain/compliance/index.js';
import { gpuSpecFromCatalog, type EstimateInput as CostModelInput, type GpuCandidate, type TierOfferInput } from '../../domain/cost-model/index.js';
import { convert, Decimal } from '../../domain/money/money.js';
import type { ModelInput } from '../../domain/sizing/index.js';
import { badInput, unprocessable } from '../../common/errors/app-error.js';
import { ELECTRICITY_BY_SITE } from '../../domain/cost-model/owned-defaults.js';
import { CatalogService } from '../catalog/index.js';
import { toAppError } from '../../common/errors/domain-errors.js';
import { policyInputFrom } from '../../common/inputs/policy.input.js';
import type { EstimateInput } from './dto/estimate.input.js';
import { EstimatePool } from './estimate-pool.js';
import type { ParsedTexts } from './estimate-bodies.js';
import { MeasurementInputs } from './measurement-inputs.js';
import { ANONYMOUS, type Requester } from './prometheus-queries.js';
import { assembleAnswer, type EstimateAnswer, type OptimizeFor } from './estimate-answer.js';
import { at, getOrThrow } from '../../domain/checked.js';
import { LRUCache } from 'lru-cache';

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

  /**
   * `requester`: who asks, for the measurements' Prometheus queries (prometheus-queries.ts);
   * `read`: the measurement texts read with a large body, by token (estimate-bodies.ts).
   */
  async estimate(input: EstimateInput, requester: Requester = ANONYMOUS, read?: ParsedTexts): Promise<EstimateAnswer> {
    checkProfile(input);
    checkOwned(input);
    if (input.measurements) this.measurements.check(input.measurements, read);
    if ((input.model.preset === undefined) === (input.model.parametersB === undefined)) {
      throw badInput('REQUEST.INVALID', [{ field: 'model.preset', message: 'give exactly one of preset and parametersB' }]);
    }
    const { version, index } = await this.catalog.indexedSnapshot({ version: input.version, asOf: input.asOf });
    const currency: Currency = input.currency ?? 'USD';
    const referenceDate = priceReferenceDate(input.asOf);
    const { policy, discounts, gpuSlugs } = resolveRequest(input, index, referenceDate);
    const measurements = input.measurements
      ? await this.measurements.prepare(input.measurements, { index, currency, referenceDate }, requester, read)
      : undefined;
    const optimizeFor = input.optimizeFor ?? 'COST';
    const ctx = { index, policy, discounts, currency, gpuSlugs };
    // One task plans both objectives: the other plan only as itself (one alternative, the least the
    // cost model plans, keeps it short), for the answer's carbon comparison.
    const { outcome, other } = await this.pool.run(
      {
        input: this.costModelInput(input, { ...ctx, optimizeFor }),
        other: this.costModelInput({ ...input, maxAlternatives: 1 }, { ...ctx, optimizeFor: optimizeFor === 'COST' ? 'CARBON' : 'COST' }),
      },
      measurements,
      read,
    );
    switch (outcome.kind) {
      case 'OK':
        return assembleAnswer({
          version,
          index,
          estimate: outcome.estimate,
          measured: outcome.measured ?? null,
          other,
          optimizeFor,
          currency,
          referenceDate,
          avgOutputTokens: input.workload.avgOutputTokens,
          staleAfterDays: this.config.STALE_PRICE_DAYS,
          staleFxDays: this.config.STALE_FX_DAYS,
          owned: input.owned,
        });
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
        marketInterruptionsPerHour: quote.offer.market?.interruptionsPerHour?.toNumber() ?? null,
        gCo2ePerGpuHour: quote.energy?.gCo2ePerGpuHour ?? null,
      }));
      return { gpu: gpuSpecFromCatalog({ gpu }), offers };
    });
  }
}

/** The request's policy, discounts and GPUs against the version: unknown names are a 400 with suggestions. */
function resolveRequest(
  input: EstimateInput,
  index: CatalogIndex,
  referenceDate: string,
): { policy: CompliancePolicy; discounts: Discounts; gpuSlugs: string[] } {
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
  return { policy, discounts, gpuSlugs };
}

/** Exactly one of the workload's profiles, or none with measured traffic (which gives it). */
/**
 * Rent or buy needs an electricity price: the caller's, or a site's (owned.site's pattern admits
 * only the sites with a sourced price, so a given site always has one).
 */
function checkOwned(input: EstimateInput): void {
  const owned = input.owned;
  if (!owned || owned.electricityUsdPerKwh !== undefined || owned.site !== undefined) return;
  throw badInput('REQUEST.INVALID', [
    {
      field: 'owned.electricityUsdPerKwh',
      message: `give electricityUsdPerKwh, or a site with a sourced price (${Object.keys(ELECTRICITY_BY_SITE).join(', ')})`,
    },
  ]);
}

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
