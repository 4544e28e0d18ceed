// npm run catalog:<command>: admin changes to the catalog, as thin shells over the services the
// API uses. Commands: import, publish, versions, diff (see README, "Admin scripts").
import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import type { CatalogDiff } from '../src/domain/catalog/catalog-diff.js';
import { offerNaturalKey } from '../src/domain/catalog/catalog-hash.js';
import type { CatalogVersionInfo } from '../src/domain/catalog/catalog.types.js';
import { CatalogImportService, type ImportReport } from '../src/modules/catalog/catalog-import.service.js';
import { CatalogService } from '../src/modules/catalog/catalog.service.js';
import { withAppContext } from './app-context.js';
import { runScript } from './script-runner.js';

const USAGE = `Usage:
  npm run catalog:import -- <file or folder>... [--dry-run] [--publish] [--label L]
  npm run catalog:publish -- <version id or label>
  npm run catalog:versions
  npm run catalog:diff -- <from> <to>`;

await runScript(async () => {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'import':
      return importCommand(rest);
    case 'publish':
      return publishCommand(rest);
    case 'versions':
      return versionsCommand();
    case 'diff':
      return diffCommand(rest);
    default:
      console.error(USAGE);
      return 2;
  }
});

async function importCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'dry-run': { type: 'boolean' }, publish: { type: 'boolean' }, label: { type: 'string' } },
  });
  if (positionals.length === 0) throw new Error(USAGE);
  return withAppContext(async (app) => {
    const bar = process.stderr.isTTY ? new SingleBar({ format: ' {phase} [{bar}] {value}/{total} rows', hideCursor: true }, Presets.shades_classic) : null;
    let started = false;
    const report = await app.get(CatalogImportService).import({
      paths: positionals,
      dryRun: values['dry-run'],
      publish: values.publish,
      label: values.label,
      onProgress: ({ phase, done, total }) => {
        if (!bar || total < 5_000) return;
        if (!started) bar.start(total, 0, { phase });
        started = true;
        bar.update(done, { phase });
      },
    });
    bar?.stop();
    printImport(report);
    return report.status === 'invalid' ? 1 : 0;
  });
}

function printImport(report: ImportReport): void {
  if (report.status === 'invalid') {
    console.error(`Rejected: ${report.errors.length} error(s) in ${report.files.length} file(s); nothing was written.`);
    for (const e of report.errors) console.error(`  ${e.file}:${e.line}${e.field ? ` ${e.field}` : ''}: ${e.message}`);
    return;
  }
  const base = report.base ? `current version ${report.base.label}` : 'an empty catalog';
  console.log(`Read ${report.offerCount} offers from ${report.files.length} file(s); against ${base}:`);
  printDiff(report.diff);
  if (report.status === 'dry-run') console.log('Dry run: nothing was written.');
  else if (report.status === 'unchanged') console.log(`Unchanged: identical to version ${report.version!.label}; nothing was written.`);
  else {
    console.log(`Created version ${report.version!.label} (${report.version!.id}): ${report.rowsWritten} rows written.`);
    console.log(report.published ? 'Published: it is now the current version.' : `Not published; run: npm run catalog:publish -- ${report.version!.label}`);
  }
}

function printDiff(diff: CatalogDiff, limit = 50): void {
  console.log(`  added ${diff.added.length}, removed ${diff.removed.length}, changed ${diff.changed.length}, unchanged ${diff.unchangedOffers}`);
  const lines = [
    ...diff.added.map((o) => `  + ${offerNaturalKey(o)}  ${o.pricePerHour} ${o.currency}/h`),
    ...diff.removed.map((o) => `  - ${offerNaturalKey(o)}  ${o.pricePerHour} ${o.currency}/h`),
    ...diff.changed.map((c) => {
      const pct = c.changePct ? ` (${c.changePct.gte(0) ? '+' : ''}${c.changePct.toFixed(2)}%)` : '';
      const other = c.otherChanges.length ? ` [also: ${c.otherChanges.join(', ')}]` : '';
      return `  ~ ${offerNaturalKey(c.offer)}  ${c.oldPricePerHour} ${c.oldCurrency}/h -> ${c.newPricePerHour} ${c.offer.currency}/h${pct}${other}`;
    }),
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
      [v.current ? '*' : ' ', v.label.padEnd(24), v.id, v.createdAt.toISOString(), (v.publishedAt?.toISOString() ?? 'never published').padEnd(24), String(v.offerCount).padStart(8), String(v.rowsWritten).padStart(8)].join('  ');
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
