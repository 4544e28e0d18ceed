// npm run bench:import [-- 10000,100000,1000000]: imports synthetic catalogs of each size through
// the real import path (read, validate every row, diff, write in one transaction) and compares
// with a raw COPY of the same rows into an unlogged table, measured in the same run. Then it
// re-imports the unchanged catalog, and imports it again with 1% of the prices changed.
import 'reflect-metadata';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { CliModule } from '../src/cli.module.js';
import { loadConfig } from '../src/config/app-config.js';
import { Decimal } from '../src/domain/money/money.js';
import { CatalogImportService } from '../src/modules/catalog-admin/index.js';
import { CatalogRepository } from '../src/modules/catalog/catalog.repository.js';
import { benchDatabase, fmt, machine, ms, OFFER_COLUMNS, offerCsvRow, syntheticCatalog, tableRow, writeCatalogFiles } from './support.js';

/** The baseline table's column types, one per column of offers.csv (the type checker wants each). */
const BASELINE_TYPES: Record<(typeof OFFER_COLUMNS)[number], string> = {
  provider: 'text',
  region: 'text',
  gpu: 'text',
  gpuCount: 'int',
  instanceType: 'text',
  pricingModel: 'text',
  pricePerHour: 'numeric(18,6)',
  currency: 'char(3)',
  upfront: 'numeric(18,2)',
  termMonths: 'int',
  serverlessUnitPrice: 'numeric(18,9)',
  serverlessUnit: 'text',
  interruptionNoticeSeconds: 'int',
  source: 'text',
  sourceTitle: 'text',
  observedAt: 'date',
  priceKind: 'text',
  derivation: 'text',
  conversion: 'text',
  sourceKind: 'text',
};

const sizes = (process.argv[2] ?? '10000,100000,1000000').split(',').map(Number);
const rows: string[] = [];
console.log(`Machine: ${machine()}`);

for (const size of sizes) {
  const db = await benchDatabase();
  const dir = await mkdtemp(path.join(os.tmpdir(), `bench-import-${size}-`));
  // Closed before the database is dropped, also when a step fails: the drop ends any session
  // still open, and a pg client with no error listener would then crash the run and hide the
  // step's own error.
  let client: pg.Client | undefined;
  let app: INestApplicationContext | undefined;
  try {
    const content = syntheticCatalog(size);
    await writeCatalogFiles(content, dir, `bench-${size}-a`);

    // Baseline: the same offer rows, COPY'd straight into an unlogged table of typed columns.
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(`CREATE UNLOGGED TABLE bench_copy (${OFFER_COLUMNS.map((c) => `"${c}" ${BASELINE_TYPES[c]}`).join(', ')})`);
    const copyStart = process.hrtime.bigint();
    await pipeline(createReadStream(path.join(dir, 'offers.csv')), client.query(copyFrom(`COPY bench_copy FROM STDIN WITH (FORMAT csv, HEADER true)`)));
    const copyMs = ms(process.hrtime.bigint() - copyStart);
    await client.query('DROP TABLE bench_copy');
    await client.end();
    client = undefined;

    const config = loadConfig({ DATABASE_URL: db.url });
    const moduleRef = await Test.createTestingModule({ imports: [CliModule.register({ config, databaseUrl: db.url })] }).compile();
    app = await moduleRef.init();
    const importer = app.get(CatalogImportService);
    const repo = app.get(CatalogRepository);

    const t0 = process.hrtime.bigint();
    const first = await importer.import({ paths: [dir], publish: true });
    const firstMs = ms(process.hrtime.bigint() - t0);
    if (first.status !== 'created') throw new Error(`first import: ${first.status} ${JSON.stringify((first as { errors?: unknown }).errors)?.slice(0, 500)}`);

    const t1 = process.hrtime.bigint();
    const again = await importer.import({ paths: [dir] });
    const againMs = ms(process.hrtime.bigint() - t1);

    // 1% of the prices change by +5%: the new version should write about 1% new offer rows.
    const changed = { ...content, offers: content.offers.map((o, i) => (i % 100 === 0 ? { ...o, pricePerHour: o.pricePerHour.mul(new Decimal('1.05')) } : o)) };
    await writeFile(path.join(dir, 'offers.csv'), `${[OFFER_COLUMNS.join(','), ...changed.offers.map(offerCsvRow)].join('\n')}\n`);
    const meta = await readFile(path.join(dir, 'catalog.yaml'), 'utf8');
    await writeFile(path.join(dir, 'catalog.yaml'), meta.replace(`bench-${size}-a`, `bench-${size}-b`));
    const t2 = process.hrtime.bigint();
    const delta = await importer.import({ paths: [dir], publish: true });
    const deltaMs = ms(process.hrtime.bigint() - t2);
    const counts = await repo.countRows();
    await app.close();
    app = undefined;

    const written = (r: typeof delta) => (r.status === 'created' ? r.rowsWritten : 0);
    rows.push(
      tableRow([
        size.toLocaleString('en-US'),
        `${fmt(copyMs / 1000, 2)} s`,
        `${fmt(firstMs / 1000, 2)} s`,
        `${fmt(firstMs / copyMs, 1)}×`,
        fmt(size / (firstMs / 1000), 0),
        written(first).toLocaleString('en-US'),
        `${again.status}, ${fmt(againMs / 1000, 2)} s (${fmt((100 * againMs) / firstMs, 1)}%)`,
        `${delta.status}, ${fmt(deltaMs / 1000, 2)} s, ${written(delta).toLocaleString('en-US')} rows (${fmt((100 * written(delta)) / size, 2)}%)`,
        counts.offers.toLocaleString('en-US'),
      ]),
    );
    console.log(rows.at(-1));
  } finally {
    await client?.end().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    await db.drop();
  }
}

const HEADER = [
  'offers',
  'raw COPY (baseline)',
  'import',
  'import ÷ COPY',
  'offers/s',
  'rows written',
  're-import unchanged (% of first)',
  'import with 1% changed',
  'offer rows stored',
];
console.log(`\n${tableRow(HEADER)}`);
console.log('|---:|---:|---:|---:|---:|---:|---|---|---:|');
for (const r of rows) console.log(r);
process.exit(0);
