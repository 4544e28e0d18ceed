// What a live price source is: one small module per provider feed that fetches the provider's own
// price data and turns it into catalog offer rows (the same rows a catalog file holds, every value
// as text), which then go through the import path like a file would (catalog-import.service.ts).
import type { InterruptionRate, SourceKind } from '../../domain/catalog/catalog.types.js';
import { PRICING_MODEL_TRAITS } from '../../domain/catalog/pricing-model-traits.js';
import type { HttpClient } from './http-client.js';

/** An offer row as catalog files write it (src/domain/catalog/catalog-rows.ts): every scalar as text. */
export interface SyncOfferRow {
  provider: string;
  region: string;
  gpu: string;
  gpuCount: string;
  instanceType: string;
  pricingModel: 'ON_DEMAND' | 'SPOT' | 'RESERVED_1Y' | 'RESERVED_3Y';
  pricePerHour: string;
  currency: 'USD' | 'EUR';
  upfront?: string;
  termMonths?: string;
  interruptionNoticeSeconds?: string;
  /** Spot: the interruption-frequency band (`<5%`, `5-10%`, ...). */
  interruptionRate?: InterruptionRate;
  priceKind: 'LIST';
  /** The exact URL read (the page the row came from). */
  source: string;
  sourceTitle?: string;
  /** The day the fetch ran (UTC). */
  observedAt: string;
  conversion?: string;
  /** Stamped by the sync from the source's sourceKind. */
  sourceKind?: SourceKind;
}

/** The FX a source reads (ecb): the catalog section's `fx`. */
export interface SyncFx {
  base: 'USD';
  rates: { EUR: string };
  date: string;
  source: string;
}

export interface SourceResult {
  offers: SyncOfferRow[];
  fx?: SyncFx;
  /** Items read from the feed (before filtering). */
  rowsRead: number;
  pages: number;
  /** Why items were left out, with counts (Windows, Low Priority, not a GPU size, ...). */
  skipped: Record<string, number>;
}

export interface SourceContext {
  /** The endpoint: PRICE_SOURCE_<NAME>_URL or the source's default. */
  url: string;
  /** When the sync started; observedAt of every row. */
  now: Date;
  http: HttpClient;
  env: NodeJS.ProcessEnv;
  /**
   * The region codes the current catalog version has for the source's provider (`aws:eu-west-1`),
   * set by the sync: a source that reads one file per region (aws) reads only these.
   */
  regions?: readonly string[];
}

export interface PriceSource {
  name: string;
  /** The catalog provider whose offers the source replaces; null for a source of FX only. */
  provider: string | null;
  defaultUrl: string;
  /**
   * The pricing models the feed covers, when it does not cover all of the provider's: the sync then
   * replaces only the provider's offers of these models and keeps the others (its reserved offers
   * from another source, say). Absent: the source replaces all of the provider's offers.
   */
  pricingModels?: readonly SyncOfferRow['pricingModel'][];
  /**
   * What kind of source the feed is, stamped on every row it brings: PROVIDER_API for the
   * provider's own price API, MIRROR for a third party's copy of it (SkyPilot's catalog).
   */
  sourceKind?: Exclude<SourceKind, 'ANNOUNCEMENT'>;
  /**
   * Endpoints the source reads besides `url` (aws-spot's Spot Instance Advisor), as configured:
   * their origins are the only others the source's requests may reach.
   */
  otherEndpoints?(env: NodeJS.ProcessEnv): string[];
  /** Environment variables the source needs; without them it is skipped with one line. */
  requiredEnv?: string[];
  fetch(context: SourceContext): Promise<SourceResult>;
}

/** The feed is not what the source expects (a field missing, a unit it does not know). */
export class SourceShapeError extends Error {
  constructor(
    readonly source: string,
    readonly page: string,
    readonly item: string | null,
    detail: string,
  ) {
    super(`${source}: unexpected response shape at ${page}${item === null ? '' : `, item ${item}`}: ${detail}`);
    this.name = 'SourceShapeError';
  }
}

/** The environment variable that overrides a source's endpoint: PRICE_SOURCE_AZURE_URL. */
export function urlVariable(name: string): string {
  return `PRICE_SOURCE_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_URL`;
}

export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * A reservation's term, from the catalog's own pricing-model traits: its months, and the hours a
 * price for the whole term is spread over (365-day years: 8,760 h a year), as the feeds that quote
 * a term's total (Azure's Reservation, AWS's All Upfront fee) need it.
 */
export function reservationTerm(model: 'RESERVED_1Y' | 'RESERVED_3Y'): { model: typeof model; months: number; hours: number } {
  const months = PRICING_MODEL_TRAITS[model].termMonths;
  return { model, months, hours: (months / 12) * 8_760 };
}

export function countSkip(skipped: Record<string, number>, reason: string): void {
  skipped[reason] = (skipped[reason] ?? 0) + 1;
}
