// Offer listing and the cheapest compliant offer: one service for REST and GraphQL. The work is
// done by the compliance core over the version's in-memory index; this maps inputs and errors.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { CatalogVersionInfo } from '../../domain/catalog/catalog.types.js';
import {
  DEFAULT_LIMIT,
  filterOffers,
  findCheapestCompliant,
  PolicyError,
  noConfirmedOfferWarning,
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
  private readonly cursors: CursorSigner;

  constructor(
    private readonly catalog: CatalogService,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'STALE_PRICE_DAYS' | 'STALE_FX_DAYS' | 'CURSOR_SIGNING_KEY'>,
  ) {
    // Without a configured key, one per process: its cursors die with it (docs/operations.md).
    this.cursors = new CursorSigner(config.CURSOR_SIGNING_KEY ?? randomBytes(32));
  }

  async list(
    search: OfferSearch,
    page: { limit?: number; cursor?: string },
  ): Promise<{ version: CatalogVersionInfo; page: OfferPage; nextCursor: string | null; exchangeRate: ExchangeRateUsed | null }> {
    // REST calls it `cursor`, GraphQL `after`.
    const cursorField = search.fieldNames?.after ?? 'cursor';
    const cursor = page.cursor ? this.cursors.decode(page.cursor, cursorField) : null;
    const fingerprint = searchFingerprint(search);
    if (cursor && cursor.f !== fingerprint) {
      throw badInput('OFFERS.CURSOR_MISMATCH', [{ field: cursorField, message: 'belongs to a query with other filters or currency; start again without it' }]);
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
        sort: search.sort,
      });
      const nextCursor = result.nextAfter ? this.cursors.encode({ v: version.id, k: result.nextAfter, f: fingerprint, d: referenceDate }) : null;
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
      const noConfirmed = noConfirmedOfferWarning(result.items[0]?.offer);
      const warnings = [
        ...(noConfirmed ? [noConfirmed] : []),
        ...priceQualityWarnings(
          result.items.map((i) => i.offer),
          { referenceDate, staleAfterDays: this.config.STALE_PRICE_DAYS },
        ),
      ];
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

/**
 * Cursors are `<payload>.<signature>`: the payload base64url JSON, the signature HMAC-SHA256 of
 * it under the service's key. A cursor names a version, a position and the filters' fingerprint;
 * unsigned, anyone could write one that pins another version or skips the fingerprint check. The
 * signature is compared in constant time, so its bytes cannot be found one at a time.
 */
class CursorSigner {
  constructor(private readonly key: string | Buffer) {}

  encode(c: Cursor): string {
    const payload = Buffer.from(JSON.stringify(c)).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  decode(raw: string, field: string): Cursor {
    const dot = raw.lastIndexOf('.');
    const payload = raw.slice(0, dot);
    const given = Buffer.from(raw.slice(dot + 1));
    const expected = Buffer.from(this.sign(payload));
    // The lengths are public (a signature's is fixed); timingSafeEqual needs them equal.
    if (dot > 0 && given.length === expected.length && timingSafeEqual(given, expected)) {
      try {
        const c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Cursor;
        if (typeof c.v === 'string' && typeof c.k === 'string' && typeof c.f === 'string' && (c.d === undefined || /^\d{4}-\d{2}-\d{2}$/.test(c.d))) return c;
      } catch {
        // fall through: signed by this key, yet not a cursor
      }
    }
    throw badInput('OFFERS.CURSOR_INVALID', [
      { field, message: 'is not a cursor this service issued (altered, forged, or signed with another key); start again without it' },
    ]);
  }

  private sign(payload: string): string {
    // The prefix keeps these signatures apart from any other token the same key may sign one day.
    return createHmac('sha256', this.key).update(`offers-cursor.v1.${payload}`).digest('base64url');
  }
}

function searchFingerprint(search: OfferSearch): string {
  const { selector: _selector, fieldNames: _fieldNames, ...rest } = search;
  return createHash('sha1').update(JSON.stringify(rest)).digest('base64url').slice(0, 12);
}
