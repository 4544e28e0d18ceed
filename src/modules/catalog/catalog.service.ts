// Catalog reads: which version answers a request, and that version's content. Versions are
// immutable, so loaded contents are cached by version id and never go stale; only "which
// version is current" changes. A publish is pushed to every instance (PostgreSQL NOTIFY, which
// each instance LISTENs for: publication-listener.ts), and each instance also polls the
// publication log (CATALOG_REFRESH_MS, default 1 s), which delivers it when that connection is
// lost. Either way the new current version is loaded and indexed before requests ask for it. When PostgreSQL is
// unreachable, requests for the current version are still answered from memory (and marked so).
import { Inject, Injectable, Logger, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, TRACK_CURRENT_VERSION, type AppConfig } from '../../config/app-config.js';
import { diffCatalogs, type CatalogDiff } from '../../domain/catalog/catalog-diff.js';
import { compareReferenceFigures, type FigureComparison } from '../../domain/catalog/reference-figures.js';
import type { CatalogContent, CatalogVersionInfo } from '../../domain/catalog/catalog.types.js';
import { indexCatalog, type CatalogIndex } from '../../domain/compliance/index.js';
import { AppError, badInput, notFound } from '../../common/errors/app-error.js';
import { LRUCache } from 'lru-cache';
import { CatalogRepository } from './catalog.repository.js';
import { LISTEN_CLIENTS, PublicationListener, type ListenClientFactory } from './publication-listener.js';

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

/**
 * Memory a loaded version takes, estimated per offer (content ≈ 1 kB, index ≈ 2 kB). A probe that
 * read eight cold 100,000-offer versions saw RSS grow from 622 to 2,795 MB, about 270 MB (2.7 kB
 * per offer) each. Used to bound the cache by bytes.
 */
const CONTENT_BYTES_PER_OFFER = 1_000;
const INDEX_BYTES_PER_OFFER = 2_000;
/** Old versions loaded at once; more cold reads at the same time wait for none and get 503. */
const MAX_COLD_LOADS = 2;

/**
 * Loaded versions by immutable id. Concurrent requests share one load (also of a version too big
 * to keep); a failed load is dropped; old versions are evicted least recently used first once
 * their estimated size passes the budget; the current version, and the one about to become
 * current, are held outside that budget, so reads of old versions never push them out and a
 * publish never loads a version twice (the previous current one moves into the LRU).
 */
class VersionCache<T> {
  private readonly lru: LRUCache<string, Promise<T>>;
  private readonly pinned = new Map<string, Promise<T>>();
  private readonly inflight = new Map<string, Promise<T>>();
  private readonly sizes = new Map<string, number>();

  constructor(
    maxBytes: number,
    private readonly bytesPerOffer: number,
  ) {
    this.lru = new LRUCache<string, Promise<T>>({
      maxSize: Math.max(1, Math.floor(maxBytes)),
      sizeCalculation: (_value, key) => this.sizes.get(key) ?? 1,
      dispose: (_value, key) => {
        if (!this.pinned.has(key)) this.sizes.delete(key);
      },
    });
  }

  get(version: CatalogVersionInfo, pinIds: ReadonlySet<string>, load: () => Promise<T>, admitCold: () => () => void): Promise<T> {
    for (const [id, value] of this.pinned) {
      if (pinIds.has(id)) continue;
      this.pinned.delete(id);
      this.lru.set(id, value);
    }
    const { id } = version;
    this.sizes.set(id, Math.max(1, version.offerCount * this.bytesPerOffer));
    let hit = this.pinned.get(id) ?? this.lru.get(id) ?? this.inflight.get(id);
    if (!hit) {
      let release: () => void;
      try {
        release = admitCold();
      } catch (error) {
        return Promise.reject(error);
      }
      const promise = Promise.resolve().then(load).finally(release);
      hit = promise;
      this.inflight.set(id, promise);
      promise.then(
        () => this.inflight.delete(id),
        () => {
          this.inflight.delete(id);
          if (this.lru.peek(id) === promise) this.lru.delete(id);
          if (this.pinned.get(id) === promise) this.pinned.delete(id);
        },
      );
      // lru-cache refuses an entry larger than the whole budget: it is then shared while it
      // loads (inflight) and loaded again when asked for later.
      if (!pinIds.has(id)) this.lru.set(id, promise);
    }
    if (pinIds.has(id) && !this.pinned.has(id)) {
      this.pinned.set(id, hit);
      this.lru.delete(id);
    }
    return hit;
  }
}

@Injectable()
export class CatalogService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(CatalogService.name);
  private readonly contents: VersionCache<CatalogContent>;
  private readonly indexes: VersionCache<CatalogIndex>;
  private coldLoads = 0;
  /** The version refreshCurrent is loading to make current: never refused as a cold load. */
  private loadingCurrentId: string | null = null;
  private current: CatalogVersionInfo | null = null;
  /** Until the service listens (startedListening): indexes price in the base currency only. */
  private startingUp = true;
  private databaseReachable = true;
  private timer: NodeJS.Timeout | undefined;
  private listener: PublicationListener | null = null;

  constructor(
    private readonly repository: CatalogRepository,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'CATALOG_REFRESH_MS' | 'CATALOG_CACHE_MB'>,
    /** The API tracks and preloads the current version; the admin scripts just ask the database. */
    @Optional() @Inject(TRACK_CURRENT_VERSION) private readonly tracking: boolean = false,
    /** LISTEN connections: pg's unless a test provides a fake. */
    @Optional() @Inject(LISTEN_CLIENTS) private readonly listenClients?: ListenClientFactory,
  ) {
    // One budget, shared by contents and indexes in proportion to what each takes per offer.
    const bytes = config.CATALOG_CACHE_MB * 1024 * 1024;
    const share = CONTENT_BYTES_PER_OFFER / (CONTENT_BYTES_PER_OFFER + INDEX_BYTES_PER_OFFER);
    this.contents = new VersionCache(bytes * share, CONTENT_BYTES_PER_OFFER);
    this.indexes = new VersionCache(bytes * (1 - share), INDEX_BYTES_PER_OFFER);
  }

  /** The versions held outside the LRU: the current one and the one becoming current. */
  private pinIds(): ReadonlySet<string> {
    const ids = new Set<string>();
    if (this.current) ids.add(this.current.id);
    if (this.loadingCurrentId) ids.add(this.loadingCurrentId);
    return ids;
  }

  /** Admits one cold load of a version that is not current, or refuses (503) when enough are running. */
  private admitCold(version: CatalogVersionInfo): () => void {
    const isCurrent = version.id === this.current?.id || version.id === this.loadingCurrentId || !this.tracking;
    if (!isCurrent && this.coldLoads >= MAX_COLD_LOADS) {
      throw new AppError('CATALOG.BUSY', 'UNAVAILABLE', `other catalog versions are being loaded; retry ${version.label} shortly`);
    }
    this.coldLoads += 1;
    let released = false;
    return () => {
      if (!released) this.coldLoads -= 1;
      released = true;
    };
  }

  async onModuleInit(): Promise<void> {
    if (!this.tracking) return;
    await this.refreshCurrent();
    const target = this.repository.listenTarget();
    if (target) {
      this.listener = new PublicationListener(target.connectionString, target.connectTimeoutMs, () => void this.refreshCurrent(), this.listenClients);
      this.listener.start();
    }
    // The poll stays, LISTEN or not: it delivers a publish when the LISTEN connection is lost,
    // and it is what notices PostgreSQL going away (a frozen server leaves an idle LISTEN
    // connection open), which turns on answering from memory. One single-row query per interval.
    this.timer = setInterval(() => void this.refreshCurrent(), this.config.CATALOG_REFRESH_MS);
    this.timer.unref();
  }

  /**
   * Called once the service listens (serve.ts): prices in the other currencies of the current
   * version, left out of the start (about a tenth of it on 100,000 offers), are computed now.
   */
  async startedListening(): Promise<void> {
    this.startingUp = false;
    if (this.current) (await this.index(this.current)).warmCurrencies();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.listener?.stop();
  }

  /** Whether publishes arrive pushed (LISTEN) rather than polled, for /health/ready. */
  get publishesPushed(): boolean {
    return this.listener?.listening ?? false;
  }

  /** The version "current" requests are answered from right now, if one is loaded (no I/O). */
  get currentVersionId(): string | null {
    return this.current?.id ?? null;
  }

  /** True while the last look at the publication log failed: answers come from memory. */
  get servingFromCache(): boolean {
    return !this.databaseReachable && this.current !== null;
  }

  private refreshing: Promise<void> | null = null;

  private refreshAgain = false;

  /**
   * Reads the current version pointer; on a change, loads and indexes the new version. One at a
   * time; asked again meanwhile (a NOTIFY during a refresh), it reads the pointer once more after.
   */
  refreshCurrent(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = this.refreshOnce().finally(() => {
      this.refreshing = null;
      if (!this.refreshAgain) return;
      this.refreshAgain = false;
      void this.refreshCurrent();
    });
    return this.refreshing;
  }

  private async refreshOnce(): Promise<void> {
    try {
      const id = await this.repository.findCurrentVersionId();
      if (!this.databaseReachable) this.logger.log('PostgreSQL is reachable again');
      this.databaseReachable = true;
      if (id === null || id === this.current?.id) return;
      const version = await this.repository.findVersion(id, id);
      if (!version) return;
      this.loadingCurrentId = version.id;
      await this.index(version).finally(() => (this.loadingCurrentId = null));
      if (this.current) this.logger.log(`Current catalog version is now ${version.label}`);
      this.current = version;
    } catch (error) {
      // A busy pool or a slow query under load is not an outage: ask on a connection of its own.
      if (await this.repository.ping()) {
        this.logger.debug(`Looking at the publication log failed under load (${(error as Error).message}); PostgreSQL answers`);
        return;
      }
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
      // The current version by id or label needs no database (and so works in an outage).
      const current = this.current;
      if (current && (current.id === selector.version || current.label === selector.version)) return current;
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

  /** Reference figures against the version's list prices: computed once per loaded version (versions are immutable). */
  async referenceFigures(selector: VersionSelector = {}): Promise<{ version: CatalogVersionInfo; comparisons: FigureComparison[] }> {
    const { version, content } = await this.snapshot(selector);
    let comparisons = this.figureComparisons.get(content);
    if (!comparisons) {
      comparisons = compareReferenceFigures(content);
      this.figureComparisons.set(content, comparisons);
    }
    return { version, comparisons };
  }

  private readonly figureComparisons = new WeakMap<CatalogContent, FigureComparison[]>();

  async snapshot(selector: VersionSelector = {}): Promise<CatalogSnapshot> {
    const version = await this.resolveVersion(selector);
    return { version, content: await this.content(version) };
  }

  content(version: CatalogVersionInfo): Promise<CatalogContent> {
    return this.contents.get(
      version,
      this.pinIds(),
      async () => {
        const started = Date.now();
        const content = await this.repository.loadContent(version);
        this.logger.log(`Loaded catalog ${version.label} (${content.offers.length} offers) in ${Date.now() - started} ms`);
        return content;
      },
      () => this.admitCold(version),
    );
  }

  /** The version's offers indexed for compliance queries (built once per immutable version). */
  index(version: CatalogVersionInfo): Promise<CatalogIndex> {
    return this.indexes.get(
      version,
      this.pinIds(),
      async () => indexCatalog(await this.content(version), { warm: !this.startingUp }),
      () => () => undefined,
    );
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
