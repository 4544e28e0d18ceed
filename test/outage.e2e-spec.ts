// PostgreSQL stops and starts again while the service takes traffic. The test runs its own
// embedded PostgreSQL (temporary folder, free port) so it can stop it without touching the
// shared test server: readiness must turn 503 quickly, the current catalog keeps being served
// from memory (marked X-Served-From-Cache), requests that need the database fail fast with 503
// problem+json (never 500, never a hanging or reset socket), and the service recovers by itself.
import { cleanupSteps } from './setup/cleanup.js';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type RunningPostgres } from '../src/database/embedded-postgres.js';
import { describeResult, pollUntil, probe, sleep, startTraffic, type ProbeRequest, type ProbeResult, type Traffic } from './setup/http-probe.js';
import { freePort, SMALL_CATALOG, startServerProcess, type TestServer } from './setup/test-app.js';
import { adminQuery, assertTestDatabase } from './setup/test-database.js';
import { at, defined } from '../src/domain/checked.js';

const ESTIMATE_BODY = {
  model: { preset: 'llama-3-8b', precision: 'FP16' },
  workload: { hourlyProfile: Array.from({ length: 24 }, (_, h) => (h >= 8 && h < 20 ? 20 : 5)), avgInputTokens: 500, avgOutputTokens: 200 },
  gpus: ['h100-sxm-80gb', 'a10g-24gb'],
};
const GRAPHQL_OFFERS = {
  query: '{ offers(filter: { gpus: ["h100-sxm-80gb"] }, first: 5) { catalogVersion { label } items { id provider pricePerGpuHour { amount } } } }',
};

/** Answered from the in-memory current version: must keep working while PostgreSQL is down. */
const CURRENT_VERSION_REQUESTS: ProbeRequest[] = [
  { name: 'offers', path: '/v1/offers?limit=20' },
  { name: 'cheapest', path: '/v1/offers/cheapest?gpu=h100-sxm-80gb' },
  { name: 'estimate', method: 'POST', path: '/v1/estimates', body: ESTIMATE_BODY },
  { name: 'graphql-offers', method: 'POST', path: '/graphql', body: GRAPHQL_OFFERS },
  // The current version asked for by its label needs no database either.
  { name: 'providers-by-label', path: '/v1/providers?version=fixture-1' },
];
/** Need PostgreSQL: must fail fast with 503 problem+json while it is down. */
const DATABASE_REQUESTS: ProbeRequest[] = [
  { name: 'versions', path: '/v1/catalog/versions' },
  { name: 'gpu-history', path: '/v1/gpus/h100-sxm-80gb/price-history' },
];
/** Database reads that no one asked before the outage, so the response cache cannot answer them. */
const NEW_DATABASE_REQUESTS: ProbeRequest[] = [
  { name: 'versions', path: '/v1/catalog/versions' },
  { name: 'gpu-history-on-demand', path: '/v1/gpus/h100-sxm-80gb/price-history?pricingModels=ON_DEMAND' },
];
const READY: ProbeRequest = { name: 'ready', path: '/health/ready' };

describe('database outage (e2e, own embedded PostgreSQL)', () => {
  let workDir: string;
  let dataDir: string;
  let pgPort: number;
  let database: string;
  let pgServer: RunningPostgres | null = null;
  let service: Omit<TestServer, 'db'> | undefined;
  let traffic: Traffic | undefined;
  let stoppedAt = 0;
  /** A listing cursor taken before the outage: its next page must still come from memory. */
  let cursor: string | null = null;
  let restartedAt = 0;
  const timings: Record<string, number> = {};

  const startPostgres = async () => {
    pgServer = await startEmbeddedPostgres({ dataDir, port: pgPort, database });
    return pgServer;
  };
  const stopPostgres = async () => {
    const running = pgServer;
    pgServer = null;
    await running?.stop();
  };

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'gpu-cost-outage-'));
    // Run as root, embedded-postgres runs the server as a `postgres` user, who must reach it.
    await chmod(workDir, 0o755);
    dataDir = path.join(workDir, 'data');
    pgPort = await freePort();
    database = `gpu_cost_outage_test_${randomBytes(3).toString('hex')}`;
    const pgStarted = await startPostgres();
    assertTestDatabase(pgStarted.url);
    // Migrations in a child process, as the global setup and `npm run db:migrate` do.
    execFileSync(process.execPath, ['dist/scripts/db-migrate.js'], { env: { ...process.env, DATABASE_URL: pgStarted.url }, stdio: 'pipe' });
    // The service seeds the empty database from the small catalog at start.
    service = await startServerProcess({ databaseUrl: pgStarted.url, catalog: SMALL_CATALOG, env: { DATABASE_CONNECT_TIMEOUT_MS: '3000' } });
  }, 60_000);

  afterAll(async () => {
    const step = cleanupSteps('outage');
    await step('stop traffic', async () => traffic?.stop());
    // OUTAGE_DEBUG=1 prints the service's log (error stacks of failed requests) for diagnosis.
    if (process.env.OUTAGE_DEBUG) console.log(service?.output());
    await step('stop the service', async () => service?.stop());
    if (pgServer) {
      const running: RunningPostgres = pgServer;
      await step('drop the database', () => adminQuery(running.adminUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    }
    await step('stop PostgreSQL', stopPostgres);
    await step('remove the temporary folder', () => rm(workDir, { recursive: true, force: true }));
    console.log(`outage timings (ms): ${JSON.stringify(timings)}`);
  }, 30_000);

  const theService = () => defined(service, 'the service beforeAll started');
  const call = (req: ProbeRequest, timeoutMs = 10_000) => probe(theService().baseUrl, req, timeoutMs);
  const why = (r: ProbeResult) => `${describeResult(r)}\nservice output:\n${theService().output().slice(-3000)}`;

  it('(a) answers warm requests with PostgreSQL up, without the cache header', async () => {
    for (const req of [...CURRENT_VERSION_REQUESTS, ...DATABASE_REQUESTS, READY]) {
      const r = await call(req);
      expect({ req: req.name, status: r.status, cache: r.headers['x-served-from-cache'] }).toEqual({ req: req.name, status: 200, cache: undefined });
    }
    const gql = (await call(at(CURRENT_VERSION_REQUESTS, 3))).json as {
      data?: { offers: { catalogVersion: { label: string }; items: unknown[] } };
      errors?: unknown;
    };
    expect(gql.errors).toBeUndefined();
    expect(gql.data?.offers.catalogVersion.label).toBe('fixture-1');
    expect(gql.data?.offers.items.length).toBeGreaterThan(0);

    cursor = ((await call({ name: 'first-page', path: '/v1/offers?limit=2' })).json as { nextCursor: string | null }).nextCursor;
    expect(cursor).not.toBeNull();

    // Background traffic through the stop and the restart, checked in (d).
    traffic = startTraffic(theService().baseUrl, [...CURRENT_VERSION_REQUESTS, ...DATABASE_REQUESTS, READY], {
      concurrency: 3,
      pauseMs: 25,
      timeoutMs: 10_000,
    });
  });

  it('(b) with PostgreSQL stopped: readiness 503 within 5 s, the current version served from memory, database reads fail fast with 503', async () => {
    // While PostgreSQL shuts down (fast shutdown: sessions terminated with 57P01, new connections
    // refused with 57P03 "the database system is shutting down" until the postmaster exits),
    // requests that need it keep arriving; they must get 503 like the ones after the stop.
    stoppedAt = Date.now();
    const stopping = stopPostgres();
    let stopped = false;
    void stopping.finally(() => (stopped = true));
    const burst: ProbeResult[] = [];
    await Promise.all(
      [0, 1].map(async (k) => {
        while (!stopped) burst.push(await call(at(DATABASE_REQUESTS, k), 10_000));
      }),
    );
    await stopping;
    timings.postgresStopMs = Date.now() - stoppedAt;
    timings.requestsDuringShutdown = burst.length;

    let lastReady: ProbeResult | undefined;
    const readyDown = await pollUntil(
      async () => {
        lastReady = await call(READY, 5_000);
        return lastReady.status === 503;
      },
      { timeoutMs: 5_000, intervalMs: 100, since: stoppedAt },
    );
    timings.readinessTo503Ms = readyDown ?? -1;
    expect(readyDown === null ? `readiness still ${lastReady && describeResult(lastReady)} after 5 s` : 'ok').toBe('ok');
    expect(readyDown).toBeLessThanOrEqual(5_000);
    expect(lastReady?.json).toMatchObject({ status: 'error', error: { database: { status: 'down' } } });

    // The catalog poller notices within CATALOG_REFRESH_MS (1 s); from then on answers are marked.
    const marked = await pollUntil(async () => (await call(at(CURRENT_VERSION_REQUESTS, 0), 5_000)).headers['x-served-from-cache'] === 'true', {
      timeoutMs: 5_000,
      since: stoppedAt,
    });
    timings.cacheHeaderAfterStopMs = marked ?? -1;
    expect(marked).not.toBeNull();

    for (const req of CURRENT_VERSION_REQUESTS) {
      const r = await call(req);
      expect({ req: req.name, status: r.status, cache: r.headers['x-served-from-cache'] }).toEqual({ req: req.name, status: 200, cache: 'true' });
      if (req.name === 'graphql-offers') {
        const body = r.json as { data?: { offers: { catalogVersion: { label: string } } }; errors?: unknown };
        expect(body.errors).toBeUndefined();
        expect(body.data?.offers.catalogVersion.label).toBe('fixture-1');
      } else if (req.name !== 'estimate') {
        expect((r.json as { catalogVersion: { label: string } }).catalogVersion.label).toBe('fixture-1');
      }
    }

    const nextPage = await call({ name: 'next-page', path: `/v1/offers?limit=2&cursor=${encodeURIComponent(defined(cursor, 'the first page cursor'))}` });
    expect({ status: nextPage.status, cache: nextPage.headers['x-served-from-cache'] }).toEqual({ status: 200, cache: 'true' });

    // A price history answered before the outage is answered again, from the response cache, which
    // keeps such answers from their first request (versions are immutable: the same version, the
    // same answer); one never asked needs the database: 503.
    const cachedHistory = await call(at(DATABASE_REQUESTS, 1), 10_000);
    expect({ status: cachedHistory.status, cache: cachedHistory.headers['x-cache'] }).toEqual({ status: 200, cache: 'hit' });
    for (const req of NEW_DATABASE_REQUESTS) {
      const r = await call(req, 10_000);
      expect(r.error === undefined ? 'answered' : why(r)).toBe('answered');
      expect(r.status === 503 ? 'ok' : why(r)).toBe('ok');
      expect(r.ms).toBeLessThanOrEqual(5_000);
      timings[`${req.name}503Ms`] = Math.max(timings[`${req.name}503Ms`] ?? 0, r.ms);
      expect(r.headers['content-type']).toContain('application/problem+json');
      expect(r.json).toMatchObject({ status: 503, code: 'DATABASE.UNAVAILABLE' });
    }
    // Still the same a few seconds into the outage, after several failed polls (failed connection
    // attempts must not pile up into hangs, the memory copy must not be dropped).
    await sleep(Math.max(0, stoppedAt + 3_000 - Date.now()));
    for (const req of [...NEW_DATABASE_REQUESTS, at(CURRENT_VERSION_REQUESTS, 1)]) {
      const r = await call(req, 10_000);
      const expected = req.name === 'cheapest' ? { status: 200, cache: 'true' } : { status: 503, cache: 'true' };
      expect({ req: req.name, status: r.status, cache: r.headers['x-served-from-cache'], fast: r.ms <= 5_000 }).toEqual({
        req: req.name,
        ...expected,
        fast: true,
      });
    }

    // The requests sent while PostgreSQL was shutting down: 503 (or 200 before it began), never 500.
    expect(burst.filter((r) => r.error !== undefined || (r.status !== 200 && r.status !== 503)).map(describeResult)).toEqual([]);
  });

  it('(c) recovers by itself within 10 s of PostgreSQL starting again', async () => {
    // Requests that need PostgreSQL keep arriving while it starts (new connections are refused
    // with 57P03 "the database system is starting up" until recovery ends): 503, never 500.
    restartedAt = Date.now();
    const starting = startPostgres();
    let up = false;
    void starting.then(
      () => (up = true),
      () => (up = true),
    );
    const burst: ProbeResult[] = [];
    await Promise.all(
      [0, 1].map(async (k) => {
        while (!up) burst.push(await call(at(DATABASE_REQUESTS, k), 10_000));
      }),
    );
    await starting;
    const started = Date.now();
    timings.requestsDuringStartup = burst.length;
    timings.postgresStartMs = started - restartedAt;
    timings.outageMs = started - stoppedAt;

    const ready = await pollUntil(async () => (await call(READY, 5_000)).status === 200, { timeoutMs: 10_000, since: started });
    timings.recoveryReadyMs = ready ?? -1;
    expect(ready).not.toBeNull();
    const healthy = await pollUntil(
      async () => {
        const versions = await call(at(DATABASE_REQUESTS, 0), 5_000);
        const offers = await call(at(CURRENT_VERSION_REQUESTS, 0), 5_000);
        return versions.status === 200 && offers.status === 200 && offers.headers['x-served-from-cache'] === undefined;
      },
      { timeoutMs: 10_000, since: started },
    );
    timings.recoveryFullMs = healthy ?? -1;
    expect(healthy).not.toBeNull();
    expect(healthy).toBeLessThanOrEqual(10_000);

    for (const req of [...CURRENT_VERSION_REQUESTS, ...DATABASE_REQUESTS, READY]) {
      const r = await call(req);
      expect({ req: req.name, status: r.status, cache: r.headers['x-served-from-cache'] }).toEqual({ req: req.name, status: 200, cache: undefined });
    }
    const versions = (await call(at(DATABASE_REQUESTS, 0))).json as { items: { label: string; current: boolean }[] };
    expect(versions.items).toEqual([expect.objectContaining({ label: 'fixture-1', current: true })]);

    expect(burst.filter((r) => r.error !== undefined || (r.status !== 200 && r.status !== 503)).map(describeResult)).toEqual([]);
  });

  it('(d) the background traffic saw no 5xx other than 503, no reset or hanging socket', async () => {
    // When each request was sent, relative to the stop and the restart.
    const describeTimed = (r: ProbeResult) => {
      const sent = r.at < (restartedAt || Infinity) ? `${r.at - stoppedAt} ms after the stop began` : `${r.at - restartedAt} ms after the restart began`;
      return `${describeResult(r)} [sent ${sent}]`;
    };
    const background = defined(traffic, 'the background traffic');
    await background.stop();
    const results = background.results;
    traffic = undefined;
    const during = results.filter((r) => r.at >= stoppedAt && r.at < restartedAt);
    timings.backgroundRequests = results.length;
    timings.backgroundRequestsDuringOutage = during.length;
    timings.backgroundMaxLatencyMs = Math.max(...results.map((r) => r.ms));
    expect(during.length).toBeGreaterThan(10);

    const currentNames = new Set(CURRENT_VERSION_REQUESTS.map((r) => r.name));
    const problems = {
      socketErrors: results.filter((r) => r.error !== undefined),
      non503ServerErrors: results.filter((r) => r.status !== null && r.status >= 500 && r.status !== 503),
      // Every 503 is a problem+json DATABASE.UNAVAILABLE (or readiness' own report).
      unexplained503s: results.filter(
        (r) =>
          r.status === 503 &&
          r.name !== 'ready' &&
          !(r.headers['content-type']?.includes('application/problem+json') && (r.json as { code?: string })?.code === 'DATABASE.UNAVAILABLE'),
      ),
      // Requests for the current version never fail, not even during the outage.
      currentVersionFailures: results.filter((r) => currentNames.has(r.name) && r.status !== 200),
      graphqlErrors: results.filter((r) => r.name === 'graphql-offers' && (r.json as { errors?: unknown } | undefined)?.errors !== undefined),
      // Nothing hangs: every request answered within 5 s.
      slow: results.filter((r) => r.ms > 5_000),
    };
    const described = Object.fromEntries(Object.entries(problems).map(([k, list]) => [k, list.map(describeTimed)]));
    expect(described).toEqual({ socketErrors: [], non503ServerErrors: [], unexplained503s: [], currentVersionFailures: [], graphqlErrors: [], slow: [] });
  });
});
