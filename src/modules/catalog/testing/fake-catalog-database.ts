// PostgreSQL as catalog.repository.ts reads it, in memory: its SQL for the publication log, a
// version and a version's content, and the replica's version check
// (database/read-replica.ts). Offer rows carry version ranges as in the offers table; one
// provider, region and GPU are in every version. standby() copies a database as a streaming
// replica holds it: whole commits up to now, none later, so while it lags it lacks the newest
// versions and still has open the offer rows they closed; catchUp() replays the rest.
import type pg from 'pg';
import type { PrismaService } from '../../../database/prisma.service.js';
import type { GpuModel, Offer, Provider } from '../../../domain/catalog/catalog.types.js';
import { marketToJson } from '../../../domain/catalog/market-prices.js';
import { makeGpu, makeProvider, makeRegion, TEST_FX_RATES } from '../../../domain/compliance/testing/factories.js';
import { testVersionId } from './in-memory-catalog.repository.js';

type OfferRow = Record<string, string | number | boolean | object | null>;

interface State {
  versions: { id: string; seq: number; label: string; offerCount: number }[];
  offers: { offer: Offer; validFrom: number; validTo: number | null }[];
  publications: { versionId: string; publishedAt: Date }[];
}

export class FakeCatalogDatabase {
  /** Tables read, in order ('catalog_versions', 'offers', 'providers'...). */
  reads: string[] = [];
  /** True: every query fails, as when the server does not answer. */
  down = false;
  private state: State = { versions: [], offers: [], publications: [] };

  /** What CatalogRepository takes as PrismaService: none of the reads here go through it. */
  readonly prisma = {} as PrismaService;

  /** The pg pool's queries they make. */
  readonly pool = {
    options: {},
    query: async (query: string | { text: string; values: unknown[] }, values: unknown[] = []) => {
      const [text, params] = typeof query === 'string' ? [query, values] : [query.text, query.values];
      if (/FROM catalog_versions WHERE id = \$1/.test(text)) {
        this.read('catalog_versions');
        return { rows: this.state.versions.filter((v) => v.id === params[0]).map(() => ({ '?column?': 1 })) };
      }
      if (/^SELECT version_id FROM catalog_publications ORDER BY id DESC LIMIT 1$/.test(text)) {
        this.read('catalog_publications');
        const last = this.state.publications.at(-1);
        return { rows: last ? [{ version_id: last.versionId }] : [] };
      }
      const version = /FROM catalog_versions v WHERE (?:(v\.id = \$1 OR v\.label = \$2)|v\.label = \$1) LIMIT 1$/.exec(text);
      if (version) {
        this.read('catalog_versions');
        const found = this.state.versions.find((v) => (version[1] !== undefined && v.id === params[0]) || v.label === params.at(-1));
        return { rows: found ? [this.versionRow(found)] : [] };
      }
      if (/FROM offers WHERE valid_from <= \$1 AND \(valid_to IS NULL OR valid_to > \$1\) ORDER BY id/.test(text)) {
        this.read('offers');
        const seq = params[0] as number;
        return { rows: this.state.offers.filter((r) => r.validFrom <= seq && (r.validTo === null || r.validTo > seq)).map(rowOf) };
      }
      // One provider, region and GPU in every version; no reference figures, availability or energy.
      const table =
        /FROM (providers|regions|gpu_models|reference_figures|availability|energy_figures) WHERE valid_from <= \$1 AND \(valid_to IS NULL OR valid_to > \$1\) ORDER BY/.exec(
          text,
        )?.[1];
      if (table) {
        this.read(table);
        const rows = { providers: [textOf(makeProvider())], regions: [makeRegion()], gpu_models: [textOf(makeGpu())] } as Record<string, unknown[]>;
        return { rows: rows[table] ?? [] };
      }
      throw new Error(`the fake does not answer: ${text}`);
    },
  } as unknown as pg.Pool;

  /**
   * Writes version seq n+1 with these offers in one commit, as the import does: an open row whose
   * offer is unchanged stays open, the others are closed at n+1, new and changed ones opened.
   */
  commitVersion(offers: Offer[]): { id: string; seq: number; label: string; fxRates: typeof TEST_FX_RATES } {
    const seq = this.state.versions.length + 1;
    const open = this.state.offers.filter((r) => r.validTo === null);
    for (const row of open) {
      if (!offers.some((o) => sameOffer(o, row.offer))) row.validTo = seq;
    }
    const kept = open.filter((r) => r.validTo === null).map((r) => r.offer);
    for (const offer of offers) {
      if (!kept.some((k) => sameOffer(k, offer))) this.state.offers.push({ offer, validFrom: seq, validTo: null });
    }
    const version = { id: testVersionId(seq), seq, label: `v${seq}`, offerCount: offers.length };
    this.state.versions.push(version);
    return { ...version, fxRates: TEST_FX_RATES };
  }

  publish(versionId: string): void {
    this.state.publications.push({ versionId, publishedAt: new Date('2026-01-01T00:00:00Z') });
  }

  /** A replica of this database as it is now. */
  standby(): FakeCatalogDatabase {
    const replica = new FakeCatalogDatabase();
    replica.catchUp(this);
    return replica;
  }

  /** Replays every commit `primary` has made. */
  catchUp(primary: FakeCatalogDatabase): void {
    const { versions, offers, publications } = primary.state;
    this.state = { versions: versions.map((v) => ({ ...v })), offers: offers.map((r) => ({ ...r })), publications: publications.map((p) => ({ ...p })) };
  }

  private read(table: string): void {
    if (this.down) throw new Error('connect ECONNREFUSED 127.0.0.1:5433');
    this.reads.push(table);
  }

  /** A catalog_versions row as the repository selects it, with its first publication. */
  private versionRow(found: State['versions'][number]) {
    const published = this.state.publications.filter((p) => p.versionId === found.id).map((p) => p.publishedAt);
    return {
      id: found.id,
      seq: found.seq,
      label: found.label,
      source: 'test',
      notes: null,
      checksum: `checksum-${found.seq}`,
      created_at: new Date('2026-01-01T00:00:00Z'),
      fx_rates: TEST_FX_RATES,
      offer_count: found.offerCount,
      rows_written: found.offerCount,
      provider_observations: null,
      published_at: published.length ? new Date(Math.min(...published.map(Number))) : null,
    };
  }
}

/** A provider or GPU as SQL returns it: decimals as text. */
function textOf(row: Provider | GpuModel): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v !== null && typeof v === 'object' && !Array.isArray(v) ? String(v) : v]));
}

/** Unchanged: every stored column the same. */
const sameOffer = (a: Offer, b: Offer): boolean =>
  JSON.stringify(rowOf({ offer: a, validFrom: 0, validTo: null })) === JSON.stringify(rowOf({ offer: b, validFrom: 0, validTo: null }));

/** An offer as the repository's offers query returns it (decimals as text). */
function rowOf({ offer: o, validFrom, validTo }: State['offers'][number]): OfferRow {
  return {
    key_hash: o.keyHash,
    provider_slug: o.providerSlug,
    region_code: o.regionCode,
    gpu_slug: o.gpuSlug,
    gpu_count: o.gpuCount,
    instance_type: o.instanceType,
    pricing_model: o.pricingModel,
    price_per_hour: o.pricePerHour.toString(),
    currency: o.currency,
    upfront: o.upfront?.toString() ?? null,
    term_months: o.termMonths,
    serverless_unit_price: o.serverlessUnitPrice?.toString() ?? null,
    serverless_unit: o.serverlessUnit,
    interruption_notice_seconds: o.interruptionNoticeSeconds,
    interruption_rate: o.interruptionRate ?? null,
    market: o.market ? (JSON.parse(marketToJson(o.market)) as object) : null,
    source_url: o.sourceUrl,
    source_title: o.sourceTitle,
    observed_at: o.observedAt,
    price_kind: o.priceKind,
    derivation: o.derivation,
    conversion: o.conversion,
    source_kind: o.sourceKind,
    availability: o.availability,
    availability_note: o.availabilityNote,
    price_valid_from: o.validFrom,
    price_valid_until: o.validUntil,
    valid_from: validFrom,
    valid_to: validTo,
  };
}
