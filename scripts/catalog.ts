// npm run catalog:<command>: admin changes to the catalog, as thin shells over the services the
// API uses. Commands: import, sync, publish, versions, diff (see README, "The catalog and the admin
// scripts"), and seed, which the service runs on its first start against an empty database.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import type { CatalogDiff } from '../src/domain/catalog/catalog-diff.js';
import type { ImportScope } from '../src/domain/catalog/catalog-files.js';
import { offerNaturalKey } from '../src/domain/catalog/catalog-hash.js';
import type { CatalogVersionInfo } from '../src/domain/catalog/catalog.types.js';
import { CatalogImportService, seed, type ImportReport } from '../src/modules/catalog-admin/index.js';
import { CatalogService } from '../src/modules/catalog/index.js';
import { CatalogSyncService, PRICE_SOURCES, type SyncReport } from '../src/modules/price-feeds/index.js';
import { withAppContext } from './app-context.js';
import { runScript } from './script-runner.js';

const USAGE = `Usage:
  npm run catalog:import -- <file or folder>... [--dry-run] [--publish] [--label L]
        [--scope aws,azure | --full | --merge] [--max-removed PCT] [--max-changed PCT] [--max-price-move PCT] [--max-fx-move PCT]
        [--allow-large-change] [--force]
  npm run catalog:sync -- [--source azure,ecb,...] [--dry-run] [--publish] [--label L]
        [--max-removed PCT] [--max-changed PCT] [--max-price-move PCT] [--max-fx-move PCT] [--allow-large-change] [--force]
  npm run catalog:publish -- <version id or label>
  npm run catalog:versions
  npm run catalog:diff -- <from> <to>
  node dist/app/catalog.js seed      (CATALOG_DIR imported and published, as db:seed)`;

await runScript(async () => {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'import':
      return importCommand(rest);
    case 'sync':
      return syncCommand(rest);
    case 'publish':
      return publishCommand(rest);
    case 'versions':
      return versionsCommand();
    case 'diff':
      return diffCommand(rest);
    case 'seed':
      return seedCommand();
    default:
      console.error(USAGE);
      return 2;
  }
});

/** CATALOG_DIR imported in full and made current: what the service's first start asks for (src/seed-on-first-start.ts). */
async function seedCommand(): Promise<number> {
  return withAppContext(async (app, config) => {
    const version = await seed(app, config.CATALOG_DIR);
    console.log(`Current catalog: ${version.label} (${version.id}), ${version.offerCount} offers.`);
    return 0;
  });
}

async function importCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'dry-run': { type: 'boolean' },
      publish: { type: 'boolean' },
      label: { type: 'string' },
      scope: { type: 'string' },
      full: { type: 'boolean' },
      merge: { type: 'boolean' },
      'max-removed': { type: 'string' },
      'max-changed': { type: 'string' },
      'max-price-move': { type: 'string' },
      'max-fx-move': { type: 'string' },
      'allow-large-change': { type: 'boolean' },
      force: { type: 'boolean' },
    },
  });
  if (positionals.length === 0) throw new Error(USAGE);
  if ([values.scope !== undefined, values.full, values.merge].filter(Boolean).length > 1) {
    throw new Error('give at most one of --scope, --full and --merge');
  }
  const scope: ImportScope = values.full
    ? { mode: 'FULL' }
    : values.merge
      ? { mode: 'MERGE' }
      : {
          mode: 'PROVIDERS',
          providers: values.scope
            ?.split(',')
            .map((s) => s.trim().toLowerCase())
            .filter(Boolean),
        };
  const guard = guardOptions(values);
  return withAppContext(async (app) => {
    const bar = process.stderr.isTTY ? new SingleBar({ format: ' {phase} [{bar}] {value}/{total} rows', hideCursor: true }, Presets.shades_classic) : null;
    let started = false;
    const report = await app.get(CatalogImportService).import({
      // npm runs scripts from the project root; the files are named from where npm was called.
      paths: positionals.map((p) => path.resolve(process.env.INIT_CWD ?? process.cwd(), p)),
      dryRun: values['dry-run'],
      publish: values.publish,
      label: values.label,
      scope,
      force: values.force,
      guard,
      onProgress: ({ phase, done, total }) => {
        if (!bar || total < 5_000) return;
        if (!started) bar.start(total, 0, { phase });
        started = true;
        bar.update(done, { phase });
      },
    });
    bar?.stop();
    printImport(report);
    return report.status === 'invalid' || report.status === 'refused' || report.status === 'moved' ? 1 : 0;
  });
}

/** --max-removed, --max-changed, --max-price-move, --max-fx-move and --allow-large-change, as the import guard's limits (only those given). */
function guardOptions(values: {
  'max-removed'?: string;
  'max-changed'?: string;
  'max-price-move'?: string;
  'max-fx-move'?: string;
  'allow-large-change'?: boolean;
}) {
  const percent = (name: string, raw: string | undefined, max = 100): number | undefined => {
    if (raw === undefined) return undefined;
    if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) > max) throw new Error(`--${name} must be a percentage from 0 to ${max}; got ${raw}`);
    return Number(raw);
  };
  const guard = {
    maxRemovedPercent: percent('max-removed', values['max-removed']),
    maxChangedPercent: percent('max-changed', values['max-changed']),
    // A price may move up by more than 100%: the limit is a share of the old price, either way.
    maxPriceMovePercent: percent('max-price-move', values['max-price-move'], 100_000),
    maxFxMovePercent: percent('max-fx-move', values['max-fx-move'], 100_000),
    allowLargeChange: values['allow-large-change'] ?? false,
  };
  return Object.fromEntries(Object.entries(guard).filter(([, v]) => v !== undefined));
}

async function syncCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      source: { type: 'string' },
      'dry-run': { type: 'boolean' },
      publish: { type: 'boolean' },
      label: { type: 'string' },
      'max-removed': { type: 'string' },
      'max-changed': { type: 'string' },
      'max-price-move': { type: 'string' },
      'max-fx-move': { type: 'string' },
      'allow-large-change': { type: 'boolean' },
      force: { type: 'boolean' },
    },
  });
  if (positionals.length)
    throw new Error(`catalog:sync takes no file names (got ${positionals.join(' ')}); the sources are ${PRICE_SOURCES.map((s) => s.name).join(', ')}`);
  const sources = values.source
    ?.split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return withAppContext(async (app) => {
    const report = await app.get(CatalogSyncService).sync({
      sources,
      dryRun: values['dry-run'],
      publish: values.publish,
      label: values.label,
      force: values.force,
      guard: guardOptions(values),
    });
    printSync(report, values['dry-run'] ?? false);
    return report.sources.some((s) => s.status === 'failed') ? 1 : 0;
  });
}

function printSync(report: SyncReport, dryRun: boolean): void {
  console.log(`catalog:sync against current version ${report.base.label}:`);
  for (const s of report.sources) {
    const counts = s.diff ? `added ${s.diff.added.length}, removed ${s.diff.removed.length}, changed ${s.diff.changed.length}` : 'no diff';
    const skipped = Object.entries(s.skipped)
      .map(([why, n]) => `${why} ${n}`)
      .join(', ');
    const head = `[${s.name}] ${s.status.toUpperCase()} in ${(s.durationMs / 1000).toFixed(1)} s: ${s.rowsRead} rows read from ${s.pages} page(s), ${s.offers} offers`;
    const models = s.provider && s.pricingModels ? ` (${s.pricingModels.join(', ')} offers of ${s.provider} only)` : '';
    const line = `${head}${s.provider ? `; ${counts}${models}` : ''}${skipped ? `; skipped: ${skipped}` : ''}`;
    if (s.status === 'failed') console.error(line);
    else console.log(line);
    if (s.fx) console.log(`  FX: 1 USD = ${s.fx.rates.EUR} EUR (${s.fx.date}; ${s.fx.source})`);
    if (s.error) (s.status === 'failed' ? console.error : console.log)(`  ${s.error}`);
    if (s.diff && s.status !== 'skipped' && s.provider) printDiff(s.diff, dryRun ? 10_000 : 20);
  }
  const imported = report.import;
  if (!imported) {
    console.log('Nothing to import: no source succeeded with a change.');
    return;
  }
  if (imported.status === 'dry-run') console.log('Dry run: nothing was written.');
  else if (imported.status === 'created') {
    console.log(`Created version ${imported.version.label} (${imported.version.id}): ${imported.rowsWritten} rows written.`);
    console.log(imported.published ? 'Published: it is now the current version.' : `Not published; run: npm run catalog:publish -- ${imported.version.label}`);
  } else if (imported.status === 'unchanged') {
    console.log(`Unchanged: identical to version ${imported.version.label}; nothing was written.`);
    if (imported.published) console.log(`Published: ${imported.version.label} is now the current version.`);
  } else printImport(imported);
}

function printImport(report: ImportReport): void {
  if (report.status === 'invalid') {
    console.error(`Rejected: ${report.errors.length} error(s) in ${report.files.length} file(s); nothing was written.`);
    for (const e of report.errors) console.error(`  ${e.file}:${e.line}${e.field ? ` ${e.field}` : ''}: ${e.message}`);
    return;
  }
  if (report.status === 'moved') {
    console.error(
      `Not published: the current version moved from ${report.base?.label ?? 'none'} to ${report.current?.label ?? 'none'} while this import ran, ` +
        'and publishing would revert its changes. Nothing was written. Run the import again (it diffs against the new current version), or pass --force.',
    );
    return;
  }
  const base = report.base ? `current version ${report.base.label}` : 'an empty catalog';
  const scope = report.scope === null ? 'the whole catalog (--full)' : `the offers of ${report.scope.join(', ') || 'no provider'}`;
  console.log(`Read ${report.files.length} file(s); they replace ${scope}; the new catalog has ${report.offerCount} offers. Against ${base}:`);
  const g = report.guard;
  const limits =
    `${g.maxRemovedPercent}% removed, ${g.maxChangedPercent}% changed, ±${g.maxPriceMovePercent}% per price, ±${g.maxFxMovePercent}% per FX rate` +
    (g.allowLargeChange ? ', overridden by --allow-large-change' : '');
  console.log(`  in scope before: ${g.inScopeBefore} offers; removed ${g.removed}, price changed ${g.priceChanged} (limits: ${limits})`);
  printDiff(report.diff);
  for (const v of g.violations) console.error(`  too large: ${v}`);
  if (report.status === 'refused') {
    console.error('Refused: nothing was written. Check the files (a partial file replaces all offers of its providers), use --merge to');
    console.error('only add and update the offers listed, or pass --allow-large-change if the change is intended.');
  } else if (report.status === 'dry-run')
    console.log(g.violations.length ? 'Dry run: nothing was written; a real import would be refused.' : 'Dry run: nothing was written.');
  else if (report.status === 'unchanged') {
    console.log(`Unchanged: identical to version ${report.version.label}; nothing was written.`);
    if (report.published) console.log(`Published: ${report.version.label} is now the current version.`);
    else if (!report.version.current) console.log(`It is not the current version; run: npm run catalog:publish -- ${report.version.label}`);
  } else {
    console.log(`Created version ${report.version.label} (${report.version.id}): ${report.rowsWritten} rows written.`);
    console.log(report.published ? 'Published: it is now the current version.' : `Not published; run: npm run catalog:publish -- ${report.version.label}`);
  }
}

function printDiff(diff: CatalogDiff, limit = 50): void {
  console.log(`  added ${diff.added.length}, removed ${diff.removed.length}, changed ${diff.changed.length}, unchanged ${diff.unchangedOffers}`);
  // The largest price changes first: they are the ones to check before publishing.
  const byImpact = [...diff.changed].sort((a, b) => (b.changePct?.abs().toNumber() ?? Infinity) - (a.changePct?.abs().toNumber() ?? Infinity));
  const lines = [
    ...byImpact.map((c) => {
      const pct = c.changePct ? ` (${c.changePct.gte(0) ? '+' : ''}${c.changePct.toFixed(2)}%)` : '';
      const other = c.otherChanges.length ? ` [also: ${c.otherChanges.join(', ')}]` : '';
      return `  ~ ${offerNaturalKey(c.offer)}  ${c.oldPricePerHour} ${c.oldCurrency}/h -> ${c.newPricePerHour} ${c.offer.currency}/h${pct}${other}`;
    }),
    ...diff.removed.map((o) => `  - ${offerNaturalKey(o)}  ${o.pricePerHour} ${o.currency}/h`),
    ...diff.added.map((o) => `  + ${offerNaturalKey(o)}  ${o.pricePerHour} ${o.currency}/h`),
    ...diff.reference.map((r) => `  ${r.change === 'added' ? '+' : r.change === 'removed' ? '-' : '~'} ${r.kind} ${r.key}`),
  ];
  for (const line of lines.slice(0, limit)) console.log(line);
  if (lines.length > limit) console.log(`  ... and ${lines.length - limit} more`);
}

async function publishCommand([ref]: string[]): Promise<number> {
  if (!ref) throw new Error(USAGE);
  return withAppContext(async (app) => {
    const version = await app.get(CatalogImportService).publish(ref);
    console.log(`Published ${version.label} (${version.id}): it is now the current version.`);
    return 0;
  });
}

async function versionsCommand(): Promise<number> {
  return withAppContext(async (app) => {
    const versions = await app.get(CatalogService).listVersions();
    if (versions.length === 0) console.log('No catalog versions yet; run npm run db:seed.');
    const row = (v: CatalogVersionInfo) =>
      [
        v.current ? '*' : ' ',
        v.label.padEnd(24),
        v.id,
        v.createdAt.toISOString(),
        (v.publishedAt?.toISOString() ?? 'never published').padEnd(24),
        String(v.offerCount).padStart(8),
        String(v.rowsWritten).padStart(8),
      ].join('  ');
    console.log(['  ', 'label'.padEnd(24), 'id'.padEnd(36), 'created'.padEnd(24), 'first published'.padEnd(24), '  offers', ' written'].join('  '));
    for (const v of versions) console.log(row(v));
    return 0;
  });
}

async function diffCommand([from, to]: string[]): Promise<number> {
  if (!from || !to) throw new Error(USAGE);
  return withAppContext(async (app) => {
    const result = await app.get(CatalogService).diff(from, to);
    console.log(`${result.from.label} -> ${result.to.label}:`);
    printDiff(result.diff, 500);
    return 0;
  });
}
