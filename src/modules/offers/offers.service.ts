// Offer listing and the cheapest compliant offer: one service for REST and GraphQL. The work is
// done by the compliance core over the version's in-memory index; this maps inputs and errors.
import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { CatalogVersionInfo } from '../../domain/catalog/catalog.types.js';
import {
  DEFAULT_LIMIT,
  filterOffers,
  findCheapestCompliant,
  PolicyError,
  priceQualityWarnings,
  priceReferenceDate,
  resolveDiscounts,
  resolvePolicy,
  resolveRequirement,
  type CheapestResult,
  type GpuRequirement,
  type OfferPage,
} from '../../domain/compliance/index.js';
import { exchangeRateUsed, staleExchangeRateWarning, type ExchangeRateUsed } from '../../domain/money/exchange-rate.js';
import {
  DEFAULT_CONTEXT_TOKENS,
  RUNTIME_OVERHEAD_GB_PER_GPU,
  USABLE_MEMORY_FRACTION,
  isPrecision,
  requiredGpuMemoryGb,
  resolveModel,
  type ModelInput as SizingModelInput,
} from '../../domain/sizing/index.js';
import { badInput } from '../../common/errors/app-error.js';
import { toAppError } from '../../common/errors/domain-errors.js';
import { DEFAULT_PAGE_SIZE } from '../../common/inputs/input-bounds.js';
import { CatalogService } from '../catalog/index.js';
import type { ModelNeed, OfferSearch } from './offer-search.js';

@Injectable()
export class OffersService {
  constructor(
    private readonly catalog: CatalogService,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'STALE_PRICE_DAYS' | 'STALE_FX_DAYS'>,
  ) {}

  async list(
    search: OfferSearch,
    page: { limit?: number; cursor?: string },
  ): Promise<{ version: CatalogVersionInfo; page: OfferPage; nextCursor: string | null; exchangeRate: ExchangeRateUsed | null }> {
    const cursor = page.cursor ? decodeCursor(page.cursor) : null;
    const fingerprint = searchFingerprint(search);
    if (cursor && cursor.f !== fingerprint) {
      throw badInput('OFFERS.CURSOR_MISMATCH', [{ field: 'cursor', message: 'belongs to a query with other filters or currency; start again without it' }]);
    }
    // A cursor pins its version, so paging stays consistent across a publish.
    const { version, index } = await this.catalog.indexedSnapshot(cursor ? { version: cursor.v } : search.selector);
    try {
      const requirement = this.requirement(search);
      // A cursor keeps the day prices were aged from, so paging across midnight keeps one filter.
      const referenceDate = cursor?.d ?? priceReferenceDate(search.selector.asOf);
      const policy = resolvePolicy({ ...search.policy, referenceDate });
      const result = filterOffers({
        catalog: index,
        requirement,
        policy,
        currency: search.currency,
        limit: page.limit ?? DEFAULT_PAGE_SIZE,
        after: cursor?.k ?? null,
      });
      const nextCursor = result.nextAfter ? encodeCursor({ v: version.id, k: result.nextAfter, f: fingerprint, d: referenceDate }) : null;
      const exchangeRate = exchangeRateUsed({
        fxRates: index.fxRates,
        currency: search.currency,
        priceCurrencies: result.items.map((i) => i.offer.currency),
        referenceDate,
      });
      return { version, page: result, nextCursor, exchangeRate };
    } catch (error) {
      throw toAppError(error, '', search.fieldNames);
    }
  }

  async cheapest(
    search: OfferSearch,
    options: { limit?: number; explain?: boolean },
  ): Promise<{ version: CatalogVersionInfo; result: CheapestResult; warnings: string[]; exchangeRate: ExchangeRateUsed | null }> {
    const { version, index } = await this.catalog.indexedSnapshot(search.selector);
    try {
      const referenceDate = priceReferenceDate(search.selector.asOf);
      const result = findCheapestCompliant({
        catalog: index,
        requirement: this.requirement(search),
        policy: resolvePolicy({ ...search.policy, referenceDate }),
        currency: search.currency,
        limit: options.limit ?? DEFAULT_LIMIT,
        explain: options.explain ?? false,
        discounts: resolveDiscounts(search.discounts),
      });
      const warnings = priceQualityWarnings(
        result.items.map((i) => i.offer),
        { referenceDate, staleAfterDays: this.config.STALE_PRICE_DAYS },
      );
      const shown = [...result.items, ...result.excluded, ...result.nearestMisses];
      const exchangeRate = exchangeRateUsed({
        fxRates: index.fxRates,
        currency: search.currency,
        priceCurrencies: shown.map((i) => i.offer.currency),
        referenceDate,
      });
      const staleFx = staleExchangeRateWarning(exchangeRate, this.config.STALE_FX_DAYS);
      if (staleFx) warnings.push(staleFx);
      return { version, result, warnings, exchangeRate };
    } catch (error) {
      throw toAppError(error, '', search.fieldNames);
    }
  }

  private requirement(search: OfferSearch): GpuRequirement {
    const { model, ...rest } = search.requirement;
    const requirement = resolveRequirement(rest);
    if (!model) return requirement;
    const modelNeedGb = memoryPerGpuForModel(model, requirement.gpuCount);
    const explicit = requirement.minGpuMemoryGb?.toNumber() ?? 0;
    return resolveRequirement({ ...rest, minGpuMemoryGb: Math.max(explicit, modelNeedGb).toFixed(2) });
  }
}

/**
 * Memory per GPU that one replica of `model` needs, with the weights and KV cache split over
 * `gpuCount` GPUs (tensor parallel) when the requirement names a count.
 */
export function memoryPerGpuForModel(need: ModelNeed, gpuCount: number | null): number {
  const { precision = 'FP16', contextTokens = DEFAULT_CONTEXT_TOKENS, preset, ...shape } = need;
  if (!isPrecision(precision)) throw new PolicyError('model.precision', `unknown precision ${precision}`);
  if ((preset === undefined) === (shape.parametersB === undefined)) throw new PolicyError('model', 'give either a model preset or parametersB');
  // With a null or empty preset, parametersB may be missing: resolveModel then
  // answers on model.parametersB, as for any unusable size (NaN, like undefined, is not a positive number).
  const input = (preset ? { preset } : { ...shape, parametersB: shape.parametersB ?? NaN }) as SizingModelInput;
  const resolved = resolveModel({ model: input });
  if (!resolved.ok) throw new PolicyError(resolved.field, resolved.reason);
  const oneGpuGb = requiredGpuMemoryGb({ model: resolved.model, precision, contextTokens });
  const t = Math.max(1, gpuCount ?? 1);
  // oneGpuGb = (weights + kv + overhead) / usable; split weights + kv over t GPUs.
  const overheadGb = RUNTIME_OVERHEAD_GB_PER_GPU / USABLE_MEMORY_FRACTION;
  return (oneGpuGb - overheadGb) / t + overheadGb;
}

interface Cursor {
  v: string;
  k: string;
  f: string;
  /** The reference date of price ages (maxPriceAgeDays) the first page used. */
  d?: string;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(raw: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    if (typeof c.v === 'string' && typeof c.k === 'string' && typeof c.f === 'string' && (c.d === undefined || /^\d{4}-\d{2}-\d{2}$/.test(c.d))) return c;
  } catch {
    // fall through
  }
  throw badInput('OFFERS.CURSOR_INVALID', [{ field: 'cursor', message: 'is not a cursor this service issued' }]);
}

function searchFingerprint(search: OfferSearch): string {
  const { selector: _selector, fieldNames: _fieldNames, ...rest } = search;
  return createHash('sha1').update(JSON.stringify(rest)).digest('base64url').slice(0, 12);
}
