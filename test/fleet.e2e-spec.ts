// The service as a fleet on one machine, every part a real process (test/setup/fleet-processes.ts):
// three instances of the built service behind nginx (deploy/nginx/gpu-cost-api.conf), sharing a
// redis-server for their rate limits, reading from a PostgreSQL primary and a streaming replica
// made from it with pg_basebackup. Under load through nginx: the rate limit holds across the
// fleet; a publish reaches all three within 1 s and no answer mixes versions while the replica
// lags; nginx's cache serves repeated answers and revalidates them with the service's ETag; with
// Redis killed the fleet keeps answering on per-instance limits and says so, and shares them
// again once Redis is back; an instance killed with SIGKILL costs no client request. Each client
// connects from a loopback address of its own, and no client can pick, by writing X-Forwarded-For,
// the address its limits and failed keys count against. The figures it prints are in
// BENCHMARKS.md, "Fleet".
import { mkdtemp, readFile, rm, writeFile, cp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Agent, request } from 'undici';
import { CliModule } from '../src/cli.module.js';
import { MEASUREMENT_BODY_LIMIT_BYTES } from '../src/common/http/limits.js';
import { loadConfig } from '../src/config/app-config.js';
import { ApiKeysService } from '../src/modules/auth/index.js';
import { FAILED_AUTH_PER_MINUTE } from '../src/modules/auth/request-gate.js';
import { CatalogImportService } from '../src/modules/catalog-admin/index.js';
import { defined } from '../src/domain/checked.js';
import { cleanupSteps } from './setup/cleanup.js';
import { startNginx, startPrimaryAndReplica, startRedis, sql, stopChild, type Nginx, type PostgresPair, type RedisServer } from './setup/fleet-processes.js';
import { pollUntil, sleep } from './setup/http-probe.js';
import { SMALL_CATALOG, startServerProcess, type TestServer } from './setup/test-app.js';

type Instance = Omit<TestServer, 'db'>;

const LIMIT = 600;
const DATABASE = 'fleet_test';
const CHEAPEST = '/v1/offers/cheapest?gpu=h100-sxm-80gb&limit=5';
const AZURE = '/v1/offers?provider=azure&gpu=h100-sxm-80gb';
/** What each version's azure H100 costs: an answer with one version's label and the other's price mixed them. */
const PRICE_OF: Record<string, string> = { 'fixture-1': '6.9800', 'fixture-2': '6.5000' };
/** A request carrying a key is never answered from nginx's cache (AUTH_MODE is off: the service ignores it). */
const PAST_THE_CACHE = { authorization: 'Bearer fleet-test' };

interface Answer {
  status: number | null;
  error?: string;
  ms: number;
  at: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const agent = new Agent({ connections: 128, keepAliveTimeout: 10_000, connect: { timeout: 5_000 } });
/**
 * A client address is a loopback address of the client's own (127.a.b.c, all of 127/8 is this
 * machine): nginx passes $remote_addr on as X-Forwarded-For, so whatever a client writes there
 * itself, the service sees the address it connected from. One agent per address.
 */
const CLIENT_ADDRESS = 'x-test-client-address';
const agents = new Map<string, Agent>();
const agentFor = (address: string | undefined): Agent => {
  if (address === undefined) return agent;
  let a = agents.get(address);
  if (!a) agents.set(address, (a = new Agent({ connections: 16, keepAliveTimeout: 10_000, localAddress: address, connect: { timeout: 5_000 } })));
  return a;
};

async function get(base: string, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const at = Date.now();
  const { [CLIENT_ADDRESS]: address, ...sent } = headers;
  try {
    const res = await request(base + url, {
      dispatcher: agentFor(address),
      headers: { accept: 'application/json', ...sent },
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
    });
    const text = await res.body.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.statusCode, ms: Date.now() - at, at, headers: res.headers, body };
  } catch (error) {
    return { status: null, error: (error as NodeJS.ErrnoException).code ?? (error as Error).message, ms: Date.now() - at, at, headers: {}, body: null };
  }
}

/** `count` requests made by `make(i)`, `concurrency` at a time. */
async function burst(count: number, concurrency: number, make: (i: number) => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) answers.push(await make(next++));
    }),
  );
  return answers;
}

/** Requests made by `make(i)`, `concurrency` at a time, for `ms` milliseconds. */
async function loadFor(ms: number, concurrency: number, make: (i: number) => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  const until = Date.now() + ms;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) answers.push(await make(next++));
    }),
  );
  return answers;
}

/** Requests from a client address of their own (CLIENT_ADDRESS). */
const from = (address: string) => ({ [CLIENT_ADDRESS]: address });
/** One of 256 client addresses (127.10.0-1.odd), so that load from "many clients" stays under each one's limit. */
const anyAddress = (i: number) => from(`127.10.${(i >> 8) & 1}.${(i & 255) | 1}`);
const statuses = (answers: Answer[]) =>
  answers.reduce<Record<string, number>>((n, a) => ((n[String(a.status ?? a.error)] = (n[String(a.status ?? a.error)] ?? 0) + 1), n), {});
const labelOf = (a: Answer) => (a.body as { catalogVersion?: { label?: string } } | null)?.catalogVersion?.label;

describe('a fleet: three instances, nginx, Redis, a primary and a replica (e2e, real processes)', () => {
  let pgPair: PostgresPair | undefined;
  let redis: RedisServer | undefined;
  let nginx: Nginx | undefined;
  const instances: Instance[] = [];
  /** An instance with AUTH_MODE=required behind an nginx of its own, for the failed-key lockout. */
  let keyed: Instance | undefined;
  let keyedNginx: Nginx | undefined;
  let admin: INestApplicationContext | undefined;
  let workDir: string | undefined;
  const figures: Record<string, number | string> = {};
  /** The cheapest answer's ETag before the publish. */
  let cachedEtag = '';

  beforeAll(async () => {
    pgPair = await startPrimaryAndReplica(DATABASE);
    redis = await startRedis();
    const env = {
      DATABASE_REPLICA_URL: pgPair.replica.url(DATABASE),
      REDIS_URL: redis.url,
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      // As docker-compose.yml: one proxy hop, nginx's.
      TRUST_PROXY: '1',
      LOG_LEVEL: 'error',
    };
    const databaseUrl = pgPair.primary.url(DATABASE);
    // The first instance migrates the empty database and seeds the small catalog; then two more.
    instances.push(await startServerProcess({ databaseUrl, catalog: SMALL_CATALOG, env }));
    const more = await Promise.allSettled(
      [1, 2].map(() => startServerProcess({ databaseUrl, catalog: SMALL_CATALOG, env: { ...env, MIGRATE_ON_START: 'false' } })),
    );
    for (const r of more) if (r.status === 'fulfilled') instances.push(r.value);
    const failed = more.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    // The keyed one believes every loopback hop, the clients' addresses (127/8) too, as a
    // TRUST_PROXY range that holds the callers would: there only nginx replacing X-Forwarded-For
    // keeps a client from writing the address its failed keys count against.
    keyed = await startServerProcess({
      databaseUrl,
      catalog: SMALL_CATALOG,
      env: { ...env, MIGRATE_ON_START: 'false', AUTH_MODE: 'required', TRUST_PROXY: 'loopback' },
    });
    const portOf = (instance: Instance) => Number(new URL(instance.baseUrl).port);
    nginx = await startNginx(instances.map(portOf));
    keyedNginx = await startNginx([portOf(keyed)]);
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl });
    const moduleRef = await Test.createTestingModule({ imports: [CliModule.register({ config, databaseUrl })] }).compile();
    admin = await moduleRef.init();
    workDir = await mkdtemp(path.join(os.tmpdir(), 'fleet-e2e-'));
  }, 150_000);

  afterAll(async () => {
    const step = cleanupSteps('fleet');
    await step('close the admin context', async () => admin?.close());
    await step('stop nginx', async () => nginx?.stop());
    await step("stop the keyed instance's nginx", async () => keyedNginx?.stop());
    for (const [i, instance] of instances.entries()) await step(`stop instance ${i + 1}`, async () => instance.stop());
    await step('stop the keyed instance', async () => keyed?.stop());
    await step('stop redis', async () => redis?.stop());
    await step('stop PostgreSQL', async () => pgPair?.stop());
    await step('remove the temporary folder', async () => workDir && rm(workDir, { recursive: true, force: true }));
    await step('close the HTTP agents', async () => Promise.all([agent, ...agents.values()].map((a) => a.close())));
    console.log(`fleet figures: ${JSON.stringify(figures)}`);
  }, 60_000);

  const edge = () => defined(nginx, 'nginx').url;
  const ready = async (instance: Instance) => (await get(instance.baseUrl, '/health/ready')).body as { details: Record<string, Record<string, unknown>> };

  it('answers through nginx from the replica-backed instances', async () => {
    const answer = await get(edge(), '/v1/gpus');
    expect(answer.status).toBe(200);
    expect(labelOf(answer)).toBe('fixture-1');
    for (const instance of instances) {
      const { details } = await ready(instance);
      expect(details.replica).toMatchObject({ status: 'up', configured: true });
      expect(details.catalog).toMatchObject({ status: 'up', publishes: 'notify' });
    }
  });

  it("serves a repeated cheapest query from nginx's cache, revalidates it with a 304 from the service, and keeps requests with a key out", async () => {
    const first = await get(edge(), CHEAPEST);
    const second = await get(edge(), CHEAPEST);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers['x-cache-status']).toBe('HIT');
    expect(second.body).toEqual(first.body);
    // The client's own copy: nginx answers its If-None-Match with 304.
    const etag = String(second.headers.etag);
    cachedEtag = etag;
    expect((await get(edge(), CHEAPEST, { 'if-none-match': etag })).status).toBe(304);
    // Current answers live as long as the refresh interval (max-age=1; nginx counts whole seconds,
    // so up to 2 s); then nginx asks the service with the ETag, the service answers 304, and the
    // copy is served again.
    await sleep(2_100);
    const revalidated = await get(edge(), CHEAPEST);
    expect(revalidated.headers['x-cache-status']).toBe('REVALIDATED');
    expect(revalidated.body).toEqual(first.body);
    // A pinned version is immutable: cached after one request.
    await get(edge(), `${CHEAPEST}&version=fixture-1`);
    expect((await get(edge(), `${CHEAPEST}&version=fixture-1`)).headers['x-cache-status']).toBe('HIT');
    // A request with a key goes past the cache.
    expect((await get(edge(), CHEAPEST, PAST_THE_CACHE)).headers['x-cache-status']).toBe('BYPASS');
  });

  it('keeps /metrics and readiness off the edge, lets the measurement bodies through to the service, and keys its cache without the Host', async () => {
    const answered = await Promise.all(['/metrics', '/health/ready', '/health/live'].map(async (url) => (await get(edge(), url)).status));
    expect(answered).toEqual([404, 404, 200]);
    // A body just under the service's 9 MiB for the measurement routes passes nginx (its default
    // 1 MiB answered an HTML 413) and is read by the service, whose answer it gets.
    const big = await request(`${edge()}/v1/estimates`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(MEASUREMENT_BODY_LIMIT_BYTES - 1024) }),
    });
    const text = await big.body.text();
    expect([big.statusCode, big.headers['content-type']]).toEqual([400, 'application/problem+json; charset=utf-8']);
    expect((JSON.parse(text) as { code?: string }).code).toBe('REQUEST.INVALID');
    // A Host of the client's choosing reads the copy every other client reads.
    const url = '/v1/offers/cheapest?gpu=h100-sxm-80gb&limit=4';
    await get(edge(), url);
    expect((await get(edge(), url, { host: 'evil.example' })).headers['x-cache-status']).toBe('HIT');
  });

  it(`holds the rate limit across the fleet: ${LIMIT}/min for one address through three instances lets ${LIMIT} ± 5% through`, async () => {
    // Each request writes another X-Forwarded-For of its own: nginx replaces it, so they all count as one client.
    const answers = await burst(LIMIT + 150, 12, (i) =>
      get(edge(), AZURE, { ...PAST_THE_CACHE, ...from('127.200.0.1'), 'x-forwarded-for': `10.9.${(i >> 8) & 255}.${i & 255}` }),
    );
    const counts = statuses(answers);
    figures.rateLimitAllowedOf750 = counts['200'] ?? 0;
    expect(Object.keys(counts).sort()).toEqual(['200', '429']);
    expect(counts['200']).toBeGreaterThanOrEqual(LIMIT * 0.95);
    expect(counts['200']).toBeLessThanOrEqual(LIMIT * 1.05);
    // Another client's window is its own (every client behind nginx counted as nginx's address
    // while Fastify believed no hop of TRUST_PROXY=1).
    expect((await get(edge(), AZURE, { ...PAST_THE_CACHE, ...from('127.200.0.9') })).status).toBe(200);
    expect((await get(edge(), AZURE, { ...PAST_THE_CACHE, ...from('127.200.0.1') })).status).toBe(429);
  });

  it('lets no client pick, by writing X-Forwarded-For, the address its failed keys count against: none locks out another, none escapes', async () => {
    const keyedEdge = defined(keyedNginx, "the keyed instance's nginx").url;
    const [a, b] = ['127.60.0.1', '127.60.0.2'];
    const wrongKey = { authorization: 'Bearer gca_not-a-key-of-this-fleet' };
    // A fails as many times as an address may in a minute, each time writing B's address; then
    // tries again, each time writing another address. B then tries a wrong key, and a key of its
    // own never used before (so not one the instance remembers as verified).
    const posing = await burst(FAILED_AUTH_PER_MINUTE, 4, () => get(keyedEdge, AZURE, { ...wrongKey, ...from(a), 'x-forwarded-for': b }));
    const rotating = await burst(10, 2, (i) => get(keyedEdge, AZURE, { ...wrongKey, ...from(a), 'x-forwarded-for': `127.61.0.${i + 1}` }));
    const bWrongKey = await get(keyedEdge, AZURE, { ...wrongKey, ...from(b) });
    const { key } = await defined(admin, 'the admin context').get(ApiKeysService).create('fleet client b');
    const bOwnKey = await get(keyedEdge, AZURE, { authorization: `Bearer ${key}`, ...from(b) });
    // A's failures counted against A alone: A is refused whatever it writes, B's tries are B's own.
    expect({ posing: statuses(posing), rotating: statuses(rotating), bWrongKey: bWrongKey.status, bOwnKey: bOwnKey.status }).toEqual({
      posing: { 401: FAILED_AUTH_PER_MINUTE },
      rotating: { 429: 10 },
      bWrongKey: 401,
      bOwnKey: 200,
    });
    // No other test needs them: stopped, the keyed instance loads no catalog during the timed publish.
    await Promise.all([keyedNginx?.stop(), keyed?.stop()]);
    [keyed, keyedNginx] = [undefined, undefined];
  });

  it('pushes a publish to all three within 1 s, and no answer mixes versions while the replica lags behind', async () => {
    const replicaUrl = defined(pgPair, 'PostgreSQL').replica.url(DATABASE);
    // The replica stops applying what it receives: fixture-2 is not there until it resumes.
    await sql(replicaUrl, 'SELECT pg_wal_replay_pause()');
    const dir = path.join(defined(workDir, 'the work folder'), 'fixture-2');
    await cp(SMALL_CATALOG, dir, { recursive: true });
    for (const file of ['catalog.yaml', 'offers.yaml']) {
      const p = path.join(dir, file);
      await writeFile(
        p,
        (await readFile(p, 'utf8')).replace('label: fixture-1', 'label: fixture-2').replace('pricePerGpuHour: "6.98"', 'pricePerGpuHour: "6.50"'),
      );
    }
    const importer = defined(admin, 'the admin context').get(CatalogImportService);
    expect((await importer.import({ paths: [dir] })).status).toBe('created');

    let watching = true;
    const seen: Answer[] = [];
    const watchers = [edge(), ...instances.map((i) => i.baseUrl)].map(async (base) => {
      while (watching) {
        seen.push(await get(base, AZURE, { ...PAST_THE_CACHE, ...anyAddress(seen.length) }));
        // Watching, not loading: the publish's time is measured meanwhile.
        await sleep(40);
      }
    });
    try {
      const published = Date.now();
      await importer.publish('fixture-2');
      const reached = await Promise.all(
        instances.map((instance, i) =>
          pollUntil(async () => labelOf(await get(instance.baseUrl, '/v1/gpus', from(`127.30.0.${i + 1}`))) === 'fixture-2', {
            timeoutMs: 5_000,
            intervalMs: 25,
            since: published,
          }),
        ),
      );
      figures.publishToInstancesMs = reached.join('/');
      expect(reached.every((ms) => ms !== null && ms <= 1_000)).toBe(true);
      // Readiness reports the replica's lag meanwhile.
      const lagging = (await ready(defined(instances[0], 'instance 1'))).details.replica;
      expect(lagging).toMatchObject({ status: 'up', lagSeconds: expect.any(Number) });
      expect(Number(lagging?.lagSeconds)).toBeGreaterThan(0);
      await sql(replicaUrl, 'SELECT pg_wal_replay_resume()');
      await pollUntil(
        async () => (await sql<{ n: number }>(replicaUrl, "SELECT count(*)::int AS n FROM catalog_versions WHERE label = 'fixture-2'"))[0]?.n === 1,
        {
          timeoutMs: 10_000,
        },
      );
      await sleep(300);
    } finally {
      // Also when an expectation above fails: the watchers would keep Jest from exiting, and the
      // tests after this one need a replica that applies what it receives.
      watching = false;
      await Promise.all(watchers);
      await sql(replicaUrl, 'SELECT pg_wal_replay_resume()');
    }

    const mixed = seen.filter((a) => {
      const body = a.body as { catalogVersion: { label: string }; items: { pricePerGpuHour: { amount: string } }[] };
      return a.status !== 200 || body.items.length !== 1 || body.items[0]?.pricePerGpuHour.amount !== PRICE_OF[body.catalogVersion.label];
    });
    expect(mixed.map((a) => `${a.status}: ${JSON.stringify(a.body).slice(0, 200)}`)).toEqual([]);
    expect(new Set(seen.map(labelOf))).toEqual(new Set(['fixture-1', 'fixture-2']));
    figures.answersWatchedDuringPublish = seen.length;

    // nginx's copy of the cheapest answer, once its second is over, is asked for again: the
    // service's ETag changed with the version, so the client that holds the old one gets the new
    // answer, and then 304s for it.
    await sleep(2_100);
    const renewed = await get(edge(), CHEAPEST, { 'if-none-match': cachedEtag });
    expect(renewed.status).toBe(200);
    expect(labelOf(renewed)).toBe('fixture-2');
    expect(renewed.headers['x-cache-status']).toBe('EXPIRED');
    expect((await get(edge(), CHEAPEST, { 'if-none-match': String(renewed.headers.etag) })).status).toBe(304);
  });

  it('keeps answering on per-instance limits while Redis is down, shows it in /health/ready and /metrics, and shares them again once it is back', async () => {
    const server = defined(redis, 'redis');
    // Frozen first: connections stay open and nothing answers, so each request waits for
    // REDIS_COMMAND_TIMEOUT_MS (100 ms), and no longer, before it is counted per instance.
    server.freeze();
    const frozen = await burst(60, 6, () => get(edge(), AZURE, { ...PAST_THE_CACHE, ...from('127.200.0.4') }));
    server.thaw();
    figures.redisFrozenSlowestMs = Math.max(...frozen.map((a) => a.ms));
    expect(statuses(frozen)).toEqual({ 200: 60 });
    expect(figures.redisFrozenSlowestMs).toBeLessThan(1_000);
    await server.kill();
    const answers = await burst(3 * LIMIT + 200, 16, () => get(edge(), AZURE, { ...PAST_THE_CACHE, ...from('127.200.0.2') }));
    const counts = statuses(answers);
    figures.redisDownAllowedOf2000 = counts['200'] ?? 0;
    expect(Object.keys(counts).sort()).toEqual(['200', '429']);
    // Each instance counts alone: more than one limit gets through, at most three.
    expect(counts['200']).toBeGreaterThan(LIMIT * 1.5);
    expect(counts['200']).toBeLessThanOrEqual(3 * LIMIT);
    for (const instance of instances) {
      expect((await ready(instance)).details.rateLimits).toMatchObject({ status: 'up', mode: 'per-instance', warning: expect.stringContaining('Redis') });
      const metrics = String((await get(instance.baseUrl, '/metrics')).body);
      expect(metrics).toMatch(/^rate_limit_shared 0$/m);
      expect(Number(/^rate_limit_redis_errors_total (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    }

    await server.restart();
    const back = await pollUntil(async () => (await Promise.all(instances.map(ready))).every((r) => r.details.rateLimits?.mode === 'shared'), {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    figures.redisBackSharedAfterMs = back ?? -1;
    expect(back).not.toBeNull();
    const again = statuses(await burst(LIMIT + 150, 12, () => get(edge(), AZURE, { ...PAST_THE_CACHE, ...from('127.200.0.3') })));
    expect(again['200']).toBeGreaterThanOrEqual(LIMIT * 0.95);
    expect(again['200']).toBeLessThanOrEqual(LIMIT * 1.05);
  });

  it('measures throughput through nginx, with and without its cache', async () => {
    const rate = async (headers: (i: number) => Record<string, string>) => {
      const answers = await loadFor(3_000, 32, (i) => get(edge(), CHEAPEST, headers(i)));
      expect(statuses(answers)).toEqual({ 200: answers.length });
      return Math.round(answers.length / 3);
    };
    figures.cachedRequestsPerSecond = await rate(() => ({}));
    figures.uncachedRequestsPerSecond = await rate((i) => ({ ...PAST_THE_CACHE, ...anyAddress(i) }));
  });

  it('loses no client request when an instance is killed with SIGKILL under load (nginx retries), and the survivors answer', async () => {
    const victim = defined(instances[2], 'instance 3');
    let killedAt = 0;
    const killer = sleep(1_500).then(async () => {
      killedAt = Date.now();
      await stopChild(victim.process, 'SIGKILL');
    });
    const answers = await loadFor(4_000, 16, (i) => get(edge(), i % 2 ? CHEAPEST : AZURE, { ...(i % 2 ? {} : PAST_THE_CACHE), ...anyAddress(i) }));
    await killer;
    const failed = answers.filter((a) => a.status !== 200);
    expect(failed.map((a) => `${a.status ?? a.error} after ${a.ms} ms`)).toEqual([]);
    const around = answers.filter((a) => a.at >= killedAt - 500 && a.at <= killedAt + 500);
    figures.failoverRequests = answers.length;
    figures.failoverSlowestMsAroundKill = Math.max(...around.map((a) => a.ms));
    figures.failoverMedianMs = answers.map((a) => a.ms).sort((a, b) => a - b)[Math.floor(answers.length / 2)] ?? -1;
    for (const survivor of instances.slice(0, 2)) expect((await get(survivor.baseUrl, '/v1/gpus', anyAddress(7))).status).toBe(200);
  });
});
