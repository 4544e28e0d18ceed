// catalog:sync: reads the providers' own price feeds (one PriceSource each), turns them into catalog
// rows and imports them through the same path as catalog files (validation, diff, guard, one
// transaction, publish), scoped to the providers of the sources that succeeded. A source that
// fails (fetch, shape, validation, guard) imports nothing and leaves its provider's offers as they
// are; the others still import.
import { Injectable } from '@nestjs/common';
import { checkAvailability, indexAvailability } from '../../domain/catalog/availability.js';
import type { CatalogDiff } from '../../domain/catalog/catalog-diff.js';
import type { CatalogFile } from '../../domain/catalog/catalog-files.js';
import type { CatalogContent, CatalogVersionInfo, PricingModel } from '../../domain/catalog/catalog.types.js';
import type { ImportGuardLimits } from '../../domain/catalog/import-guard.js';
import { CatalogImportService, type ImportReport } from '../catalog-admin/index.js';
import { CatalogService } from '../catalog/index.js';
import { FeedGuardError } from './feed-guard.js';
import { HttpClient, HttpStatusError, ResponseTooLargeError } from './http-client.js';
import { countSkip, SourceShapeError, urlVariable, type PriceSource, type SourceResult, type SyncFx, type SyncOfferRow } from './price-source.js';
import { SourceSyncRepository } from './source-sync.repository.js';
import { PRICE_SOURCES } from './sources/index.js';

export interface SyncRequest {
  /** Source names; default every source. */
  sources?: string[];
  dryRun?: boolean;
  publish?: boolean;
  label?: string;
  force?: boolean;
  guard?: Partial<ImportGuardLimits>;
  env?: NodeJS.ProcessEnv;
  /** The sources to choose from (tests); default PRICE_SOURCES. */
  registry?: readonly PriceSource[];
}

export interface SourceReport {
  name: string;
  provider: string | null;
  /** The only pricing models of the provider the source replaces; null: all of them. */
  pricingModels: PricingModel[] | null;
  url: string;
  status: 'ok' | 'failed' | 'skipped';
  rowsRead: number;
  pages: number;
  /** Offer rows the source produced and the import took. */
  offers: number;
  /** Items left out, by reason (feed filters, and regions or GPUs the catalog does not have). */
  skipped: Record<string, number>;
  /** Against the current version, for the source's provider. */
  diff: CatalogDiff | null;
  fx: SyncFx | null;
  durationMs: number;
  /** What went wrong, in full, for the admin running the sync (it may quote the feed). */
  error: string | null;
  /** The same, as the error class and HTTP status only: what /health/ready shows (never the feed's text). */
  failure: string | null;
}

export interface SyncReport {
  label: string;
  base: CatalogVersionInfo;
  sources: SourceReport[];
  /** The import of the sources that succeeded; null when none did. */
  import: ImportReport | null;
}

/** The pricing-model scope of an import of these sources: per provider, the models its sources cover (none listed: all). */
export function modelScope(reports: readonly Pick<SourceReport, 'provider' | 'pricingModels'>[]): Record<string, PricingModel[]> {
  const scope: Record<string, PricingModel[]> = {};
  const unrestricted = new Set(reports.filter((r) => r.provider !== null && r.pricingModels === null).map((r) => r.provider));
  for (const r of reports) {
    if (r.provider === null || r.pricingModels === null || unrestricted.has(r.provider)) continue;
    scope[r.provider] = [...new Set([...(scope[r.provider] ?? []), ...r.pricingModels])];
  }
  return scope;
}

const emptyDiff = (d: CatalogDiff | null) => d === null || (d.added.length === 0 && d.removed.length === 0 && d.changed.length === 0);

@Injectable()
export class CatalogSyncService {
  constructor(
    private readonly importer: CatalogImportService,
    private readonly catalog: CatalogService,
    private readonly freshness: SourceSyncRepository,
  ) {}

  async sync(request: SyncRequest = {}): Promise<SyncReport> {
    const env = request.env ?? process.env;
    const { names, chosen } = chooseSources(request);
    const base = await this.catalog.resolveVersion().catch(() => {
      throw new Error('there is no current catalog version to sync into: run npm run db:seed (or catalog:import) first');
    });
    const baseContent = await this.catalog.content(base);
    const now = new Date();
    const label = request.label ?? `sync-${now.toISOString().slice(0, 19).replace(/[:]/g, '-')}`;
    const run: SyncRun = { request, names, chosen, base, baseContent, label, guard: request.guard ?? {} };

    // 1. Fetch every source at once; a failure stays with its source.
    const fetched = await Promise.all(chosen.map((source) => this.fetchSource(source, env, now, regionsOf(baseContent, source.provider))));
    // 2. Keep the rows the catalog can hold, and check each source alone (validation and guard).
    const { files, fx } = await this.checkEachSource(run, fetched);
    // 3. One import of everything that passed: one version, one transaction.
    const reports = fetched.map((f) => f.report);
    const imported = await this.importPassed(run, reports, files, fx);
    // 4. Freshness: a source succeeded when its rows are in the version written (or an identical one).
    if (!request.dryRun) await this.recordFreshness(reports, imported, now);
    return { label, base, sources: reports, import: imported };
  }

  /** The catalog metadata file of a sync's imports: its label and source, and the FX rates it brings (else the base's). */
  private metaFile(run: SyncRun, fx: SyncFx | null): CatalogFile {
    return {
      path: 'sync/catalog.json',
      text: JSON.stringify({
        catalog: { label: run.label, source: `catalog:sync ${run.names.join(',')}`, notes: run.base.notes, fx: fx ?? run.baseContent.fxRates },
      }),
    };
  }

  /** Each fetched source's rows as a file, checked alone by a dry-run import; a source that fails it is marked failed. */
  private async checkEachSource(run: SyncRun, fetched: readonly FetchedSource[]): Promise<{ files: Map<string, CatalogFile>; fx: SyncFx | null }> {
    const files = new Map<string, CatalogFile>();
    let fx: SyncFx | null = null;
    for (const { report, result } of fetched) {
      if (report.status !== 'ok' || !result) continue;
      const source = run.chosen.find((c) => c.name === report.name);
      const offers = keepKnown(result.offers, run.baseContent, report.skipped).map((row) => ({ ...row, sourceKind: source?.sourceKind ?? 'MIRROR' }));
      report.offers = offers.length;
      const file: CatalogFile = { path: `sync/${report.name}.json`, text: JSON.stringify({ offers }) };
      const check = await this.importer.import({
        files: [this.metaFile(run, result.fx ?? null), ...(report.provider ? [file] : [])],
        scope: { mode: 'PROVIDERS', providers: report.provider ? [report.provider] : [], pricingModels: modelScope([report]) },
        dryRun: true,
        guard: run.guard,
        label: run.label,
      });
      if (check.status === 'invalid') {
        const shown = check.errors.slice(0, 5).map((e) => `${e.field ? `${e.field}: ` : ''}${e.message}`);
        report.status = 'failed';
        report.error = `rows refused by validation (${check.errors.length}): ${shown.join('; ')}${check.errors.length > 5 ? '; ...' : ''}`;
        report.failure = `ValidationRefused (${check.errors.length} rows)`;
        continue;
      }
      if (check.status !== 'dry-run') continue;
      report.diff = check.diff;
      if (check.guard.violations.length) {
        report.status = 'failed';
        report.error = `refused by the guard: ${check.guard.violations.join('; ')} (pass --allow-large-change if intended)`;
        report.failure = `GuardRefused (${check.guard.violations.length} violations)`;
        continue;
      }
      if (report.provider) files.set(report.name, file);
      if (result.fx) fx = result.fx;
    }
    return { files, fx };
  }

  /** The sources that passed, imported as one version; when that import is refused, every one of them is marked failed. */
  private async importPassed(run: SyncRun, reports: SourceReport[], files: Map<string, CatalogFile>, fx: SyncFx | null): Promise<ImportReport | null> {
    const { request } = run;
    const ok = reports.filter((r) => r.status === 'ok');
    const anyChange = fx !== null || ok.some((r) => r.provider !== null && !emptyDiff(r.diff)) || request.publish;
    if (ok.length === 0 || !(anyChange || request.dryRun)) return null;
    const imported = await this.importer.import({
      files: [this.metaFile(run, fx), ...files.values()],
      scope: { mode: 'PROVIDERS', providers: ok.flatMap((r) => (r.provider ? [r.provider] : [])), pricingModels: modelScope(ok) },
      dryRun: request.dryRun,
      publish: request.publish,
      label: run.label,
      source: `catalog:sync ${ok.map((r) => r.name).join(',')}`,
      force: request.force,
      guard: run.guard,
    });
    if (imported.status === 'invalid' || imported.status === 'refused' || imported.status === 'moved') {
      const why =
        imported.status === 'invalid'
          ? `the combined import was refused: ${imported.errors
              .slice(0, 3)
              .map((e) => e.message)
              .join('; ')}`
          : imported.status === 'refused'
            ? `the combined import was refused by the guard: ${imported.guard.violations.join('; ')}`
            : 'another version became current while the sync ran; nothing was written (run again, or pass --force)';
      const failure = imported.status === 'invalid' ? 'ValidationRefused' : imported.status === 'refused' ? 'GuardRefused' : 'VersionMoved';
      for (const r of ok) Object.assign(r, { status: 'failed', error: why, failure });
    }
    return imported;
  }

  /** One freshness record per source: a success when its rows are in the version written (or nothing needed writing). */
  private async recordFreshness(reports: readonly SourceReport[], imported: ImportReport | null, now: Date): Promise<void> {
    const written = imported?.status === 'created' || imported?.status === 'unchanged';
    const noChange = imported === null;
    await this.freshness.record(
      reports.map((r) => ({
        source: r.name,
        provider: r.provider,
        ok: r.status === 'ok' && (written || noChange),
        offers: r.offers,
        error: r.status === 'ok' ? (written || noChange ? null : 'NotWritten') : (r.failure ?? 'Failed'),
      })),
      now,
    );
  }

  private async fetchSource(
    source: PriceSource,
    env: NodeJS.ProcessEnv,
    now: Date,
    regions: readonly string[],
  ): Promise<{ report: SourceReport; result: SourceResult | null }> {
    const url = env[urlVariable(source.name)] || source.defaultUrl;
    const report: SourceReport = {
      name: source.name,
      provider: source.provider,
      pricingModels: source.pricingModels ? [...source.pricingModels] : null,
      url,
      status: 'ok',
      rowsRead: 0,
      pages: 0,
      offers: 0,
      skipped: {},
      diff: null,
      fx: null,
      durationMs: 0,
      error: null,
      failure: null,
    };
    const missing = (source.requiredEnv ?? []).filter((v) => !env[v]);
    if (missing.length) {
      report.status = 'skipped';
      report.error = `skipped: set ${missing.join(' and ')} to read this source`;
      report.failure = `Skipped (set ${missing.join(' and ')})`;
      return { report, result: null };
    }
    const started = performance.now();
    // The source may reach only the origins it was configured with (http-client.ts).
    let http: HttpClient | null = null;
    try {
      http = HttpClient.fromEnv(env, [url, ...(source.otherEndpoints?.(env) ?? [])]);
      const result = await source.fetch({ url, now, http, env, regions });
      Object.assign(report, { rowsRead: result.rowsRead, pages: result.pages, skipped: { ...result.skipped }, fx: result.fx ?? null });
      return { report, result };
    } catch (error) {
      report.status = 'failed';
      report.error = `nothing imported from ${source.name}: ${(error as Error).message}`;
      report.failure = failureOf(error);
      return { report, result: null };
    } finally {
      await http?.close();
      report.durationMs = Math.round(performance.now() - started);
    }
  }
}

/** The catalog's region codes of a provider (none for a source of FX only). */
function regionsOf(content: CatalogContent, provider: string | null): string[] {
  return content.regions.filter((r) => r.providerSlug === provider).map((r) => r.code);
}

/**
 * An error as its class and, for an HTTP answer, the status: what may be shown to anyone. A feed's
 * text (an error page, a redirect target) never is.
 */
/** What one sync run works with, its sources and the version it syncs into. */
interface SyncRun {
  request: SyncRequest;
  /** The source names as asked for, in the request's order. */
  names: readonly string[];
  chosen: readonly PriceSource[];
  base: CatalogVersionInfo;
  baseContent: CatalogContent;
  label: string;
  guard: Partial<ImportGuardLimits>;
}

interface FetchedSource {
  report: SourceReport;
  result: SourceResult | null;
}

/** The sources a request names (default every one), or an error naming the unknown ones. */
function chooseSources(request: SyncRequest): { names: string[]; chosen: PriceSource[] } {
  const registry = request.registry ?? PRICE_SOURCES;
  const names = request.sources ?? registry.map((s) => s.name);
  const unknown = names.filter((n) => !registry.some((s) => s.name === n));
  if (unknown.length) throw new Error(`unknown source(s) ${unknown.join(', ')}; known: ${registry.map((s) => s.name).join(', ')}`);
  return { names, chosen: registry.filter((s) => names.includes(s.name)) };
}

export function failureOf(error: unknown): string {
  const seen = new Set<unknown>();
  let code: string | null = null;
  for (let e: unknown = error; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    if (e instanceof HttpStatusError) return `HttpStatusError (HTTP ${e.status})`;
    if (e instanceof FeedGuardError) return `FeedGuardError (${e.rule})`;
    if (e instanceof ResponseTooLargeError) return 'ResponseTooLargeError';
    if (e instanceof SourceShapeError) return 'SourceShapeError';
    if (e.name === 'TimeoutError' || /no answer within|no data for/.test(e.message)) return 'TimeoutError';
    const own = (e as { code?: unknown }).code;
    if (typeof own === 'string' && /^[A-Z][A-Z_]+$/.test(own)) code ??= own;
  }
  return code ? `NetworkError (${code})` : 'FetchError';
}

/**
 * Rows whose provider, region and GPU the catalog has, and that the provider's availability data
 * (the catalog's) does not rule out: a price feed prices shapes in regions where they are not sold.
 * The others are counted by why.
 */
function keepKnown(rows: SyncOfferRow[], content: CatalogContent, skipped: Record<string, number>): SyncOfferRow[] {
  const regions = new Set(content.regions.map((r) => r.code));
  const gpus = new Set(content.gpus.map((g) => g.slug));
  const availability = indexAvailability(content.availability);
  return rows.filter((row) => {
    if (!regions.has(row.region)) countSkip(skipped, `region ${row.region} not in the catalog`);
    else if (!gpus.has(row.gpu)) countSkip(skipped, `GPU ${row.gpu} not in the catalog`);
    else {
      const verdict = checkAvailability({
        offer: { providerSlug: row.provider, instanceType: row.instanceType, regionCode: row.region, pricingModel: row.pricingModel },
        index: availability,
      });
      if (verdict.kind !== 'NOT_SOLD') return true;
      countSkip(skipped, verdict.field === 'region' ? 'not sold in the region (availability data)' : 'pricing model not sold (availability data)');
    }
    return false;
  });
}
