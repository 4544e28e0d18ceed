// The catalog's reads, what the service needs. Versions and reference data are read through
// Prisma; offers, the bulk, through the shared pg pool with one mapper (Prisma's row mapping took
// seconds at 100k offers). Writes (imports, publications) are catalog-admin's
// (catalog-admin/catalog-writer.repository.ts), loaded by the admin scripts only.
import { Inject, Injectable, Optional } from '@nestjs/common';
import pg from 'pg';
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
import { PG_POOL } from '../../database/database.options.js';
import type { PrismaClient } from '../../generated/prisma/client.js';
import { PrismaService } from '../../database/prisma.service.js';
import { READ_REPLICA, type ReadReplica } from '../../database/read-replica.js';
import type { SourceFreshness } from './source-freshness.service.js';

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

  /**
   * A version's content, from the read replica when there is one and it has the version (a version
   * is written in one transaction, so then all of it), else from the primary: never a mix.
   */
  async loadContent(version: Pick<CatalogVersionInfo, 'id' | 'seq' | 'fxRates'>): Promise<CatalogContent> {
    const fromReplica = this.replica !== null && (await this.replica.hasVersion(version.id));
    const prisma: PrismaClient = fromReplica && this.replica ? this.replica.prisma : this.prisma;
    const pool = fromReplica && this.replica ? this.replica.pool : this.pool;
    const where = validAt(version.seq);
    const [providers, regions, gpus, offers, figures, availability, energy] = await Promise.all([
      prisma.provider.findMany({ where, orderBy: { slug: 'asc' } }),
      prisma.region.findMany({ where, orderBy: { code: 'asc' } }),
      prisma.gpuModel.findMany({ where, orderBy: { slug: 'asc' } }),
      this.loadOffers(version.seq, pool),
      prisma.referenceFigure.findMany({ where, orderBy: { key: 'asc' } }),
      prisma.availabilityRecord.findMany({ where, orderBy: { key: 'asc' } }),
      prisma.energyFigure.findMany({ where, orderBy: { key: 'asc' } }),
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
  private async loadOffers(seq: number, pool: pg.Pool): Promise<Offer[]> {
    const rows = await this.queryOffers('valid_from <= $1 AND (valid_to IS NULL OR valid_to > $1) ORDER BY id', [seq], pool);
    return rows.map((r) => r.offer);
  }

  /** Stored offer rows matching `where` (SQL after WHERE, parameters $1...), with their version range. */
  private async queryOffers(where: string, values: unknown[], pool = this.pool): Promise<StoredOffer[]> {
    const { rows } = await pool.query<Record<string, string | number | boolean | null>>({
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

  /** Every stored row of a GPU's offers, across all versions, with the versions it belongs to. */
  findGpuOfferRows(gpuSlug: string): Promise<StoredOffer[]> {
    return this.queryOffers('gpu_slug = $1 ORDER BY id', [gpuSlug]);
  }

  /** Versions in which an offer key had each of its prices: one row per stored offer row. */
  findOfferHistory(keyHash: string): Promise<StoredOffer[]> {
    return this.queryOffers('key_hash = $1 ORDER BY valid_from', [keyHash]);
  }

  /** What catalog:sync recorded of each live price source, by source name. */
  findSourceSyncs(): Promise<SourceFreshness[]> {
    return this.prisma.catalogSourceSync.findMany({ orderBy: { source: 'asc' } });
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

function energyFigureOf(f: {
  kind: string;
  subject: string;
  value: { toString(): string };
  year: number;
  source: string;
  note: string | null;
  gridSource: string | null;
}): EnergyFigure {
  const figure: EnergyFigure = { kind: f.kind as EnergyFigureKind, subject: f.subject, value: dec(f.value), year: f.year, source: f.source, note: f.note };
  // As the files read it: absent on other kinds and on rows written before gridSource existed.
  if (f.gridSource !== null) figure.gridSource = f.gridSource as GridSource;
  return figure;
}
