// Import of catalog files: read, validate every row (all errors, located), diff against the
// current version, then write a new version in one transaction, or nothing at all.
import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { assembleCatalog, offerInScope, parseCatalogFiles, type CatalogFile, type ImportScope, type RowError } from '../../domain/catalog/catalog-files.js';
import { catalogChecksum } from '../../domain/catalog/catalog-hash.js';
import { diffCatalogs, type CatalogDiff } from '../../domain/catalog/catalog-diff.js';
import { checkGuard, DEFAULT_GUARD, type GuardOutcome, type ImportGuardLimits } from '../../domain/catalog/import-guard.js';
import type { CatalogVersionInfo } from '../../domain/catalog/catalog.types.js';
import { defined } from '../../domain/checked.js';
import { AppError } from '../../common/errors/app-error.js';
import { CatalogRepository, CatalogService } from '../catalog/index.js';
import { CatalogWriterRepository } from './catalog-writer.repository.js';

export interface ImportRequest {
  /** Files or folders (read recursively: *.yaml, *.yml, *.json, *.csv). */
  paths?: string[];
  /** Or files already in memory (catalog:sync builds them from the price feeds it read). */
  files?: CatalogFile[];
  /** Overrides the version's `source` (default: the files' catalog section, else the file names). */
  source?: string;
  dryRun?: boolean;
  publish?: boolean;
  /** Overrides the label of the files' catalog section. */
  label?: string;
  /** Which offers the files replace (default: those of the providers they list offers for). */
  scope?: ImportScope;
  /** Publish even when another version became current while the import ran. */
  force?: boolean;
  /** Refuse an import that removes or re-prices more than these shares of the offers in scope, moves a price or an FX rate too far, or prices an offer at 0. */
  guard?: Partial<ImportGuardLimits>;
  onProgress?: (event: { phase: 'parse' | 'write'; done: number; total: number }) => void;
}

interface ImportSummary {
  /** Providers whose offers the files replace; null: the whole catalog (--full). */
  scope: string[] | null;
  guard: GuardOutcome;
  files: string[];
  offerCount: number;
  /** Against the current version (null when there is none). */
  base: CatalogVersionInfo | null;
  diff: CatalogDiff;
  rowsWritten: number;
  published: boolean;
}

export type ImportReport =
  | { status: 'invalid'; errors: RowError[]; files: string[] }
  /** Publishing was asked for, but another version became current while the import ran. */
  | { status: 'moved'; files: string[]; base: CatalogVersionInfo | null; current: CatalogVersionInfo | null }
  /** Nothing was written. */
  | (ImportSummary & { status: 'dry-run'; version: null })
  | (ImportSummary & { status: 'refused'; version: null })
  /** `version` holds the files' content: a new version, or the identical newest one. */
  | (ImportSummary & { status: 'unchanged'; version: CatalogVersionInfo })
  | (ImportSummary & { status: 'created'; version: CatalogVersionInfo });

const CATALOG_FILE = /\.(ya?ml|json|csv)$/i;

@Injectable()
export class CatalogImportService {
  constructor(
    private readonly repository: CatalogRepository,
    private readonly writer: CatalogWriterRepository,
    private readonly catalog: CatalogService,
  ) {}

  async import(request: ImportRequest): Promise<ImportReport> {
    const files = request.files ?? (await readCatalogFiles(request.paths ?? []));
    const names = files.map((f) => f.path);
    // The scope is part of what was imported: the same files with another scope make other content.
    const filesChecksum = checksumFiles(files, JSON.stringify(request.scope ?? { mode: 'PROVIDERS' }));
    const base = await this.repository.findCurrentVersion();
    // Byte-identical files to the newest version, which is current: unchanged, without parsing.
    const latest = await this.repository.findLatestFilesChecksum();
    const limits: ImportGuardLimits = { ...DEFAULT_GUARD, ...request.guard };
    if (base && latest?.versionId === base.id && latest.filesChecksum === filesChecksum && !request.label) {
      const diff: CatalogDiff = { added: [], removed: [], changed: [], reference: [], unchangedOffers: base.offerCount };
      const guard: GuardOutcome = {
        ...limits,
        inScopeBefore: base.offerCount,
        removed: 0,
        priceChanged: 0,
        priceMoves: [],
        nonPositive: [],
        fxMoves: [],
        violations: [],
      };
      const common = { files: names, offerCount: base.offerCount, base, diff, rowsWritten: 0, published: false, scope: null, guard };
      return request.dryRun ? { ...common, status: 'dry-run', version: null } : { ...common, status: 'unchanged', version: base };
    }
    const parsed = parseCatalogFiles(files);
    request.onProgress?.({ phase: 'parse', done: parsed.offers.length, total: parsed.offers.length });
    const baseContent = base ? await this.catalog.content(base) : null;
    const assembled = assembleCatalog({ parsed, inherited: baseContent, scope: request.scope });
    if (!assembled.content) return { status: 'invalid', errors: assembled.errors, files: names };
    const content = assembled.content;

    const checksum = catalogChecksum(content);
    const diff = diffCatalogs({
      from: baseContent ?? { ...content, offers: [], providers: [], regions: [], gpus: [], referenceFigures: [], availability: [] },
      to: content,
    });
    const inScopeBefore = (baseContent?.offers ?? []).filter((o) => offerInScope(o, assembled.scope, assembled.pricingModels)).length;
    const guard = checkGuard({ diff, inScopeBefore, limits, fxBefore: baseContent?.fxRates ?? null, fxAfter: content.fxRates });
    const common = { files: names, offerCount: content.offers.length, base, diff, rowsWritten: 0, scope: assembled.scope, guard };
    if (request.dryRun) return { ...common, status: 'dry-run', version: null, published: false };
    if (guard.violations.length > 0) return { ...common, status: 'refused', version: null, published: false };

    const label = request.label ?? parsed.meta?.label ?? `import-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    const outcome = await this.writer
      .writeVersion({
        label,
        source: request.source ?? parsed.meta?.source ?? `catalog:import ${names.join(', ')}`,
        notes: parsed.meta?.notes ?? null,
        content,
        checksum,
        filesChecksum,
        publish: request.publish ?? false,
        expectedCurrentId: base?.id ?? null,
        force: request.force,
        onProgress: (done) => request.onProgress?.({ phase: 'write', done, total: content.offers.length }),
      })
      .catch((error: unknown) => {
        if ((error as { code?: string }).code === '23505') {
          throw new AppError('CATALOG.LABEL_TAKEN', 'CONFLICT', `a catalog version labelled "${label}" exists already; pass --label`, [
            { field: 'label', message: 'must be unique' },
          ]);
        }
        throw error;
      });
    if (outcome.status === 'moved') {
      const current = outcome.currentId ? await this.repository.findVersion(outcome.currentId) : null;
      return { status: 'moved', files: names, base, current };
    }
    if (outcome.status === 'unchanged') return { ...common, status: 'unchanged', version: outcome.version, published: outcome.published };
    return { ...common, status: 'created', version: outcome.version, rowsWritten: outcome.rowsWritten, published: outcome.published };
  }

  /** Makes a version current; publishing an older version is the rollback. */
  async publish(ref: string): Promise<CatalogVersionInfo> {
    const version = await this.catalog.resolveVersion({ version: ref });
    await this.writer.publish(version.id);
    return defined(await this.repository.findVersion(version.id), `catalog version ${version.id}`);
  }
}

function checksumFiles(files: CatalogFile[], scope: string): string {
  const hash = createHash('sha256');
  hash.update(`${scope}\0`);
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) hash.update(`${f.path}\0${f.text}\0`);
  return hash.digest('hex');
}

export async function readCatalogFiles(paths: string[]): Promise<CatalogFile[]> {
  const found: string[] = [];
  const walk = async (p: string): Promise<void> => {
    const info = await stat(p).catch(() => {
      throw new AppError('CATALOG.FILE_NOT_FOUND', 'NOT_FOUND', `no such file or folder: ${path.resolve(p)}`);
    });
    if (info.isDirectory()) {
      for (const entry of (await readdir(p)).sort()) await walk(path.join(p, entry));
    } else if (CATALOG_FILE.test(p)) {
      found.push(p);
    } else if (paths.includes(p)) {
      throw new AppError('CATALOG.UNSUPPORTED_FILE', 'BAD_INPUT', `${p}: catalog files are .yaml, .yml, .json or .csv`);
    }
  };
  for (const p of paths) await walk(p);
  if (found.length === 0) throw new AppError('CATALOG.NO_FILES', 'BAD_INPUT', `no catalog files in ${paths.join(', ')}`);
  return Promise.all(found.map(async (file) => ({ path: path.relative(process.cwd(), file) || file, text: await readFile(file, 'utf8') })));
}
