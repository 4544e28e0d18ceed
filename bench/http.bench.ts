// npm run bench [-- 0,1000,100000 [seconds] [rounds]]: requests/s, median and p99 of the service's
// hot endpoints under autocannon, with baselines measured in the same run: a bare Node http server
// (constant JSON), an empty NestJS + Fastify app (the same JSON), the raw SQL of the cheapest
// query through pg, and the bare server again answering the bytes of the service's cheapest
// answer. Size 0 is the bundled catalog (data/catalog); other sizes are synthetic catalogs,
// imported through the real import path. "Distinct" scenarios change one harmless parameter on
// every request, so the response cache cannot answer them; "repeated" ones send the same request,
// which the cache answers.
//
// The machine's speed moves by a factor of two or three within minutes (BENCHMARKS.md), so a ratio
// against a baseline measured minutes earlier says more about the machine than the service. Each
// service scenario is therefore measured in `rounds` rounds, each paired with a run of its
// baselines right before or after it (the order alternates), and the table gives the median of
// the per-round ratios. Beside it, the service's main-thread CPU time per request (from
// /proc/<pid>/task/<pid>/stat), which the load generator's speed does not move. Results go to
// stdout as Markdown for BENCHMARKS.md.
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Test } from '@nestjs/testing';
import pg from 'pg';
import { CliModule } from '../src/cli.module.js';
import { loadConfig } from '../src/config/app-config.js';
import { CatalogImportService } from '../src/modules/catalog-admin/index.js';
import { serviceCommand } from '../scripts/service-command.js';
import { defined } from '../src/domain/checked.js';
import { benchDatabase, fmt, machine, median, syntheticCatalog, writeCatalogFiles } from './support.js';

const sizes = (process.argv[2] ?? '0,1000,100000').split(',').map(Number);
const seconds = Number(process.argv[3] ?? 10);
const rounds = Number(process.argv[4] ?? 3);
const PROFILE = [20, 15, 10, 10, 10, 15, 30, 60, 100, 140, 160, 170, 170, 160, 150, 150, 140, 130, 120, 100, 80, 60, 40, 30];

type Target = 'service' | 'bare' | 'nest' | 'sql' | 'bareAnswer';
/** What a service scenario is paired with in each round: bare Node always, and the aims' other baselines. */
const PAIRED_WITH = (s: Scenario): Target[] =>
  s.path === '/health/live' ? ['bare', 'nest'] : s.path.startsWith('/v1/offers/cheapest') ? ['bare', 'bareAnswer'] : ['bare'];

interface Scenario {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  connections: number;
  target: Target;
  /** Makes request n differ from every other (a cache miss) without changing the work. */
  distinct?: (n: number) => { path?: string; body?: unknown };
}

/** A price cap far above every price, different on every request: the same answer, another key. */
const cap = (n: number) => `&maxPricePerGpuHour=${(100000 + n / 10000).toFixed(4)}`;
const RIGHT_SIZING = {
  model: { preset: 'llama-3-8b' },
  workload: { hourlyProfile: PROFILE, avgInputTokens: 500, avgOutputTokens: 200, batchShare: 0.15 },
  policy: { preset: 'GDPR_PERSONAL_DATA', tolerance: 'RECOVERABLE' },
  precisions: ['FP16', 'FP8', 'INT8', 'INT4'],
};

const scenariosFor = (gpu: string): Scenario[] => {
  const cheapest = `/v1/offers/cheapest?gpu=${gpu}&preset=GDPR_PERSONAL_DATA&limit=5`;
  const flat = { model: { preset: 'llama-3-8b' }, workload: { requestsPerSecond: 20, avgInputTokens: 500, avgOutputTokens: 200 }, gpus: [gpu] };
  // Egress of n GB a month: the same plan (egress is a line of the hidden costs), another body.
  const distinctBody = (body: typeof flat | typeof RIGHT_SIZING, n: number) => ({ ...body, egressGbPerMonth: n % 100_000_000 });
  return [
    { name: 'bare Node http, constant JSON (baseline)', path: '/', connections: 32, target: 'bare' },
    { name: 'empty NestJS + Fastify app, constant JSON (baseline)', path: '/', connections: 32, target: 'nest' },
    { name: 'raw SQL of the cheapest query via pg (baseline)', path: `/?gpu=${gpu}`, connections: 32, target: 'sql' },
    {
      name: "bare Node http, the bytes of the service's cheapest answer (baseline)",
      path: '/',
      connections: 32,
      target: 'bareAnswer',
    },
    { name: 'GET /health/live', path: '/health/live', connections: 32, target: 'service' },
    ...[8, 32].map((connections): Scenario => ({
      name: 'GET /v1/offers/cheapest (GDPR preset, no explain), distinct',
      path: cheapest,
      connections,
      target: 'service',
      distinct: (n) => ({ path: cheapest + cap(n) }),
    })),
    { name: 'GET /v1/offers/cheapest (GDPR preset, no explain), repeated (cache hit)', path: cheapest, connections: 32, target: 'service' },
    {
      name: 'GET /v1/offers/cheapest (GDPR preset, explain), distinct',
      path: `${cheapest}&explain=true`,
      connections: 32,
      target: 'service',
      distinct: (n) => ({ path: `${cheapest}&explain=true${cap(n)}` }),
    },
    {
      name: 'GET /v1/offers (one GPU, 50 per page), distinct',
      path: `/v1/offers?gpu=${gpu}&limit=50`,
      connections: 32,
      target: 'service',
      distinct: (n) => ({ path: `/v1/offers?gpu=${gpu}&limit=50${cap(n)}` }),
    },
    ...[1, 32].flatMap((connections): Scenario[] => [
      {
        name: 'POST /v1/estimates, flat load, one GPU type, distinct',
        path: '/v1/estimates',
        method: 'POST',
        body: flat,
        connections,
        target: 'service',
        distinct: (n) => ({ body: distinctBody(flat, n) }),
      },
      {
        name: 'POST /v1/estimates, 24-h profile, right-sizing over all GPUs × 4 precisions, distinct',
        path: '/v1/estimates',
        method: 'POST',
        body: RIGHT_SIZING,
        connections,
        target: 'service',
        distinct: (n) => ({ body: distinctBody(RIGHT_SIZING, n) }),
      },
    ]),
  ];
};

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
    const ok = await fetch(readyUrl).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${args.join(' ')} did not become ready`);
}

let sent = 0;
async function run(url: string, s: Scenario): Promise<Result> {
  const distinct = s.distinct;
  const result = await autocannon({
    url: `${url}${s.path}`,
    method: s.method ?? 'GET',
    connections: s.connections,
    duration: seconds,
    headers: s.body ? { 'content-type': 'application/json' } : {},
    body: s.body ? JSON.stringify(s.body) : undefined,
    ...(distinct
      ? {
          requests: [
            {
              setupRequest: (req: autocannon.Request) => {
                const change = distinct(sent++);
                return { ...req, ...(change.path ? { path: change.path } : {}), ...(change.body ? { body: JSON.stringify(change.body) } : {}) };
              },
            },
          ],
        }
      : {}),
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad, total: result.requests.total };
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  bad: number;
  total: number;
  /** Service scenarios: main-thread CPU time per request, µs. */
  cpuUsPerRequest?: number;
}

/** How long the memory is read again after the runs, with no load. */
const REST_SECONDS = 20;

/** The service's RSS and V8 heap in use, MiB, from its /metrics. */
async function serviceMemory(url: string): Promise<{ rss: number; heapUsed: number }> {
  const metrics = await fetch(`${url}/metrics`).then((r) => r.text());
  const read = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(metrics)?.[1] ?? NaN) / 2 ** 20;
  return { rss: read('process_resident_memory_bytes'), heapUsed: read('nodejs_heap_size_used_bytes') };
}

/** User + system CPU time of a process's main thread so far (clock ticks of 10 ms). */
async function mainThreadCpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const pct = (ratio: number | undefined) => (ratio === undefined || !Number.isFinite(ratio) ? '' : `${fmt(100 * ratio, 0)}%`);

/** A table row: medians over the rounds; for a service scenario the median of its per-round ratios to the paired baselines. */
function row(size: string, sc: Scenario, results: Result[], service: { ratios: Map<Target, number[]>; sqlMedian: number } | null): string {
  const rps = median(results.map((r) => r.rps));
  const ratio = (t: Target) => (service?.ratios.has(t) ? median(service.ratios.get(t) ?? []) : undefined);
  const cpu = service ? fmt(median(results.map((r) => r.cpuUsPerRequest ?? NaN)), 0) : '';
  const bad = results.reduce((n, r) => n + r.bad, 0);
  const total = results.reduce((n, r) => n + r.total, 0);
  return `| ${size} | ${sc.name} | ${sc.connections} | ${fmt(rps, 0)} | ${fmt(median(results.map((r) => r.p50)), 1)} | ${fmt(median(results.map((r) => r.p99)), 1)} | ${cpu} | ${pct(ratio('bare'))} | ${pct(ratio('nest'))} | ${pct(ratio('bareAnswer'))} | ${service ? fmt(rps / service.sqlMedian, 2) + '×' : ''} | ${bad} of ${total} |`;
}

console.log(`Machine: ${machine()}; autocannon ${seconds} s per run, ${rounds} rounds per scenario; catalogs: ${sizes.join(', ')} synthetic offers`);
const table: string[] = [];
for (const size of sizes) {
  const db = await benchDatabase();
  const dir = await mkdtemp(path.join(os.tmpdir(), `bench-http-${size}-`));
  const children: ChildProcess[] = [];
  try {
    const bundled = size === 0;
    if (!bundled) await writeCatalogFiles(syntheticCatalog(size), dir, `bench-${size}`);
    const scenarios = scenariosFor(bundled ? 'h100-sxm-80gb' : 'gpu-3');
    const moduleRef = await Test.createTestingModule({
      imports: [CliModule.register({ config: loadConfig({ DATABASE_URL: db.url }), databaseUrl: db.url })],
    }).compile();
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

    const service = serviceCommand();
    const [servicePort, barePort, nestPort, sqlPort, bareAnswerPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const urls = {
      service: `http://127.0.0.1:${servicePort}`,
      bare: `http://127.0.0.1:${barePort}`,
      nest: `http://127.0.0.1:${nestPort}`,
      sql: `http://127.0.0.1:${sqlPort}`,
      bareAnswer: `http://127.0.0.1:${bareAnswerPort}`,
    };
    children.push(
      await startProcess(
        service.args,
        {
          ...service.env,
          DATABASE_URL: db.url,
          PORT: String(servicePort),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          LOG_FORMAT: 'json',
          MIGRATE_ON_START: 'false',
          RATE_LIMIT_PER_MINUTE: '0',
        },
        `${urls.service}/health/ready`,
      ),
      await startProcess(['dist/bench/baseline-servers.js', 'bare', String(barePort)], {}, urls.bare),
      await startProcess(['dist/bench/empty-nest-app.js', String(nestPort)], {}, urls.nest),
      await startProcess(['dist/bench/baseline-servers.js', 'sql', String(sqlPort)], { DATABASE_URL: db.url }, urls.sql),
    );
    // The service's answer to the cheapest query, for the baseline that sends the same bytes.
    const answerFile = path.join(dir, 'cheapest-answer.json');
    await writeFile(
      answerFile,
      await fetch(`${urls.service}${scenarios.find((s) => s.name.startsWith('GET /v1/offers/cheapest'))?.path ?? ''}`).then((r) => {
        if (!r.ok) throw new Error(`the cheapest answer for the baseline: HTTP ${r.status}`);
        return r.text();
      }),
    );
    children.push(await startProcess(['dist/bench/baseline-servers.js', 'bare-file', String(bareAnswerPort), answerFile], {}, urls.bareAnswer));
    const servicePid = defined(children[0]?.pid, 'the service process');
    const baselines = scenarios.filter((sc) => sc.target !== 'service');
    const services = scenarios.filter((sc) => sc.target === 'service');
    // Baselines alone first (their own rows), then each service scenario with its pairs.
    const own = new Map<Target, Result[]>();
    for (const b of baselines) {
      await run(urls[b.target], { ...b, connections: 1 }).catch(() => undefined); // warm-up
      for (let r = 0; r < rounds; r++) own.set(b.target, [...(own.get(b.target) ?? []), await run(urls[b.target], b)]);
      const line = row(sizeLabel, b, own.get(b.target) ?? [], null);
      table.push(line);
      console.log(line);
    }
    const sqlMedian = median((own.get('sql') ?? []).map((r) => r.rps));
    for (const sc of services) {
      await run(urls.service, { ...sc, connections: 1 }).catch(() => undefined); // warm-up
      const paired = PAIRED_WITH(sc);
      const results: Result[] = [];
      const ratios = new Map<Target, number[]>(paired.map((t) => [t, []]));
      for (let r = 0; r < rounds; r++) {
        const baseline = async () => {
          const out = new Map<Target, number>();
          for (const t of paired) {
            const b = defined(
              baselines.find((x) => x.target === t),
              t,
            );
            out.set(t, (await run(urls[t], b)).rps);
          }
          return out;
        };
        // The order alternates, so that a machine getting faster or slower favours neither side.
        const before = r % 2 === 0 ? await baseline() : null;
        const cpuBefore = await mainThreadCpuSeconds(servicePid);
        const result = await run(urls.service, sc);
        result.cpuUsPerRequest = (((await mainThreadCpuSeconds(servicePid)) - cpuBefore) * 1e6) / Math.max(1, result.total);
        const base = before ?? (await baseline());
        for (const t of paired) ratios.get(t)?.push(result.rps / (base.get(t) ?? NaN));
        results.push(result);
      }
      const line = row(sizeLabel, sc, results, { ratios, sqlMedian });
      table.push(line);
      console.log(line);
    }
    // A repeat with the answer's ETag is answered 304, without a body.
    const cheapestUrl = `${urls.service}/v1/offers/cheapest?gpu=${bundled ? 'h100-sxm-80gb' : 'gpu-3'}&preset=GDPR_PERSONAL_DATA&limit=5`;
    const etag = (await fetch(cheapestUrl)).headers.get('etag') ?? '';
    const revalidated = await fetch(cheapestUrl, { headers: { 'if-none-match': etag } });
    const etagLine = `If-None-Match with the ETag of the cheapest answer (${etag}): ${revalidated.status}, ${(await revalidated.text()).length} bytes of body.`;
    table.push(etagLine);
    console.log(etagLine);
    const after = await serviceMemory(urls.service);
    // Then at rest: V8's memory reducer shrinks the heaps some seconds after the load stops.
    await new Promise((r) => setTimeout(r, REST_SECONDS * 1000));
    const rest = await serviceMemory(urls.service);
    const memLine =
      `Service memory after the runs with ${sizeLabel} offers: RSS ${fmt(after.rss, 0)} MiB, heap used ${fmt(after.heapUsed, 0)} MiB; ` +
      `${REST_SECONDS} s later, at rest: RSS ${fmt(rest.rss, 0)} MiB, heap used ${fmt(rest.heapUsed, 0)} MiB.`;
    table.push(memLine);
    console.log(memLine);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await rm(dir, { recursive: true, force: true });
    await db.drop();
  }
}
console.log(
  `\n${rounds} rounds per scenario; req/s, median and p99 are medians over the rounds; a ratio is the median of the per-round ratios to a baseline run paired with the scenario in that round.`,
);
console.log(
  "\n| offers | scenario | connections | req/s | median ms | p99 ms | service main-thread CPU µs per request | % of bare Node req/s | % of empty Nest + Fastify req/s | % of bare Node sending the cheapest answer's bytes | × raw SQL req/s | non-2xx/errors |",
);
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const line of table) console.log(line);
process.exit(0);
