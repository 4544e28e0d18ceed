// How fresh each live price source is: catalog:sync records every attempt (table
// catalog_source_syncs, price-feeds/source-sync.repository.ts); /metrics and /health/ready read it
// back here, read-only. A stale source is a warning, never an outage: the catalog still answers
// with the prices it has, each with its observedAt.
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { CatalogRepository } from './catalog.repository.js';

export interface SourceFreshness {
  source: string;
  provider: string | null;
  lastAttemptAt: Date;
  lastSuccessAt: Date | null;
  offers: number;
  lastError: string | null;
}

export interface SourceFreshnessView {
  lastSuccessAt: string | null;
  lastAttemptAt: string;
  offers: number;
  /** No success within CATALOG_SOURCE_STALE_HOURS (or never). */
  stale: boolean;
  lastError: string | null;
}

/** Freshness is read on every readiness probe and scrape: the table is asked at most this often. */
export const FRESHNESS_CACHE_MS = 5_000;

@Injectable()
export class SourceFreshnessService {
  private cached: { at: number; rows: Promise<SourceFreshness[]> } | null = null;
  private lastKnown: SourceFreshness[] = [];

  constructor(
    private readonly repository: CatalogRepository,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'CATALOG_SOURCE_STALE_HOURS'>,
  ) {}

  /** Every source that was ever synced; the last rows read when the database does not answer. */
  async list(): Promise<SourceFreshness[]> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at >= FRESHNESS_CACHE_MS) {
      const rows = this.repository.findSourceSyncs().then(
        (r) => (this.lastKnown = r),
        () => this.lastKnown,
      );
      this.cached = { at: now, rows };
    }
    return this.cached.rows;
  }

  /** Per source, for /health/ready. */
  async view(now = new Date()): Promise<Record<string, SourceFreshnessView>> {
    const limitMs = this.config.CATALOG_SOURCE_STALE_HOURS * 3_600_000;
    return Object.fromEntries(
      (await this.list()).map((r) => [
        r.source,
        {
          lastSuccessAt: r.lastSuccessAt?.toISOString() ?? null,
          lastAttemptAt: r.lastAttemptAt.toISOString(),
          offers: r.offers,
          stale: r.lastSuccessAt === null || now.getTime() - r.lastSuccessAt.getTime() > limitMs,
          lastError: shownError(r.lastError),
        },
      ]),
    );
  }
}

/**
 * What readiness shows of a failure: the error class and HTTP status the sync records
 * (price-feeds/catalog-sync.service.ts, failureOf). A row written by an older sync with free text in it shows
 * as "Failed": that text may quote a feed's answer.
 */
function shownError(lastError: string | null): string | null {
  if (lastError === null) return null;
  return /^[A-Za-z]+( \([A-Za-z0-9_ ]*\))?$/.test(lastError) ? lastError : 'Failed';
}
