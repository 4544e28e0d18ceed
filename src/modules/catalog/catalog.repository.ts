// All SQL of the catalog. Versions and reference data are read through Prisma. Offers, the bulk,
// go through the shared pg pool: read with one mapper (Prisma's row mapping took seconds at 100k
// offers), written by an import with COPY into staging tables (row inserts are several times
// slower than the COPY baseline it is measured against, BENCHMARKS.md).
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { canonicalJson, rowContentHash } from '../../domain/catalog/catalog-hash.js';
import { availabilityKey } from '../../domain/catalog/availability.js';
import {
  providerObservations,
  type Availability,
  type AvailabilityRecord,
  type CatalogContent,
  type CatalogVersionInfo,
  type FxRates,
  type GpuModel,
  type InterruptionRate,
  type Offer,
  type Provider,
  type ProviderObservations,
  type ReferenceFigure,
  type Region,
  type SourceKind,
} from '../../domain/catalog/catalog.types.js';
import { Decimal } from '../../domain/money/money.js';
import { PG_POOL } from '../../database/database.options.js';
import { PrismaService } from '../../database/prisma.service.js';
import { at, defined } from '../../domain/checked.js';

/** pg_advisory_xact_lock key that serialises catalog writes (imports and publishes). */
const CATALOG_WRITE_LOCK = 7_402_651;

type VersionRow = {
  id: string;
  seq: number;
  label: string;
  source: string;
  notes: string | null;
  checksum: string;
  createdAt: Date;
  fxRates: unknown;
  offerCount: number;
  rowsWritten: number;
  providerObservations: unknown;
  publications: { publishedAt: Date }[];
};

export interface NewVersion {
  label: string;
  source: string;
  notes: string | null;
  content: CatalogContent;
  checksum: string;
  /** sha256 of the imported files as read; lets an identical re-import skip parsing. */
  filesChecksum: string | null;
  publish: boolean;
  /**
   * The current version the content was diffed against (null: there was none). A publish is
   * refused when another version became current meanwhile, unless `force`: publishing would
   * silently revert what that version changed.
   */
  expectedCurrentId: string | null;
  force?: boolean;
  /** Progress callback for large imports: rows written so far. */
  onProgress?: (rows: number) => void;
}

export type WriteOutcome =
  | { status: 'created'; version: CatalogVersionInfo; rowsWritten: number; published: boolean }
  /** Identical to the newest version; `published` when it was not current and a publish was asked for. */
  | { status: 'unchanged'; version: CatalogVersionInfo; published: boolean }
  | { status: 'moved'; currentId: string | null };

/** How many rows each catalog table holds (for tests and the import benchmark). */
export type CatalogRowCounts = Record<'versions' | 'providers' | 'regions' | 'gpus' | 'offers' | 'referenceFigures' | 'availability', number>;

/** A database decimal as a Decimal; null stays null, so a NOT NULL column gives a Decimal. */
function dec(v: { toString(): string }): Decimal;
function dec(v: { toString(): string } | null): Decimal | null;
function dec(v: { toString(): string } | null): Decimal | null {
  return v === null ? null : new Decimal(v.toString());
}
const validAt = (seq: number) => ({ validFrom: { lte: seq }, OR: [{ validTo: null }, { validTo: { gt: seq } }] });

@Injectable()
export class CatalogRepository {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(PG_POOL) private readonly pool: pg.Pool,
  ) {}

  /**
   * Whether PostgreSQL answers at all, on a connection of its own (not from a busy pool), within
   * two seconds. Tells an outage from load.
   */
  async ping(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.pool.options.connectionString, connectionTimeoutMillis: 2_000, query_timeout: 2_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async findCurrentVersionId(): Promise<string | null> {
    return this.currentVersionId();
  }

  private async currentVersionId(): Promise<string | null> {
    const row = await this.prisma.catalogPublication.findFirst({ orderBy: { id: 'desc' }, select: { versionId: true } });
    return row?.versionId ?? null;
  }

  private toInfo(row: VersionRow, currentId: string | null): CatalogVersionInfo {
    const firstPublished = row.publications.reduce<Date | null>((min, p) => (min === null || p.publishedAt < min ? p.publishedAt : min), null);
    return {
      id: row.id,
      seq: row.seq,
      label: row.label,
      source: row.source,
      notes: row.notes,
      checksum: row.checksum,
      createdAt: row.createdAt,
      publishedAt: firstPublished,
      current: row.id === currentId,
      offerCount: row.offerCount,
      rowsWritten: row.rowsWritten,
      fxRates: row.fxRates as FxRates,
      providerObservations: (row.providerObservations ?? null) as ProviderObservations[] | null,
    };
  }

  private readonly versionSelect = {
    id: true,
    seq: true,
    label: true,
    source: true,
    notes: true,
    checksum: true,
    createdAt: true,
    fxRates: true,
    offerCount: true,
    rowsWritten: true,
    providerObservations: true,
    publications: { select: { publishedAt: true } },
  } as const;

  async findVersions(): Promise<CatalogVersionInfo[]> {
    const [rows, currentId] = await Promise.all([
      this.prisma.catalogVersion.findMany({ select: this.versionSelect, orderBy: { seq: 'desc' } }),
      this.currentVersionId(),
    ]);
    return rows.map((r) => this.toInfo(r, currentId));
  }

  /** By id (uuid) or label. */
  async findVersion(ref: string): Promise<CatalogVersionInfo | null> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref);
    const [row, currentId] = await Promise.all([
      this.prisma.catalogVersion.findFirst({ where: isUuid ? { OR: [{ id: ref }, { label: ref }] } : { label: ref }, select: this.versionSelect }),
      this.currentVersionId(),
    ]);
    return row ? this.toInfo(row, currentId) : null;
  }

  async findCurrentVersion(): Promise<CatalogVersionInfo | null> {
    const id = await this.currentVersionId();
    return id ? this.findVersion(id) : null;
  }

  /** The version that was current at `at`: the newest publication at or before it. */
  /** A version this repository has just written and committed. */
  private async findWrittenVersion(id: string): Promise<CatalogVersionInfo> {
    return defined(await this.findVersion(id), `the written catalog version ${id}`);
  }

  async findVersionCurrentAt(at: Date): Promise<CatalogVersionInfo | null> {
    const pub = await this.prisma.catalogPublication.findFirst({
      where: { publishedAt: { lte: at } },
      orderBy: [{ publishedAt: 'desc' }, { id: 'desc' }],
      select: { versionId: true },
    });
    return pub ? this.findVersion(pub.versionId) : null;
  }

  /** The newest version's id and the checksum of the files it was imported from. */
  async findLatestFilesChecksum(): Promise<{ versionId: string; filesChecksum: string | null } | null> {
    const row = await this.prisma.catalogVersion.findFirst({ orderBy: { seq: 'desc' }, select: { id: true, filesChecksum: true } });
    return row ? { versionId: row.id, filesChecksum: row.filesChecksum } : null;
  }

  async findLatestVersion(): Promise<CatalogVersionInfo | null> {
    const row = await this.prisma.catalogVersion.findFirst({ orderBy: { seq: 'desc' }, select: { id: true } });
    return row ? this.findVersion(row.id) : null;
  }

  async loadContent(version: Pick<CatalogVersionInfo, 'seq' | 'fxRates'>): Promise<CatalogContent> {
    const where = validAt(version.seq);
    const [providers, regions, gpus, offers, figures, availability] = await Promise.all([
      this.prisma.provider.findMany({ where, orderBy: { slug: 'asc' } }),
      this.prisma.region.findMany({ where, orderBy: { code: 'asc' } }),
      this.prisma.gpuModel.findMany({ where, orderBy: { slug: 'asc' } }),
      this.loadOffers(version.seq),
      this.prisma.referenceFigure.findMany({ where, orderBy: { key: 'asc' } }),
      this.prisma.availabilityRecord.findMany({ where, orderBy: { key: 'asc' } }),
    ]);
    return {
      fxRates: version.fxRates,
      providers: providers.map((p): Provider => ({
        slug: p.slug,
        name: p.name,
        kind: p.kind,
        headquartersCountry: p.headquartersCountry,
        slaPercent: dec(p.slaPercent),
        certifications: p.certifications,
        egressUsdPerGb: dec(p.egressUsdPerGb),
        website: p.website,
        source: p.source,
      })),
      regions: regions.map((r): Region => ({ code: r.code, providerSlug: r.providerSlug, name: r.name, city: r.city, country: r.country })),
      gpus: gpus.map((g): GpuModel => ({
        slug: g.slug,
        vendor: g.vendor,
        name: g.name,
        memoryGb: dec(g.memoryGb),
        memoryBandwidthGbps: dec(g.memoryBandwidthGbps),
        fp16Tflops: dec(g.fp16Tflops),
        int8Tops: dec(g.int8Tops),
        fp8Tflops: dec(g.fp8Tflops),
        fp8Support: g.fp8Support,
        source: g.source,
      })),
      offers,
      referenceFigures: figures.map((f): ReferenceFigure => ({
        key: f.key,
        claim: f.claim,
        metric: f.metric,
        value: dec(f.value),
        valueHigh: dec(f.valueHigh),
        currency: f.currency as ReferenceFigure['currency'],
        provider: f.provider,
        gpus: f.gpus,
        pricingModel: f.pricingModel,
        source: f.source,
        publishedOn: f.publishedOn.toISOString().slice(0, 10),
        note: f.note,
      })),
      availability: availability.map((a): AvailabilityRecord => ({
        provider: a.provider,
        instanceType: a.instanceType,
        regions: a.regions,
        listsEveryRegion: a.listsEveryRegion,
        pricingModels: a.pricingModels.length ? a.pricingModels : null,
        source: a.source,
        observedAt: a.observedAt.toISOString().slice(0, 10),
        note: a.note,
      })),
    };
  }

  /**
   * A version's offers through pg directly: at 100k offers Prisma's row mapping took seconds,
   * and this runs at start-up and on every publish. Decimals arrive as text, never as floats.
   */
  private async loadOffers(seq: number): Promise<Offer[]> {
    const rows = await this.queryOffers('valid_from <= $1 AND (valid_to IS NULL OR valid_to > $1) ORDER BY id', [seq]);
    return rows.map((r) => r.offer);
  }

  /** Stored offer rows matching `where` (SQL after WHERE, parameters $1...), with their version range. */
  private async queryOffers(where: string, values: unknown[]): Promise<StoredOffer[]> {
    const { rows } = await this.pool.query<Record<string, string | number | boolean | null>>({
      text: `SELECT key_hash, provider_slug, region_code, gpu_slug, gpu_count, instance_type, pricing_model, price_per_hour::text,
                    currency, upfront::text, term_months, serverless_unit_price::text, serverless_unit, interruption_notice_seconds, interruption_rate,
                    source_url, source_title, to_char(observed_at, 'YYYY-MM-DD') AS observed_at, price_kind, derivation, conversion,
                    source_kind, availability, availability_note, to_char(price_valid_from, 'YYYY-MM-DD') AS price_valid_from,
                    to_char(price_valid_until, 'YYYY-MM-DD') AS price_valid_until, valid_from, valid_to
             FROM offers WHERE ${where}`,
      values,
    });
    const decOrNull = (v: unknown): Decimal | null => (v === null ? null : new Decimal(v as string));
    return rows.map((r) => ({
      validFrom: r.valid_from as number,
      validTo: r.valid_to as number | null,
      offer: {
        keyHash: r.key_hash as string,
        providerSlug: r.provider_slug as string,
        regionCode: r.region_code as string,
        gpuSlug: r.gpu_slug as string,
        gpuCount: r.gpu_count as number,
        instanceType: r.instance_type as string,
        pricingModel: r.pricing_model as Offer['pricingModel'],
        pricePerHour: new Decimal(r.price_per_hour as string),
        currency: r.currency as Offer['currency'],
        upfront: decOrNull(r.upfront),
        termMonths: r.term_months as number | null,
        serverlessUnitPrice: decOrNull(r.serverless_unit_price),
        serverlessUnit: r.serverless_unit as string | null,
        interruptionNoticeSeconds: r.interruption_notice_seconds as number | null,
        ...(r.interruption_rate === null || r.interruption_rate === undefined ? {} : { interruptionRate: r.interruption_rate as InterruptionRate }),
        sourceUrl: r.source_url as string,
        sourceTitle: r.source_title as string | null,
        observedAt: r.observed_at as string,
        priceKind: r.price_kind as Offer['priceKind'],
        derivation: r.derivation as string | null,
        conversion: r.conversion as string | null,
        sourceKind: r.source_kind as SourceKind | null,
        availability: r.availability as Availability,
        availabilityNote: r.availability_note as string | null,
        validFrom: r.price_valid_from as string | null,
        validUntil: r.price_valid_until as string | null,
      },
    }));
  }

  /**
   * Writes a new version in one transaction, serialised with every other catalog write by an
   * advisory lock. Rows equal to the newest version's are not written again: they stay open
   * (valid_to null) and so belong to the new version too. Changed and removed rows are closed at
   * the new version's seq; new and changed rows are inserted from it.
   *
   * Stored content hashes and checksums come from the hash function of the code that wrote them.
   * So that a change of that function (catalog-hash.ts) never makes unchanged rows look changed,
   * open rows whose columns equal the new content's but whose stored hash differs get the new hash
   * first; and content equal to the newest version's is "unchanged" (no version written, its
   * checksum updated) even when the stored checksum differs.
   */
  async writeVersion(input: NewVersion): Promise<WriteOutcome> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL statement_timeout = 0');
      await client.query('SELECT pg_advisory_xact_lock($1)', [CATALOG_WRITE_LOCK]);
      const current = await client.query<{ version_id: string }>('SELECT version_id FROM catalog_publications ORDER BY id DESC LIMIT 1');
      const currentId = current.rows[0]?.version_id ?? null;
      if (input.publish && !input.force && currentId !== input.expectedCurrentId) {
        await client.query('ROLLBACK');
        return { status: 'moved', currentId };
      }
      const latest = (
        await client.query<{ id: string; checksum: string; fx_rates: unknown }>('SELECT id, checksum, fx_rates FROM catalog_versions ORDER BY seq DESC LIMIT 1')
      ).rows[0];
      const unchanged = async (newest: { id: string }): Promise<WriteOutcome> => {
        // Nothing new to write; a publish still makes that version current if it is not.
        const publish = input.publish && currentId !== newest.id;
        if (publish) await this.insertPublication(client, newest.id);
        await client.query('COMMIT');
        return { status: 'unchanged', version: await this.findWrittenVersion(newest.id), published: publish };
      };
      if (latest?.checksum === input.checksum) return await unchanged(latest);
      for (const table of TABLES) {
        await this.stageTable(client, table, table.rows(input.content), (n) => input.onProgress?.(n));
        await this.rehashEqualRows(client, table);
      }
      await client.query('SAVEPOINT new_version');
      const id = randomUUID();
      const { rows } = await client.query<{ seq: number }>(
        `INSERT INTO catalog_versions (id, label, source, notes, checksum, files_checksum, fx_rates, offer_count, rows_written, provider_observations)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9) RETURNING seq`,
        [
          id,
          input.label,
          input.source,
          input.notes,
          input.checksum,
          input.filesChecksum,
          JSON.stringify(input.content.fxRates),
          input.content.offers.length,
          JSON.stringify(providerObservations(input.content.offers)),
        ],
      );
      const seq = at(rows, 0).seq;
      let written = 0;
      let closed = 0;
      for (const table of TABLES) {
        const outcome = await this.applyTable(client, table, seq);
        written += outcome.inserted;
        closed += outcome.closed;
      }
      if (latest && written === 0 && closed === 0 && canonicalJson(latest.fx_rates) === canonicalJson(input.content.fxRates)) {
        // The newest version's content, under a checksum from an older hash function.
        await client.query('ROLLBACK TO SAVEPOINT new_version');
        await client.query('UPDATE catalog_versions SET checksum = $1 WHERE id = $2', [input.checksum, latest.id]);
        return await unchanged(latest);
      }
      await client.query('UPDATE catalog_versions SET rows_written = $1 WHERE id = $2', [written, id]);
      if (input.publish) await this.insertPublication(client, id);
      await client.query('COMMIT');
      return { status: 'created', version: await this.findWrittenVersion(id), rowsWritten: written, published: input.publish };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** COPYs the new content of a table into a staging table (dropped at commit). */
  private async stageTable(client: pg.PoolClient, table: TableSpec, rows: unknown[][], onProgress: (n: number) => void): Promise<void> {
    const stage = `stage_${table.name}`;
    const cols = table.columns.join(', ');
    await client.query(`CREATE TEMP TABLE ${stage} (LIKE ${table.name} INCLUDING DEFAULTS) ON COMMIT DROP`);
    await client.query(`ALTER TABLE ${stage} ALTER COLUMN id DROP NOT NULL, ALTER COLUMN valid_from DROP NOT NULL`);
    // COPY in chunks of 2,000 rows: one stream chunk per row costs more than the database work.
    const chunks = (function* () {
      for (let start = 0; start < rows.length; start += 2_000) {
        const end = Math.min(rows.length, start + 2_000);
        let chunk = '';
        for (let i = start; i < end; i++) chunk += `${at(rows, i).map(copyValue).join('\t')}\n`;
        yield chunk;
        if (end % 10_000 === 0 || end === rows.length) onProgress(end);
      }
    })();
    await pipeline(Readable.from(chunks), client.query(copyFrom(`COPY ${stage} (${cols}) FROM STDIN`)));
  }

  /**
   * Open rows whose every column equals the staged row of the same key but whose stored hash
   * differs were hashed by an older hash function: they get the new hash, so the comparison by
   * hash below sees them unchanged. Once every open row carries the current hash, nothing matches.
   */
  private async rehashEqualRows(client: pg.PoolClient, table: TableSpec): Promise<void> {
    const content = table.columns.filter((c) => c !== 'content_hash');
    await client.query(
      `UPDATE ${table.name} t SET content_hash = s.content_hash FROM stage_${table.name} s
       WHERE t.valid_to IS NULL AND t.${table.key} = s.${table.key} AND t.content_hash <> s.content_hash
         AND (${content.map((c) => `t.${c}`).join(', ')}) IS NOT DISTINCT FROM (${content.map((c) => `s.${c}`).join(', ')})`,
    );
  }

  /** Closes the open rows the staged content no longer has in the same form and inserts the new and changed ones. */
  private async applyTable(client: pg.PoolClient, table: TableSpec, seq: number): Promise<{ inserted: number; closed: number }> {
    const stage = `stage_${table.name}`;
    const cols = table.columns.join(', ');
    // Close what the new version no longer has in the same form...
    const closed = await client.query(
      `UPDATE ${table.name} t SET valid_to = $1 WHERE t.valid_to IS NULL AND NOT EXISTS (
         SELECT 1 FROM ${stage} s WHERE s.${table.key} = t.${table.key} AND s.content_hash = t.content_hash)`,
      [seq],
    );
    // ...and add what it has new or changed. Unchanged rows stay open and are not written.
    const inserted = await client.query(
      `INSERT INTO ${table.name} (${cols}, valid_from)
       SELECT ${table.columns.map((c) => `s.${c}`).join(', ')}, $1 FROM ${stage} s
       WHERE NOT EXISTS (SELECT 1 FROM ${table.name} t WHERE t.valid_to IS NULL AND t.${table.key} = s.${table.key} AND t.content_hash = s.content_hash)`,
      [seq],
    );
    return { inserted: inserted.rowCount ?? 0, closed: closed.rowCount ?? 0 };
  }

  private async insertPublication(client: pg.PoolClient, versionId: string, publishedBy?: string): Promise<void> {
    await client.query('INSERT INTO catalog_publications (version_id, published_by) VALUES ($1, $2)', [versionId, publishedBy ?? null]);
  }

  /** Makes a version current (also the way to roll back). */
  async publish(versionId: string, publishedBy?: string): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [CATALOG_WRITE_LOCK]);
      await this.insertPublication(client, versionId, publishedBy);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Every stored row of a GPU's offers, across all versions, with the versions it belongs to. */
  findGpuOfferRows(gpuSlug: string): Promise<StoredOffer[]> {
    return this.queryOffers('gpu_slug = $1 ORDER BY id', [gpuSlug]);
  }

  /** Versions in which an offer key had each of its prices: one row per stored offer row. */
  findOfferHistory(keyHash: string): Promise<StoredOffer[]> {
    return this.queryOffers('key_hash = $1 ORDER BY valid_from', [keyHash]);
  }

  async countRows(): Promise<CatalogRowCounts> {
    const [versions, providers, regions, gpus, offers, referenceFigures, availability] = await Promise.all([
      this.prisma.catalogVersion.count(),
      this.prisma.provider.count(),
      this.prisma.region.count(),
      this.prisma.gpuModel.count(),
      this.prisma.offer.count(),
      this.prisma.referenceFigure.count(),
      this.prisma.availabilityRecord.count(),
    ]);
    return { versions, providers, regions, gpus, offers, referenceFigures, availability };
  }
}

/** An offer row as stored: the offer and the versions it belongs to (validFrom <= seq < validTo). */
export interface StoredOffer {
  offer: Offer;
  validFrom: number;
  validTo: number | null;
}

interface TableSpec {
  name: string;
  key: string;
  columns: string[];
  rows(content: CatalogContent): unknown[][];
}

const TABLES: TableSpec[] = [
  {
    name: 'providers',
    key: 'slug',
    columns: ['slug', 'name', 'kind', 'headquarters_country', 'sla_percent', 'certifications', 'egress_usd_per_gb', 'website', 'source', 'content_hash'],
    rows: (c) =>
      c.providers.map((p) => [
        p.slug,
        p.name,
        p.kind,
        p.headquartersCountry,
        p.slaPercent,
        pgArray(p.certifications),
        p.egressUsdPerGb,
        p.website,
        p.source,
        rowContentHash(p),
      ]),
  },
  {
    name: 'regions',
    key: 'code',
    columns: ['code', 'provider_slug', 'name', 'city', 'country', 'content_hash'],
    rows: (c) => c.regions.map((r) => [r.code, r.providerSlug, r.name, r.city, r.country, rowContentHash(r)]),
  },
  {
    name: 'gpu_models',
    key: 'slug',
    columns: [
      'slug',
      'vendor',
      'name',
      'memory_gb',
      'memory_bandwidth_gbps',
      'fp16_tflops',
      'int8_tops',
      'fp8_tflops',
      'fp8_support',
      'source',
      'content_hash',
    ],
    rows: (c) =>
      c.gpus.map((g) => [
        g.slug,
        g.vendor,
        g.name,
        g.memoryGb,
        g.memoryBandwidthGbps,
        g.fp16Tflops,
        g.int8Tops,
        g.fp8Tflops,
        g.fp8Support,
        g.source,
        rowContentHash(g),
      ]),
  },
  {
    name: 'offers',
    key: 'key_hash',
    columns: [
      'key_hash',
      'content_hash',
      'provider_slug',
      'region_code',
      'gpu_slug',
      'gpu_count',
      'instance_type',
      'pricing_model',
      'price_per_hour',
      'currency',
      'upfront',
      'term_months',
      'serverless_unit_price',
      'serverless_unit',
      'interruption_notice_seconds',
      'interruption_rate',
      'source_url',
      'source_title',
      'observed_at',
      'price_kind',
      'derivation',
      'conversion',
      'source_kind',
      'availability',
      'availability_note',
      'price_valid_from',
      'price_valid_until',
    ],
    rows: (c) =>
      c.offers.map((o) => [
        o.keyHash,
        rowContentHash(o),
        o.providerSlug,
        o.regionCode,
        o.gpuSlug,
        o.gpuCount,
        o.instanceType,
        o.pricingModel,
        o.pricePerHour,
        o.currency,
        o.upfront,
        o.termMonths,
        o.serverlessUnitPrice,
        o.serverlessUnit,
        o.interruptionNoticeSeconds,
        o.interruptionRate ?? null,
        o.sourceUrl,
        o.sourceTitle,
        o.observedAt,
        o.priceKind,
        o.derivation,
        o.conversion,
        o.sourceKind,
        o.availability,
        o.availabilityNote,
        o.validFrom,
        o.validUntil,
      ]),
  },
  {
    name: 'reference_figures',
    key: 'key',
    columns: [
      'key',
      'claim',
      'metric',
      'value',
      'value_high',
      'currency',
      'provider',
      'gpus',
      'pricing_model',
      'source',
      'published_on',
      'note',
      'content_hash',
    ],
    rows: (c) =>
      c.referenceFigures.map((f) => [
        f.key,
        f.claim,
        f.metric,
        f.value,
        f.valueHigh,
        f.currency,
        f.provider,
        pgArray(f.gpus),
        f.pricingModel,
        f.source,
        f.publishedOn,
        f.note,
        rowContentHash(f),
      ]),
  },
  {
    name: 'availability',
    key: 'key',
    columns: ['key', 'provider', 'instance_type', 'regions', 'lists_every_region', 'pricing_models', 'source', 'observed_at', 'note', 'content_hash'],
    rows: (c) =>
      c.availability.map((a) => [
        availabilityKey(a.provider, a.instanceType),
        a.provider,
        a.instanceType,
        pgArray(a.regions),
        a.listsEveryRegion,
        pgArray(a.pricingModels ?? []),
        a.source,
        a.observedAt,
        a.note,
        rowContentHash(a),
      ]),
  },
];

/** A value in COPY's text format: \N for null, with backslash, tab and newline escaped. */
function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  const s = typeof v === 'boolean' ? (v ? 't' : 'f') : String(v);
  return s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

function pgArray(items: string[]): string {
  return `{${items.map((i) => `"${i.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}
