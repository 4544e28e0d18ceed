// Shared pieces of the benchmarks: a database of their own, synthetic catalogs written in the
// import format, timing and percentiles.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { stringify as toYaml } from 'yaml';
import type { CatalogContent, Offer } from '../src/domain/catalog/catalog.types.js';
import { PRICING_MODEL_TRAITS } from '../src/domain/catalog/pricing-model-traits.js';
import { generateCatalog } from '../src/domain/compliance/testing/generate-catalog.js';
import { loadConfig } from '../src/config/app-config.js';
import { resolveDatabase, type ResolvedDatabase } from '../src/database/database-url.js';
import { applyMigrations } from '../src/database/schema-engine.js';
import { at } from '../src/domain/checked.js';

export const OFFER_COLUMNS = [
  'provider',
  'region',
  'gpu',
  'gpuCount',
  'instanceType',
  'pricingModel',
  'pricePerHour',
  'currency',
  'upfront',
  'termMonths',
  'serverlessUnitPrice',
  'serverlessUnit',
  'interruptionNoticeSeconds',
  'source',
  'sourceTitle',
  'observedAt',
  'priceKind',
  'derivation',
  'conversion',
  'sourceKind',
] as const;

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

/** A server to benchmark on (DATABASE_URL's or an embedded one in .data/bench) and a fresh database on it. */
export async function benchDatabase(): Promise<{ server: ResolvedDatabase; url: string; drop(): Promise<void> }> {
  const config = loadConfig({
    ...process.env,
    EMBEDDED_PG_DATA_DIR: process.env.EMBEDDED_PG_DATA_DIR ?? '.data/bench',
    EMBEDDED_PG_PORT: process.env.EMBEDDED_PG_PORT ?? '54339',
    EMBEDDED_PG_DATABASE: 'postgres',
  });
  const server = await resolveDatabase(config);
  const name = `gpu_cost_bench_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  return {
    server,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: server.url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      await server.stop();
    },
  };
}

/** A synthetic catalog (deterministic) made valid for import: terms on reserved, units on serverless. */
export function syntheticCatalog(offerCount: number, seed = 42): CatalogContent {
  const content = generateCatalog({ offerCount, seed });
  content.offers = content.offers.map((o): Offer => ({
    ...o,
    termMonths: PRICING_MODEL_TRAITS[o.pricingModel].termMonths,
    serverlessUnitPrice: PRICING_MODEL_TRAITS[o.pricingModel].billedByBusyTime ? o.pricePerHour.div(3600).div(o.gpuCount).toDecimalPlaces(9) : null,
    serverlessUnit: PRICING_MODEL_TRAITS[o.pricingModel].billedByBusyTime ? 'GPU_SECOND' : null,
    // Sources must be http(s) URLs; example.invalid (RFC 2606) says this is no real page.
    sourceUrl: 'https://example.invalid/synthetic-benchmark-data',
    sourceTitle: 'synthetic benchmark data (bench/support.ts), not a price',
  }));
  return content;
}

export function offerCsvRow(o: Offer): string {
  const cells = [
    o.providerSlug,
    o.regionCode,
    o.gpuSlug,
    o.gpuCount,
    o.instanceType,
    o.pricingModel,
    o.pricePerHour.toString(),
    o.currency,
    o.upfront?.toString() ?? '',
    o.termMonths ?? '',
    o.serverlessUnitPrice?.toString() ?? '',
    o.serverlessUnit ?? '',
    o.interruptionNoticeSeconds ?? '',
    o.sourceUrl,
    o.sourceTitle ?? '',
    o.observedAt,
    o.priceKind,
    o.derivation ?? '',
    o.conversion ?? '',
    o.sourceKind ?? 'MIRROR',
  ];
  return cells.map((c) => (/[",\n]/.test(String(c)) ? `"${String(c).replaceAll('"', '""')}"` : String(c))).join(',');
}

/** Writes catalog.yaml (metadata, FX, reference data) and offers.csv in the import format. */
export async function writeCatalogFiles(content: CatalogContent, dir: string, label: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const meta = {
    catalog: { label, source: 'synthetic benchmark catalog', fx: content.fxRates },
    providers: content.providers.map((p) => ({ ...p, slaPercent: p.slaPercent?.toString() ?? null, egressUsdPerGb: p.egressUsdPerGb?.toString() ?? null })),
    regions: content.regions.map((r) => ({ code: r.code, provider: r.providerSlug, name: r.name, city: r.city, country: r.country })),
    gpus: content.gpus.map((g) => ({
      ...g,
      memoryGb: g.memoryGb.toString(),
      memoryBandwidthGbps: g.memoryBandwidthGbps.toString(),
      fp16Tflops: g.fp16Tflops.toString(),
      int8Tops: g.int8Tops.toString(),
      fp8Tflops: g.fp8Tflops?.toString() ?? null,
    })),
  };
  await writeFile(path.join(dir, 'catalog.yaml'), toYaml(meta));
  const lines = [OFFER_COLUMNS.join(','), ...content.offers.map(offerCsvRow)];
  await writeFile(path.join(dir, 'offers.csv'), `${lines.join('\n')}\n`);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return at(sorted, Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length)));
}

/** The median (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? NaN : sorted.length % 2 ? at(sorted, mid) : (at(sorted, mid - 1) + at(sorted, mid)) / 2;
}

export const ms = (ns: bigint): number => Number(ns) / 1e6;
/** One row of a Markdown table: `| a | b | c |`. */
export const tableRow = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;
export const fmt = (n: number, digits = 1): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
