// npm run bench [-- 0,1000,100000 [seconds]]: requests/s, median and p99 of the service's hot
// endpoints under autocannon, with two baselines measured in the same run: a bare Node http
// server (constant JSON) and the raw SQL of the cheapest query through pg. Size 0 is the bundled
// catalog (data/catalog); other sizes are synthetic catalogs, imported through the real import
// path. Results go to stdout as Markdown for BENCHMARKS.md.
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Test } from '@nestjs/testing';
import pg from 'pg';
import { CliModule } from '../src/cli.module.js';
import { loadConfig } from '../src/config/app-config.js';
import { CatalogImportService } from '../src/modules/catalog/catalog-import.service.js';
import { benchDatabase, fmt, machine, syntheticCatalog, writeCatalogFiles } from './support.js';

const sizes = (process.argv[2] ?? '0,1000,100000').split(',').map(Number);
const seconds = Number(process.argv[3] ?? 10);
const PROFILE = [20, 15, 10, 10, 10, 15, 30, 60, 100, 140, 160, 170, 170, 160, 150, 150, 140, 130, 120, 100, 80, 60, 40, 30];

interface Scenario {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  connections: number;
  target: 'service' | 'bare' | 'sql';
}

const scenariosFor = (gpu: string): Scenario[] => [
  { name: 'bare Node http, constant JSON (baseline)', path: '/', connections: 32, target: 'bare' },
  { name: 'raw SQL of the cheapest query via pg (baseline)', path: `/?gpu=${gpu}`, connections: 32, target: 'sql' },
  { name: 'GET /health/live (the service\'s own floor: Nest, guards, logging, metrics)', path: '/health/live', connections: 32, target: 'service' },
  { name: 'GET /v1/offers/cheapest (GDPR preset, no explain)', path: `/v1/offers/cheapest?gpu=${gpu}&preset=GDPR_PERSONAL_DATA&limit=5`, connections: 32, target: 'service' },
  { name: 'GET /v1/offers/cheapest (GDPR preset, explain)', path: `/v1/offers/cheapest?gpu=${gpu}&preset=GDPR_PERSONAL_DATA&explain=true&limit=5`, connections: 32, target: 'service' },
  { name: 'GET /v1/offers (one GPU, 50 per page)', path: `/v1/offers?gpu=${gpu}&limit=50`, connections: 32, target: 'service' },
  ...[1, 32].flatMap((connections): Scenario[] => [
    {
      name: 'POST /v1/estimates, flat load, one GPU type',
      path: '/v1/estimates',
      method: 'POST',
      body: { model: { preset: 'llama-3-8b' }, workload: { requestsPerSecond: 20, avgInputTokens: 500, avgOutputTokens: 200 }, gpus: [gpu] },
      connections,
      target: 'service',
    },
    {
      name: 'POST /v1/estimates, 24-h profile, right-sizing over all GPUs × 4 precisions',
      path: '/v1/estimates',
      method: 'POST',
      body: {
        model: { preset: 'llama-3-8b' },
        workload: { hourlyProfile: PROFILE, avgInputTokens: 500, avgOutputTokens: 200, batchShare: 0.15 },
        policy: { preset: 'GDPR_PERSONAL_DATA', tolerance: 'RECOVERABLE' },
        precisions: ['FP16', 'FP8', 'INT8', 'INT4'],
      },
      connections,
      target: 'service',
    },
  ]),
];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function startProcess(args: string[], env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(readyUrl).then((r) => r.ok, () => false);
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${args.join(' ')} did not become ready`);
}

async function run(url: string, s: Scenario) {
  const result = await autocannon({
    url: `${url}${s.path}`,
    method: s.method ?? 'GET',
    connections: s.connections,
    duration: seconds,
    headers: s.body ? { 'content-type': 'application/json' } : {},
    body: s.body ? JSON.stringify(s.body) : undefined,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad, total: result.requests.total };
}

console.log(`Machine: ${machine()}; autocannon ${seconds} s per scenario; catalogs: ${sizes.join(', ')} synthetic offers`);
const table: string[] = [];
for (const size of sizes) {
  const db = await benchDatabase();
  const dir = await mkdtemp(path.join(os.tmpdir(), `bench-http-${size}-`));
  const children: ChildProcess[] = [];
  try {
    const bundled = size === 0;
    if (!bundled) await writeCatalogFiles(syntheticCatalog(size), dir, `bench-${size}`);
    const scenarios = scenariosFor(bundled ? 'h100-sxm-80gb' : 'gpu-3');
    const moduleRef = await Test.createTestingModule({ imports: [CliModule.register({ config: loadConfig({ DATABASE_URL: db.url }), databaseUrl: db.url })] }).compile();
    const ctx = await moduleRef.init();
    const report = await ctx.get(CatalogImportService).import({ paths: [bundled ? 'data/catalog' : dir], publish: true });
    await ctx.close();
    if (report.status !== 'created') throw new Error(`import failed: ${report.status}`);
    const sizeLabel = bundled ? `bundled (${report.offerCount})` : size.toLocaleString('en-US');
    // The SQL baseline gets the index it needs; the service answers from memory.
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query('CREATE INDEX bench_offers_gpu ON offers (gpu_slug)');
    await c.query('ANALYZE');
    await c.end();

    const [servicePort, barePort, sqlPort] = [await freePort(), await freePort(), await freePort()];
    const urls = { service: `http://127.0.0.1:${servicePort}`, bare: `http://127.0.0.1:${barePort}`, sql: `http://127.0.0.1:${sqlPort}` };
    children.push(
      await startProcess(['dist/src/main.js'], { DATABASE_URL: db.url, PORT: String(servicePort), HOST: '127.0.0.1', LOG_LEVEL: 'warn', LOG_FORMAT: 'json', MIGRATE_ON_START: 'false', RATE_LIMIT_PER_MINUTE: '0' }, `${urls.service}/health/ready`),
      await startProcess(['dist/bench/baseline-servers.js', 'bare', String(barePort)], {}, urls.bare),
      await startProcess(['dist/bench/baseline-servers.js', 'sql', String(sqlPort)], { DATABASE_URL: db.url }, urls.sql),
    );
    const results = new Map<string, Awaited<ReturnType<typeof run>>>();
    for (const s of scenarios) {
      await run(urls[s.target], { ...s, connections: 1 }).catch(() => undefined); // warm-up
      const r = await run(urls[s.target], s);
      results.set(s.name + s.connections, r);
      const bare = results.get(scenarios[0]!.name + 32);
      const sql = results.get(scenarios[1]!.name + 32);
      const line = `| ${sizeLabel} | ${s.name} | ${s.connections} | ${fmt(r.rps, 0)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${bare ? fmt((100 * r.rps) / bare.rps, 0) + '%' : ''} | ${sql ? fmt(r.rps / sql.rps, 2) + '×' : ''} | ${r.bad} of ${r.total} |`;
      table.push(line);
      console.log(line);
    }
    const metrics = await fetch(`${urls.service}/metrics`).then((r) => r.text());
    const rss = Number(/process_resident_memory_bytes (\d+)/.exec(metrics)?.[1] ?? NaN);
    const heap = Number(/nodejs_heap_size_used_bytes (\d+)/.exec(metrics)?.[1] ?? NaN);
    const memLine = `Service memory after the runs with ${sizeLabel} offers: RSS ${fmt(rss / 2 ** 20, 0)} MiB, heap used ${fmt(heap / 2 ** 20, 0)} MiB.`;
    table.push(memLine);
    console.log(memLine);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await rm(dir, { recursive: true, force: true });
    await db.drop();
  }
}
console.log('\n| offers | scenario | connections | req/s | median ms | p99 ms | % of bare Node req/s | × raw SQL req/s | errors |');
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---|');
for (const line of table) console.log(line);
process.exit(0);
