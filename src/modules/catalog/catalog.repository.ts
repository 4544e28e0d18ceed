// The catalog's reads, what the service needs, as SQL on the shared pg pool: loading a version is
// on the start path, where Prisma's query compiler (WebAssembly, compiled on its first query) cost a
// tenth of a warm start (BENCHMARKS.md, "Starts"), and at 100k offers Prisma's row mapping took
// seconds. Decimals are read as text, never as floats. Writes (imports, publications) are
// catalog-admin's (catalog-admin/catalog-writer.repository.ts), loaded by the admin scripts only.
import { Inject, Injectable, Optional } from '@nestjs/common';
import pg, { type QueryResultRow } from 'pg';
import type {
  Availability,
  AvailabilityRecord,
  CatalogContent,
  CatalogVersionInfo,
  EnergyFigure,
  EnergyFigureKind,
  GridSource,
  FxRates,
  GpuModel,
  InterruptionRate,
  Offer,
  Provider,
  ProviderObservations,
  ReferenceFigure,
  Region,
  SourceKind,
} from '../../domain/catalog/catalog.types.js';
import { Decimal } from '../../domain/money/money.js';
import { marketFromJson } from '../../domain/catalog/market-prices.js';
import { PG_POOL } from '../../database/database.options.js';
import { PrismaService } from '../../database/prisma.service.js';
import { READ_REPLICA, type ReadReplica } from '../../database/read-replica.js';
import type { SourceFreshness } from './source-freshness.service.js';

/** A catalog_versions row as VERSION_COLUMNS selects it, with its first publication. */
type VersionRow = {
  id: string;
  seq: number;
  label: string;
  source: string;
  notes: string | null;
  checksum: string;
  created_at: Date;
  fx_rates: unknown;
  offer_count: number;
  rows_written: number;
  provider_observations: unknown;
  published_at: Date | null;
};

const VERSION_COLUMNS = `v.id, v.seq, v.label, v.source, v.notes, v.checksum, v.created_at, v.fx_rates, v.offer_count, v.rows_written,
  v.provider_observations, (SELECT min(p.published_at) FROM catalog_publications p WHERE p.version_id = v.id) AS published_at`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Rows of a versioned table that belong to version $1. */
const AT_VERSION = 'valid_from <= $1 AND (valid_to IS NULL OR valid_to > $1)';
/** A domain type as read from SQL: its decimals as text (`::text`, never a float). */
type Text<T> = { [K in keyof T]: T[K] extends Decimal ? string : T[K] extends Decimal | null ? string | null : T[K] };
type EnergyRow = { kind: EnergyFigureKind; subject: string; value: string; year: number; source: string; note: string | null; gridSource: string | null };
const PROVIDER_COLUMNS = `slug, name, kind, headquarters_country AS "headquartersCountry", sla_percent::text AS "slaPercent", certifications,
  egress_usd_per_gb::text AS "egressUsdPerGb", website, source`;
const GPU_COLUMNS = `slug, vendor, name, memory_gb::text AS "memoryGb", memory_bandwidth_gbps::text AS "memoryBandwidthGbps",
  fp16_tflops::text AS "fp16Tflops", int8_tops::text AS "int8Tops", fp8_tflops::text AS "fp8Tflops", fp8_support AS "fp8Support", source`;
const FIGURE_COLUMNS = `key, claim, metric, value::text, value_high::text AS "valueHigh", currency, provider, gpus, pricing_model AS "pricingModel",
  source, to_char(published_on, 'YYYY-MM-DD') AS "publishedOn", note`;
// Enum arrays arrive as '{A,B}' text unless cast: pg knows text[] only.
const AVAILABILITY_COLUMNS = `provider, instance_type AS "instanceType", regions, lists_every_region AS "listsEveryRegion",
  pricing_models::text[] AS "pricingModels", source, to_char(observed_at, 'YYYY-MM-DD') AS "observedAt", note`;

/** How many rows each catalog table holds (for tests and the import benchmark). */
export type CatalogRowCounts = Record<'versions' | 'providers' | 'regions' | 'gpus' | 'offers' | 'referenceFigures' | 'availability', number>;

/** A database decimal as a Decimal; null stays null, so a NOT NULL column gives a Decimal. */
function dec(v: { toString(): string }): Decimal;
function dec(v: { toString(): string } | null): Decimal | null;
function dec(v: { toString(): string } | null): Decimal | null {
  return v === null ? null : new Decimal(v.toString());
}

@Injectable()
export class CatalogRepository {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(PG_POOL) private readonly pool: pg.Pool,
    @Optional() @Inject(READ_REPLICA) private readonly replica: ReadReplica | null = null,
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

  /** Where to LISTEN for publishes: the primary, on a connection of its own (publication-listener.ts). */
  listenTarget(): { connectionString: string | undefined; connectTimeoutMs: number } | null {
    return { connectionString: this.pool.options.connectionString, connectTimeoutMs: this.pool.options.connectionTimeoutMillis ?? 5_000 };
  }

  async findCurrentVersionId(): Promise<string | null> {
    return this.currentVersionId();
  }

  private async currentVersionId(): Promise<string | null> {
    const { rows } = await this.pool.query<{ version_id: string }>('SELECT version_id FROM catalog_publications ORDER BY id DESC LIMIT 1');
    return rows[0]?.version_id ?? null;
  }

  private toInfo(row: VersionRow, currentId: string | null): CatalogVersionInfo {
    return {
      id: row.id,
      seq: row.seq,
      label: row.label,
      source: row.source,
      notes: row.notes,
      checksum: row.checksum,
      createdAt: row.created_at,
      publishedAt: row.published_at,
      current: row.id === currentId,
      offerCount: row.offer_count,
      rowsWritten: row.rows_written,
      fxRates: row.fx_rates as FxRates,
      providerObservations: (row.provider_observations ?? null) as ProviderObservations[] | null,
    };
  }

  /** Versions matching `where` (SQL after WHERE on catalog_versions v, parameters $1...); `currentId` when already read. */
  private async versions(where: string, values: unknown[], currentId?: string | null): Promise<CatalogVersionInfo[]> {
    const [{ rows }, current] = await Promise.all([
      this.pool.query<VersionRow>(`SELECT ${VERSION_COLUMNS} FROM catalog_versions v WHERE ${where}`, values),
      currentId === undefined ? this.currentVersionId() : currentId,
    ]);
    return rows.map((r) => this.toInfo(r, current));
  }

  findVersions(): Promise<CatalogVersionInfo[]> {
    return this.versions('true ORDER BY v.seq DESC', []);
  }

  /** By id (uuid) or label; `currentId`: the current version's id when the caller has just read it. */
  async findVersion(ref: string, currentId?: string | null): Promise<CatalogVersionInfo | null> {
    // One parameter per use: PostgreSQL gives a parameter one type, and id is a uuid, label text.
    const [found] = await (UUID.test(ref)
      ? this.versions('v.id = $1 OR v.label = $2 LIMIT 1', [ref, ref], currentId)
      : this.versions('v.label = $1 LIMIT 1', [ref], currentId));
    return found ?? null;
  }

  async findCurrentVersion(): Promise<CatalogVersionInfo | null> {
    const id = await this.currentVersionId();
    return id ? this.findVersion(id, id) : null;
  }

  /** The version that was current at `at`: the newest publication at or before it. */
  async findVersionCurrentAt(at: Date): Promise<CatalogVersionInfo | null> {
    const { rows } = await this.pool.query<{ version_id: string }>(
      'SELECT version_id FROM catalog_publications WHERE published_at <= $1 ORDER BY published_at DESC, id DESC LIMIT 1',
      [at],
    );
    return rows[0] ? this.findVersion(rows[0].version_id) : null;
  }

  /** The newest version's id and the checksum of the files it was imported from. */
  async findLatestFilesChecksum(): Promise<{ versionId: string; filesChecksum: string | null } | null> {
    const { rows } = await this.pool.query<{ id: string; files_checksum: string | null }>(
      'SELECT id, files_checksum FROM catalog_versions ORDER BY seq DESC LIMIT 1',
    );
    return rows[0] ? { versionId: rows[0].id, filesChecksum: rows[0].files_checksum } : null;
  }

  async findLatestVersion(): Promise<CatalogVersionInfo | null> {
    const [found] = await this.versions('true ORDER BY v.seq DESC LIMIT 1', []);
    return found ?? null;
  }

  /**
   * A version's content, from the read replica when there is one and it has the version (a version
   * is written in one transaction, so then all of it), else from the primary: never a mix.
   */
  async loadContent(version: Pick<CatalogVersionInfo, 'id' | 'seq' | 'fxRates'>): Promise<CatalogContent> {
    const fromReplica = this.replica !== null && (await this.replica.hasVersion(version.id));
    const pool = fromReplica && this.replica ? this.replica.pool : this.pool;
    const rows = async <T extends QueryResultRow>(table: string, columns: string, order: string): Promise<T[]> =>
      (await pool.query<T>(`SELECT ${columns} FROM ${table} WHERE ${AT_VERSION} ORDER BY ${order}`, [version.seq])).rows;
    const [providers, regions, gpus, offers, figures, availability, energy] = await Promise.all([
      rows<Text<Provider>>('providers', PROVIDER_COLUMNS, 'slug'),
      rows<Region>('regions', 'code, provider_slug AS "providerSlug", name, city, country', 'code'),
      rows<Text<GpuModel>>('gpu_models', GPU_COLUMNS, 'slug'),
      this.loadOffers(version.seq, pool),
      rows<Text<ReferenceFigure>>('reference_figures', FIGURE_COLUMNS, 'key'),
      rows<Omit<AvailabilityRecord, 'pricingModels'> & { pricingModels: Offer['pricingModel'][] }>('availability', AVAILABILITY_COLUMNS, 'key'),
      rows<EnergyRow>('energy_figures', 'kind, subject, value::text, year, source, note, grid_source AS "gridSource"', 'key'),
    ]);
    return {
      ...(energy.length ? { energy: energy.map(energyFigureOf) } : {}),
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
      regions,
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
        currency: f.currency,
        provider: f.provider,
        gpus: f.gpus,
        pricingModel: f.pricingModel,
        source: f.source,
        publishedOn: f.publishedOn,
        note: f.note,
      })),
      availability: availability.map((a): AvailabilityRecord => ({
        provider: a.provider,
        instanceType: a.instanceType,
        regions: a.regions,
        listsEveryRegion: a.listsEveryRegion,
        pricingModels: a.pricingModels.length ? a.pricingModels : null,
        source: a.source,
        observedAt: a.observedAt,
        note: a.note,
      })),
    };
  }

  /**
   * A version's offers through pg directly: at 100k offers Prisma's row mapping took seconds,
   * and this runs at start-up and on every publish. Decimals arrive as text, never as floats.
   */
  private async loadOffers(seq: number, pool: pg.Pool): Promise<Offer[]> {
    const rows = await this.queryOffers('valid_from <= $1 AND (valid_to IS NULL OR valid_to > $1) ORDER BY id', [seq], pool);
    return rows.map((r) => r.offer);
  }

  /** Stored offer rows matching `where` (SQL after WHERE, parameters $1...), with their version range. */
  private async queryOffers(where: string, values: unknown[], pool = this.pool): Promise<StoredOffer[]> {
    const { rows } = await pool.query<Record<string, string | number | boolean | object | null>>({
      text: `SELECT key_hash, provider_slug, region_code, gpu_slug, gpu_count, instance_type, pricing_model, price_per_hour::text,
                    currency, upfront::text, term_months, serverless_unit_price::text, serverless_unit, interruption_notice_seconds, interruption_rate,
                    market, source_url, source_title, to_char(observed_at, 'YYYY-MM-DD') AS observed_at, price_kind, derivation, conversion,
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
        ...(r.market === null || r.market === undefined ? {} : { market: marketFromJson(r.market) }),
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

  /** Every stored row of a GPU's offers, across all versions, with the versions it belongs to. */
  findGpuOfferRows(gpuSlug: string): Promise<StoredOffer[]> {
    return this.queryOffers('gpu_slug = $1 ORDER BY id', [gpuSlug]);
  }

  /** Versions in which an offer key had each of its prices: one row per stored offer row. */
  findOfferHistory(keyHash: string): Promise<StoredOffer[]> {
    return this.queryOffers('key_hash = $1 ORDER BY valid_from', [keyHash]);
  }

  /** What catalog:sync recorded of each live price source, by source name. */
  async findSourceSyncs(): Promise<SourceFreshness[]> {
    const { rows } = await this.pool.query<SourceFreshness>(
      `SELECT source, provider, last_attempt_at AS "lastAttemptAt", last_success_at AS "lastSuccessAt", offers, last_error AS "lastError"
       FROM catalog_source_syncs ORDER BY source`,
    );
    return rows;
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

function energyFigureOf(f: EnergyRow): EnergyFigure {
  const figure: EnergyFigure = { kind: f.kind, subject: f.subject, value: dec(f.value), year: f.year, source: f.source, note: f.note };
  // As the files read it: absent on other kinds and on rows written before gridSource existed.
  if (f.gridSource !== null) figure.gridSource = f.gridSource as GridSource;
  return figure;
}
