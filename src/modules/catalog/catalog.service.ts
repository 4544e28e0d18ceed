// Catalog reads: which version answers a request, and that version's content. Versions are
// immutable, so loaded contents are cached by version id and never go stale; only "which
// version is current" changes. Every instance polls the publication log (CATALOG_REFRESH_MS,
// default 1 s), so a publish by an admin script reaches all instances within about a second;
// the new current version is loaded and indexed before requests ask for it. When PostgreSQL is
// unreachable, requests for the current version are still answered from memory (and marked so).
import { Inject, Injectable, Logger, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, TRACK_CURRENT_VERSION, type AppConfig } from '../../config/app-config.js';
import { diffCatalogs, type CatalogDiff } from '../../domain/catalog/catalog-diff.js';
import type { CatalogContent, CatalogVersionInfo } from '../../domain/catalog/catalog.types.js';
import { indexCatalog, type CatalogIndex } from '../../domain/compliance/index.js';
import { AppError, badInput, notFound } from '../../common/errors/app-error.js';
import { CatalogRepository } from './catalog.repository.js';

const AS_OF_MIN = new Date('1970-01-01T00:00:00Z');
const AS_OF_MAX = new Date('9999-12-31T23:59:59.999Z');

export interface VersionSelector {
  /** Version id or label. */
  version?: string;
  /** ISO timestamp: the version that was current then. */
  asOf?: Date;
}

export interface CatalogSnapshot {
  version: CatalogVersionInfo;
  content: CatalogContent;
}

const MAX_CACHED_VERSIONS = 4;


/**
 * A small LRU of promises keyed by immutable version id; a failed load is not kept, and `pinned`
 * (the current version) is never evicted, so reads of old versions cannot push it out of memory.
 */
function cached<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>, pinned?: string): Promise<T> {
  let hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  hit = load();
  hit.catch(() => cache.delete(key));
  cache.set(key, hit);
  for (const candidate of cache.keys()) {
    if (cache.size <= MAX_CACHED_VERSIONS) break;
    if (candidate !== pinned) cache.delete(candidate);
  }
  return hit;
}

@Injectable()
export class CatalogService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(CatalogService.name);
  private readonly contents = new Map<string, Promise<CatalogContent>>();
  private readonly indexes = new Map<string, Promise<CatalogIndex>>();
  private current: CatalogVersionInfo | null = null;
  private databaseReachable = true;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repository: CatalogRepository,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'CATALOG_REFRESH_MS'>,
    /** The API tracks and preloads the current version; the admin scripts just ask the database. */
    @Optional() @Inject(TRACK_CURRENT_VERSION) private readonly tracking: boolean = false,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.tracking) return;
    await this.refreshCurrent();
    this.timer = setInterval(() => void this.refreshCurrent(), this.config.CATALOG_REFRESH_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** True while the last look at the publication log failed: answers come from memory. */
  get servingFromCache(): boolean {
    return !this.databaseReachable && this.current !== null;
  }

  /** Reads the current version pointer; on a change, loads and indexes the new version. */
  async refreshCurrent(): Promise<void> {
    try {
      const id = await this.repository.findCurrentVersionId();
      if (!this.databaseReachable) this.logger.log('PostgreSQL is reachable again');
      this.databaseReachable = true;
      if (id === null || id === this.current?.id) return;
      const version = await this.repository.findVersion(id);
      if (!version) return;
      await this.index(version);
      if (this.current) this.logger.log(`Current catalog version is now ${version.label}`);
      this.current = version;
    } catch (error) {
      if (this.databaseReachable) this.logger.warn(`PostgreSQL unreachable; serving the current catalog from memory (${(error as Error).message})`);
      this.databaseReachable = false;
    }
  }

  listVersions(): Promise<CatalogVersionInfo[]> {
    return this.repository.findVersions();
  }

  async resolveVersion(selector: VersionSelector = {}): Promise<CatalogVersionInfo> {
    if (selector.version !== undefined && selector.asOf !== undefined) {
      throw new AppError('CATALOG.AMBIGUOUS_VERSION', 'BAD_INPUT', 'give either version or asOf, not both', [
        { field: 'asOf', message: 'cannot be combined with version' },
      ]);
    }
    if (selector.version !== undefined) {
      const found = await this.repository.findVersion(selector.version);
      if (!found) throw notFound('CATALOG.VERSION_NOT_FOUND', `catalog version "${selector.version}" does not exist`);
      return found;
    }
    if (selector.asOf !== undefined) {
      // PostgreSQL's timestamptz spans 4713 BC to 294276 AD; a catalog has no versions before 1970.
      const t = selector.asOf.getTime();
      if (!(t >= AS_OF_MIN.getTime() && t <= AS_OF_MAX.getTime())) {
        throw badInput('REQUEST.INVALID', [{ field: 'asOf', message: 'must be between 1970-01-01 and 9999-12-31' }]);
      }
      const found = await this.repository.findVersionCurrentAt(selector.asOf);
      if (!found) throw notFound('CATALOG.VERSION_NOT_FOUND', `no catalog version was current at ${selector.asOf.toISOString()}`);
      return found;
    }
    if (!this.tracking) {
      const current = await this.repository.findCurrentVersion();
      if (current) return current;
      throw new AppError('CATALOG.EMPTY', 'UNAVAILABLE', 'no catalog version has been published yet; run npm run db:seed');
    }
    if (!this.current) await this.refreshCurrent();
    if (this.current) return this.current;
    if (!this.databaseReachable) throw new AppError('DATABASE.UNAVAILABLE', 'UNAVAILABLE', 'the database is unavailable and no catalog is in memory yet');
    throw new AppError('CATALOG.EMPTY', 'UNAVAILABLE', 'no catalog version has been published yet; run npm run db:seed');
  }

  async snapshot(selector: VersionSelector = {}): Promise<CatalogSnapshot> {
    const version = await this.resolveVersion(selector);
    return { version, content: await this.content(version) };
  }

  content(version: CatalogVersionInfo): Promise<CatalogContent> {
    return cached(this.contents, version.id, async () => {
      const started = Date.now();
      const content = await this.repository.loadContent(version);
      this.logger.log(`Loaded catalog ${version.label} (${content.offers.length} offers) in ${Date.now() - started} ms`);
      return content;
    }, this.current?.id);
  }

  /** The version's offers indexed for compliance queries (built once per immutable version). */
  index(version: CatalogVersionInfo): Promise<CatalogIndex> {
    return cached(this.indexes, version.id, async () => indexCatalog(await this.content(version)), this.current?.id);
  }

  async indexedSnapshot(selector: VersionSelector = {}): Promise<CatalogSnapshot & { index: CatalogIndex }> {
    const version = await this.resolveVersion(selector);
    const [content, index] = await Promise.all([this.content(version), this.index(version)]);
    return { version, content, index };
  }

  async diff(fromRef: string, toRef: string): Promise<{ from: CatalogVersionInfo; to: CatalogVersionInfo; diff: CatalogDiff }> {
    const [from, to] = await Promise.all([this.resolveVersion({ version: fromRef }), this.resolveVersion({ version: toRef })]);
    const [a, b] = await Promise.all([this.content(from), this.content(to)]);
    return { from, to, diff: diffCatalogs({ from: a, to: b }) };
  }
}
