// npm run bench:answers [-- 0,100000 [--against <dir>]]: the work of one REST read in process, with
// no HTTP and no database: the query string read as the pipe reads it, the service's answer, the
// response model, its JSON (the REST serialiser) and its ETag, for the cheapest query (GDPR preset,
// five offers), the same with explain, and a page of 50 offers. Every request is distinct (another
// price cap far above every price), as in http.bench.ts.
//
// With --against, a second build's compiled tree (the dist/ of another checkout, built with `npm
// run build`) runs the same requests in the same process, in alternating rounds, so a machine
// whose speed moves from minute to minute favours neither: it prints both medians and the median
// of the per-round ratios. A later build against an earlier one is how BENCHMARKS.md says what a
// change to these paths saved.
import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, machine, median, syntheticCatalog, writeCatalogFiles } from './support.js';

const args = process.argv.slice(2);
const against = args.includes('--against') ? args[args.indexOf('--against') + 1] : undefined;
const sizes = (args.find((a) => /^[\d,]+$/.test(a)) ?? '0').split(',').map(Number);
const ROUNDS = 9;
const PER_ROUND = 3000;

type Scenario = 'cheapest' | 'explain' | 'page of 50';
const SCENARIOS: Scenario[] = ['cheapest', 'explain', 'page of 50'];

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return --
   Both builds are loaded by path, so that one bench can measure another checkout's code. */
/** One build's request path, from its compiled tree (`<dist>/src`), on a catalog directory. */
async function build(dist: string, catalogDir: string): Promise<(scenario: Scenario, n: number) => Promise<number>> {
  const load = (file: string): Promise<any> => import(pathToFileURL(path.join(dist, 'src', file)).href);
  const { assembleCatalog, parseCatalogFiles } = await load('domain/catalog/catalog-files.js');
  const { readCatalogFiles } = await load('modules/catalog-admin/catalog-import.service.js');
  const { indexCatalog } = await load('domain/compliance/index.js');
  const { OffersService } = await load('modules/offers/offers.service.js');
  const { CheapestOffersQuery, ListOffersQuery } = await load('modules/offers/dto/offers.query.js');
  const { createValidationPipe } = await load('common/errors/validation.js');
  const pipe = createValidationPipe();
  const readQuery = (type: unknown, query: Record<string, string>): Promise<any> => pipe.transform(query, { type: 'query', metatype: type });
  const { searchFromCheapestQuery, searchFromListQuery } = await load('modules/offers/offer-search.js');
  const { CheapestOffersResultModel, OfferConnectionModel } = await load('modules/offers/models/offers-result.model.js');
  const { etagOf } = await load('modules/http/response-cache.js');
  // Before the REST serialiser existed, Fastify wrote answers with JSON.stringify.
  const serialise: (value: unknown) => string = (await load('common/http/answer-json.js').catch(() => null))?.answerJson ?? JSON.stringify;
  const parsed = parseCatalogFiles(await readCatalogFiles([catalogDir]));
  const index = indexCatalog(assembleCatalog({ parsed, inherited: null, scope: { mode: 'FULL' } }).content);
  const version = { id: '00000000-0000-4000-8000-000000000001', label: 'bench' };
  const offers = new OffersService({ indexedSnapshot: () => Promise.resolve({ version, index }) }, { STALE_PRICE_DAYS: 90 });
  const gpu = catalogDir === 'data/catalog' ? 'h100-sxm-80gb' : 'gpu-3';
  return async (scenario, n) => {
    const maxPricePerGpuHour = (100000 + n / 10000).toFixed(4);
    if (scenario === 'page of 50') {
      const query = await readQuery(ListOffersQuery, { gpu, limit: '50', maxPricePerGpuHour });
      const { version: v, page, nextCursor } = await offers.list(searchFromListQuery(query), { limit: query.limit, cursor: query.cursor });
      return etagOf(serialise(OfferConnectionModel.of(v, page, nextCursor))).length;
    }
    const query = await readQuery(CheapestOffersQuery, {
      gpu,
      preset: 'GDPR_PERSONAL_DATA',
      limit: '5',
      ...(scenario === 'explain' ? { explain: 'true' } : {}),
      maxPricePerGpuHour,
    });
    const { version: v, result, warnings } = await offers.cheapest(searchFromCheapestQuery(query), { limit: query.limit, explain: query.explain });
    return etagOf(serialise(CheapestOffersResultModel.of(v, result, warnings))).length;
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return */

console.log(`Machine: ${machine()}; ${ROUNDS} rounds of ${PER_ROUND} distinct requests per scenario${against ? `; against ${against}` : ''}`);
const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const rows: string[] = [];
let n = 0;
for (const size of sizes) {
  const dir = size === 0 ? null : await mkdtemp(path.join(os.tmpdir(), `bench-answers-${size}-`));
  try {
    if (dir) await writeCatalogFiles(syntheticCatalog(size), dir, `bench-${size}`);
    const catalogDir = dir ?? 'data/catalog';
    const sides = [{ name: 'this build', run: await build(here, catalogDir) }];
    if (against) sides.push({ name: against, run: await build(path.resolve(against, 'dist'), catalogDir) });
    for (const scenario of SCENARIOS) {
      for (const side of sides) for (let i = 0; i < 2000; i++) await side.run(scenario, n++); // warm-up (JIT)
      const times = sides.map((): number[] => []);
      for (let round = 0; round < ROUNDS; round++) {
        // The order alternates, so that neither side always runs on a warmer or busier machine.
        const order = round % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => sides.length - 1 - i);
        for (const i of order) {
          const side = sides[i];
          if (!side) continue;
          const start = process.hrtime.bigint();
          for (let r = 0; r < PER_ROUND; r++) await side.run(scenario, n++);
          times[i]?.push(Number(process.hrtime.bigint() - start) / PER_ROUND / 1000);
        }
      }
      const [mine, theirs] = times;
      const ratio = theirs && mine ? fmt(median(mine.map((t, i) => t / (theirs[i] ?? NaN))), 3) : '';
      rows.push(
        `| ${size === 0 ? 'bundled' : size.toLocaleString('en-US')} | ${scenario} | ${fmt(median(mine ?? []), 1)} | ${theirs ? fmt(median(theirs), 1) : ''} | ${ratio} |`,
      );
      console.log(rows.at(-1));
    }
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}
console.log(
  `\n| catalog | request | this build, µs per request (median of rounds) | ${against ?? 'against'}, µs | this ÷ against (median of per-round ratios) |`,
);
console.log('|---|---|---:|---:|---:|');
for (const row of rows) console.log(row);
