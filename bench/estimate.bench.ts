// npm run bench:estimate [-- 0,100000 [requests] [rounds]]: the full right-sizing estimate in
// process, single-threaded, with no HTTP and no database: EstimatesService.estimate as the
// controller calls it (policy, candidate selection on the main thread), with the worker's
// function (wire format in and out) run on the same thread. Catalogs: size 0 is the bundled one
// (data/catalog), other sizes are synthetic (bench/support.ts), both read through the import's
// parser. Every request is distinct (another egress volume), as in http.bench.ts. A fixed piece of
// CPU work (sorting doubles) is timed between rounds as a baseline, so a busy machine shows as a
// slower baseline in the same run; each estimate's CPU time (process.cpuUsage) is reported beside
// its wall time, since on a shared machine the wall time also counts waiting for a core. Prints
// median and p99 per round, and the median of the rounds' figures.
import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assembleCatalog, parseCatalogFiles } from '../src/domain/catalog/catalog-files.js';
import type { CatalogContent, CatalogVersionInfo } from '../src/domain/catalog/catalog.types.js';
import { indexCatalog, type CatalogIndex } from '../src/domain/compliance/index.js';
import { defined } from '../src/domain/checked.js';
import { fromWire } from '../src/domain/money/decimal-wire.js';
import { readCatalogFiles } from '../src/modules/catalog-admin/index.js';
import type { CatalogService } from '../src/modules/catalog/catalog.service.js';
import type { EstimateInput } from '../src/modules/estimates/dto/estimate.input.js';
import type { EstimatePool } from '../src/modules/estimates/estimate-pool.js';
import estimateInWorker, { type PlannedEstimate } from '../src/modules/estimates/estimate.worker.js';
import { toTask, type PlanRequest } from '../src/modules/estimates/estimate-task.js';
import { EstimatesService } from '../src/modules/estimates/estimates.service.js';
import { MeasurementInputs } from '../src/modules/estimates/measurement-inputs.js';
import { PrometheusClient } from '../src/modules/estimates/prometheus-client.js';
import { PrometheusQueries } from '../src/modules/estimates/prometheus-queries.js';
import { fmt, machine, median, ms, percentile, syntheticCatalog, tableRow, writeCatalogFiles } from './support.js';

const sizes = (process.argv[2] ?? '0,100000').split(',').map(Number);
const requests = Number(process.argv[3] ?? 300);
const rounds = Number(process.argv[4] ?? 3);
const PROFILE = [20, 15, 10, 10, 10, 15, 30, 60, 100, 140, 160, 170, 170, 160, 150, 150, 140, 130, 120, 100, 80, 60, 40, 30];

/**
 * The request of http.bench.ts's right-sizing scenario, made distinct by n: another egress volume
 * (a hidden-cost line: the same plan), and with `newPolicy` also a price cap far above every
 * price (the same offers, but another policy, so nothing kept per policy can answer).
 */
const rightSizing = (n: number, newPolicy: boolean): EstimateInput => ({
  model: { preset: 'llama-3-8b' },
  workload: { hourlyProfile: PROFILE, avgInputTokens: 500, avgOutputTokens: 200, batchShare: 0.15 },
  policy: { preset: 'GDPR_PERSONAL_DATA', tolerance: 'RECOVERABLE', ...(newPolicy ? { maxPricePerGpuHour: (100000 + n / 10000).toFixed(4) } : {}) },
  precisions: ['FP16', 'FP8', 'INT8', 'INT4'],
  egressGbPerMonth: n,
});

async function loadCatalog(size: number): Promise<CatalogContent> {
  const dir = size === 0 ? null : await mkdtemp(path.join(os.tmpdir(), `bench-estimate-${size}-`));
  try {
    if (dir) await writeCatalogFiles(syntheticCatalog(size), dir, `bench-${size}`);
    const parsed = parseCatalogFiles(await readCatalogFiles([dir ?? 'data/catalog']));
    return defined(assembleCatalog({ parsed, inherited: null, scope: { mode: 'FULL' } }).content, 'catalog');
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

function serviceOn(index: CatalogIndex): EstimatesService {
  const version = { id: 'bench', label: 'bench' } as CatalogVersionInfo;
  const catalog = { indexedSnapshot: () => Promise.resolve({ version, index }) } as unknown as CatalogService;
  // The worker's own function, on this thread: the same wire format both ways as through the pool.
  const pool = { run: (request: PlanRequest) => Promise.resolve(fromWire<PlannedEstimate>(estimateInWorker(toTask(request)))) } as unknown as EstimatePool;
  const config = {
    STALE_PRICE_DAYS: 90,
    STALE_FX_DAYS: 14,
    MEASUREMENT_MAX_SAMPLES: 200_000,
    PROMETHEUS_TIMEOUT_MS: 10_000,
    PROMETHEUS_MAX_BYTES: 1 << 25,
    PROMETHEUS_QUERIES: 'authenticated' as const,
    PROMETHEUS_METRICS: [] as string[],
    PROMETHEUS_QUERIES_PER_MINUTE: 30,
  };
  return new EstimatesService(catalog, pool, new MeasurementInputs(new PrometheusQueries(new PrometheusClient(config), config), config), config);
}

/** Fixed CPU work, independent of the code under test: sorting 200k doubles, ten times. */
function baselineMs(): number {
  const values = Float64Array.from({ length: 200_000 }, (_, i) => Math.sin(i) * 1e6);
  const start = process.hrtime.bigint();
  for (let i = 0; i < 10; i++) Float64Array.from(values).sort();
  return ms(process.hrtime.bigint() - start) / 10;
}

let sent = 0;
console.log(`Machine: ${machine()}; ${requests} distinct right-sizing estimates per round, ${rounds} rounds per catalog`);
const rows: string[] = [];
for (const size of sizes) {
  const content = await loadCatalog(size);
  const index = indexCatalog(content);
  const service = serviceOn(index);
  const label =
    size === 0
      ? `bundled (${content.offers.length} offers, ${content.gpus.length} GPUs)`
      : `${size.toLocaleString('en-US')} synthetic (${content.gpus.length} GPUs)`;
  for (let i = 0; i < 30; i++) await service.estimate(rightSizing(sent++, true)); // warm-up (JIT)
  for (const newPolicy of [false, true]) {
    const scenario = newPolicy ? 'distinct body and policy' : 'distinct body, same policy';
    const medians: number[] = [];
    const p99s: number[] = [];
    const cpuMedians: number[] = [];
    const cpuP99s: number[] = [];
    const baselines: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      baselines.push(baselineMs());
      const times: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < requests; i++) {
        const cpuStart = process.cpuUsage();
        const start = process.hrtime.bigint();
        await service.estimate(rightSizing(sent++, newPolicy));
        times.push(ms(process.hrtime.bigint() - start));
        const used = process.cpuUsage(cpuStart);
        cpu.push((used.user + used.system) / 1000);
      }
      times.sort((a, b) => a - b);
      cpu.sort((a, b) => a - b);
      medians.push(percentile(times, 50));
      p99s.push(percentile(times, 99));
      cpuMedians.push(percentile(cpu, 50));
      cpuP99s.push(percentile(cpu, 99));
      console.log(
        `${label}, ${scenario}, round ${round}: wall median ${fmt(percentile(times, 50), 2)} ms, p99 ${fmt(percentile(times, 99), 2)} ms, max ${fmt(times.at(-1) ?? NaN, 2)} ms; ` +
          `CPU median ${fmt(percentile(cpu, 50), 2)} ms, p99 ${fmt(percentile(cpu, 99), 2)} ms`,
      );
    }
    rows.push(
      tableRow([
        label,
        scenario,
        requests,
        rounds,
        fmt(median(medians), 2),
        fmt(median(p99s), 2),
        fmt(median(cpuMedians), 2),
        fmt(median(cpuP99s), 2),
        fmt(median(baselines), 2),
      ]),
    );
  }
}
console.log(
  '\n| catalog | requests | estimates per round | rounds | wall median ms | wall p99 ms | CPU median ms | CPU p99 ms | baseline: sort 200k doubles, ms |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
