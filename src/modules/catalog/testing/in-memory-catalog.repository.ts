// CatalogRepository's reads (and a publish, as catalog-admin's writer does it), held in memory, for unit tests of the services above it.
// Same meanings as the SQL: a version by id or label; the current version is the one published
// last; "current at" is the newest publication at or before an instant; publishedAt is a
// version's first publication. Knobs stand in for what PostgreSQL does to a service: slow or
// failing loads, a publication log that cannot be read, a server that does not answer at all.
// Writing versions (COPY into staging tables) is left to the integration tests.
import type { CatalogContent, CatalogVersionInfo } from '../../../domain/catalog/catalog.types.js';
import { makeCatalog, TEST_FX_RATES } from '../../../domain/compliance/testing/factories.js';
import type { CatalogRepository, StoredOffer } from '../catalog.repository.js';

type CatalogReads = Pick<
  CatalogRepository,
  | 'ping'
  | 'listenTarget'
  | 'findCurrentVersionId'
  | 'findVersions'
  | 'findVersion'
  | 'findCurrentVersion'
  | 'findVersionCurrentAt'
  | 'findLatestVersion'
  | 'loadContent'
  | 'findOfferHistory'
  | 'findGpuOfferRows'
>;

type StoredVersion = Omit<CatalogVersionInfo, 'current' | 'publishedAt'>;

/** What a test may set on a new version; the rest (id, seq, label v<seq>, ...) has defaults. */
export type NewTestVersion = Partial<StoredVersion> & { content?: CatalogContent };

/** A readable uuid for version `seq`: 00000000-0000-4000-8000-000000000007. */
export const testVersionId = (seq: number): string => `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`;

export class InMemoryCatalogRepository implements CatalogReads {
  /** Labels of the versions whose content was loaded, in order. */
  loads: string[] = [];
  /** Database round trips to find a version (by ref, by instant, the current one). */
  lookups = 0;
  /** False: PostgreSQL does not answer a connection of its own (ping), i.e. an outage. */
  reachable = true;
  /** True: reading the publication log fails (a busy pool; an outage too when `reachable` is false). */
  failPointerReads = false;
  /** While set, loads wait for it, so that concurrent readers can be seen sharing one load. */
  gate: Promise<void> | null = null;
  /** The next load fails, once. */
  failNextLoad = false;
  /** Where the service LISTENs for publishes (with a fake: fake-listen-server.ts); null: it only polls. */
  listenAt: ReturnType<CatalogRepository['listenTarget']> = null;

  private readonly versions: { info: StoredVersion; content: CatalogContent }[] = [];
  private readonly publications: { versionId: string; publishedAt: Date }[] = [];

  /** Stores an unpublished version. offerCount defaults to the content's offers. */
  addVersion({ content = makeCatalog(), ...overrides }: NewTestVersion = {}): CatalogVersionInfo {
    const seq = overrides.seq ?? this.versions.length + 1;
    const info: StoredVersion = {
      id: testVersionId(seq),
      seq,
      label: `v${seq}`,
      source: 'test',
      notes: null,
      checksum: `checksum-${seq}`,
      createdAt: new Date('2026-01-01T00:00:00Z'),
      offerCount: content.offers.length,
      rowsWritten: content.offers.length,
      fxRates: content.fxRates ?? TEST_FX_RATES,
      providerObservations: null,
      ...overrides,
    };
    this.versions.push({ info, content });
    return this.toInfo(info);
  }

  /** Makes a version current at `publishedAt` (a rollback is publishing an older one again). */
  publishAt(versionId: string, publishedAt: Date): void {
    if (!this.versions.some((v) => v.info.id === versionId)) throw new Error(`no version ${versionId} (foreign key violation)`);
    this.publications.push({ versionId, publishedAt });
  }

  async publish(versionId: string): Promise<void> {
    this.publishAt(versionId, new Date());
  }

  async ping(): Promise<boolean> {
    return this.reachable;
  }

  listenTarget(): ReturnType<CatalogRepository['listenTarget']> {
    return this.listenAt;
  }

  async findCurrentVersionId(): Promise<string | null> {
    if (this.failPointerReads) throw new Error('timeout exceeded when trying to connect');
    return this.publications.at(-1)?.versionId ?? null;
  }

  async findVersions(): Promise<CatalogVersionInfo[]> {
    return [...this.versions].sort((a, b) => b.info.seq - a.info.seq).map((v) => this.toInfo(v.info));
  }

  async findVersion(ref: string): Promise<CatalogVersionInfo | null> {
    this.lookups += 1;
    const found = this.versions.find((v) => v.info.id === ref || v.info.label === ref);
    return found ? this.toInfo(found.info) : null;
  }

  async findCurrentVersion(): Promise<CatalogVersionInfo | null> {
    const id = await this.findCurrentVersionId();
    return id ? this.findVersion(id) : null;
  }

  async findVersionCurrentAt(at: Date): Promise<CatalogVersionInfo | null> {
    // The last one logged wins a tie, as ORDER BY published_at DESC, id DESC does.
    const before = this.publications.filter((p) => p.publishedAt.getTime() <= at.getTime());
    const newest = before.reduce<(typeof before)[number] | null>((best, p) => (!best || p.publishedAt >= best.publishedAt ? p : best), null);
    return newest ? this.findVersion(newest.versionId) : null;
  }

  async findLatestVersion(): Promise<CatalogVersionInfo | null> {
    const latest = [...this.versions].sort((a, b) => b.info.seq - a.info.seq)[0];
    return latest ? this.toInfo(latest.info) : null;
  }

  async loadContent(version: Pick<CatalogVersionInfo, 'id' | 'seq' | 'fxRates'>): Promise<CatalogContent> {
    const stored = this.versions.find((v) => v.info.seq === version.seq);
    if (!stored) throw new Error(`no version with seq ${version.seq}`);
    this.loads.push(stored.info.label);
    if (this.gate) await this.gate;
    if (this.failNextLoad) {
      this.failNextLoad = false;
      throw new Error('boom');
    }
    // A fresh object per load, as rows read from the database would be.
    return { ...stored.content, fxRates: version.fxRates };
  }

  async findOfferHistory(keyHash: string): Promise<StoredOffer[]> {
    return this.rows((o) => o.keyHash === keyHash);
  }

  async findGpuOfferRows(gpuSlug: string): Promise<StoredOffer[]> {
    return this.rows((o) => o.gpuSlug === gpuSlug);
  }

  /** One stored row per version an offer is in (the database merges unchanged ones; the meaning is the same). */
  private rows(match: (offer: CatalogContent['offers'][number]) => boolean): StoredOffer[] {
    return this.versions.flatMap(({ info, content }) => content.offers.filter(match).map((offer) => ({ offer, validFrom: info.seq, validTo: info.seq + 1 })));
  }

  private toInfo(info: StoredVersion): CatalogVersionInfo {
    const own = this.publications.filter((p) => p.versionId === info.id);
    const first = own.reduce<Date | null>((min, p) => (min === null || p.publishedAt < min ? p.publishedAt : min), null);
    return { ...info, publishedAt: first, current: this.publications.at(-1)?.versionId === info.id };
  }
}
