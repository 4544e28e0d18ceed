// The catalog's writes: a new version from imported content (COPY into staging tables, then
// set-based close / insert, one transaction) and publications. Command-line only: the service
// process reads the catalog (catalog/catalog.repository.ts) and never loads this file. Row inserts
// are several times slower than the COPY baseline the import is measured against (BENCHMARKS.md).
import { Injectable, Inject } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { canonicalJson, rowContentHash } from '../../domain/catalog/catalog-hash.js';
import { availabilityKey } from '../../domain/catalog/availability.js';
import { marketToJson } from '../../domain/catalog/market-prices.js';
import { energyFigureKey, providerObservations, type CatalogContent, type CatalogVersionInfo } from '../../domain/catalog/catalog.types.js';
import { PG_POOL } from '../../database/database.options.js';
import { at, defined } from '../../domain/checked.js';
import { CatalogRepository, PUBLISH_CHANNEL } from '../catalog/index.js';

/** pg_advisory_xact_lock key that serialises catalog writes (imports and publishes). */
const CATALOG_WRITE_LOCK = 7_402_651;

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

@Injectable()
export class CatalogWriterRepository {
  constructor(
    @Inject(PG_POOL) private readonly pool: pg.Pool,
    private readonly reads: CatalogRepository,
  ) {}

  /** A version this repository has just written and committed. */
  private async written(id: string): Promise<CatalogVersionInfo> {
    return defined(await this.reads.findVersion(id), `the written catalog version ${id}`);
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
   * checksum updated) even when the stored checksum differs. Content equal to an older version's
   * is that version again ("unchanged", published when asked), so re-importing after a rollback
   * never trips over the label it already has.
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
        return { status: 'unchanged', version: await this.written(newest.id), published: publish };
      };
      if (latest?.checksum === input.checksum) return await unchanged(latest);
      // The content of an older version (re-seeding after a rollback, re-importing what was rolled
      // back): that version again, made current when a publish is asked for, whatever its label.
      const older = (await client.query<{ id: string }>('SELECT id FROM catalog_versions WHERE checksum = $1 ORDER BY seq DESC LIMIT 1', [input.checksum]))
        .rows[0];
      if (older) return await unchanged(older);
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
      return { status: 'created', version: await this.written(id), rowsWritten: written, published: input.publish };
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
        for (let i = start; i < end; i++) chunk += `${copyLine(at(rows, i))}\n`;
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

  /**
   * The publication is the transaction's last statement before COMMIT, and its time is the clock
   * at that statement, not the column's default now() (the transaction's start): an import can take
   * minutes, and an `asOf` in those minutes would name a version that was not yet visible, answered
   * with the old one and cached as immutable (response-cache.ts keeps a margin for the rest).
   */
  private async insertPublication(client: pg.PoolClient, versionId: string, publishedBy?: string): Promise<void> {
    await client.query('INSERT INTO catalog_publications (version_id, published_by, published_at) VALUES ($1, $2, clock_timestamp())', [
      versionId,
      publishedBy ?? null,
    ]);
    // Delivered to every listening instance when the transaction commits, never before
    // (catalog/publication-listener.ts).
    await client.query('SELECT pg_notify($1, $2)', [PUBLISH_CHANNEL, versionId]);
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
      'market',
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
        o.market ? marketToJson(o.market) : null,
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
  {
    name: 'energy_figures',
    key: 'key',
    columns: ['key', 'kind', 'subject', 'value', 'year', 'source', 'note', 'grid_source', 'content_hash'],
    rows: (c) =>
      (c.energy ?? []).map((f) => [energyFigureKey(f), f.kind, f.subject, f.value, f.year, f.source, f.note, f.gridSource ?? null, rowContentHash(f)]),
  },
];

/** One row in COPY's text format: its values, tab-separated. */
function copyLine(row: readonly unknown[]): string {
  return row.map(copyValue).join('\t');
}

/**
 * The COPY lines an import stages for one table of `content`, as writeVersion sends them: what
 * the database stores, digit for digit (catalog-writer.repository.spec.ts).
 */
export function stagedLines(table: string, content: CatalogContent): { columns: string[]; lines: string[] } {
  const spec = defined(
    TABLES.find((t) => t.name === table),
    `the table ${table}`,
  );
  return { columns: spec.columns, lines: spec.rows(content).map(copyLine) };
}

/** A value in COPY's text format: \N for null, with backslash, tab and newline escaped. */
function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  const s = typeof v === 'boolean' ? (v ? 't' : 'f') : String(v);
  return s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

function pgArray(items: string[]): string {
  return `{${items.map((i) => `"${i.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}
