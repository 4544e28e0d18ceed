// Two service instances on one database, as behind a load balancer: a publish (and a rollback)
// by an admin script reaches both within 1 s, pushed by PostgreSQL NOTIFY to each instance's
// LISTEN connection (the poll of the publication log is set to once a minute here, so it cannot
// be what delivers it), and both then give identical answers. A LISTEN connection that the server
// drops is re-opened, and a publish made meanwhile is caught up.
import { cleanupSteps } from './setup/cleanup.js';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { CatalogImportService } from '../src/modules/catalog-admin/index.js';
import { pollUntil, probe } from './setup/http-probe.js';
import { createTestContext, SMALL_CATALOG, startServerProcess, type TestContext, type TestServer } from './setup/test-app.js';
import { createTestDatabase, type TestDatabase } from './setup/test-database.js';
import { defined } from '../src/domain/checked.js';

type Instance = Omit<TestServer, 'db'>;

const PROPAGATION_LIMIT_MS = 1_000;
/** Polling as good as off: a publish that arrives within a second was pushed. */
const NO_POLLING = { CATALOG_REFRESH_MS: '60000' };
const CHEAPEST = '/v1/offers/cheapest?gpu=h100-sxm-80gb&explain=true&limit=5';

describe('two instances on one database (e2e)', () => {
  let db: TestDatabase | undefined;
  let a: Instance | undefined;
  let b: Instance | undefined;
  let ctx: TestContext | undefined;
  let workDir: string | undefined;
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    db = await createTestDatabase();
    // The first instance migrates (a no-op on the cloned template) and seeds the small catalog.
    a = await startServerProcess({ databaseUrl: db.url, catalog: SMALL_CATALOG, env: NO_POLLING });
    b = await startServerProcess({ databaseUrl: db.url, catalog: SMALL_CATALOG, env: { MIGRATE_ON_START: 'false', ...NO_POLLING } });
    // Admin operations in-process on the same database, as the scripts do.
    ctx = await createTestContext({ db, catalog: null });
    workDir = await mkdtemp(path.join(os.tmpdir(), 'multi-instance-e2e-'));
  }, 60_000);

  afterAll(async () => {
    const step = cleanupSteps('multi-instance');
    await step('close the admin context', async () => ctx?.close());
    await step('stop instance a', async () => a?.stop());
    await step('stop instance b', async () => b?.stop());
    await step('drop the database', async () => db?.drop());
    await step('remove the temporary folder', async () => workDir && rm(workDir, { recursive: true, force: true }));
    console.log(`multi-instance timings (ms): ${JSON.stringify(timings)}`);
  }, 30_000);

  /** An instance beforeAll started (the variables stay unset for the cleanup when a start fails). */
  const started = (instance: Instance | undefined): Instance => defined(instance, 'an instance started by beforeAll');
  const get = async (instance: Instance, url: string) => {
    const r = await probe(instance.baseUrl, { name: url, path: url }, 5_000);
    if (r.status !== 200) throw new Error(`${instance.baseUrl}${url} -> ${r.status ?? r.error}: ${r.text.slice(0, 300)}`);
    return r.json as Record<string, unknown>;
  };
  const labelOf = async (instance: Instance) => ((await get(instance, '/v1/gpus')) as { catalogVersion: { label: string } }).catalogVersion.label;
  const azurePrice = async (instance: Instance) => {
    const body = (await get(instance, '/v1/offers?provider=azure&gpu=h100-sxm-80gb')) as {
      catalogVersion: { label: string };
      items: { pricePerGpuHour: { amount: string } }[];
    };
    return { label: body.catalogVersion.label, prices: body.items.map((i) => i.pricePerGpuHour.amount) };
  };

  /** Polls both instances every 100 ms; the time from `since` until each one shows `label` and `price`. */
  const waitForBoth = async (since: number, label: string, price: string) => {
    const follows = async (instance: Instance) =>
      pollUntil(
        async () => {
          if ((await labelOf(instance)) !== label) return false;
          const offers = await azurePrice(instance);
          return offers.label === label && offers.prices.length === 1 && offers.prices[0] === price;
        },
        { timeoutMs: 5_000, intervalMs: 100, since },
      );
    return Promise.all([follows(started(a)), follows(started(b))]);
  };

  it('serves the seeded version on both instances', async () => {
    expect(await labelOf(started(a))).toBe('fixture-1');
    expect(await labelOf(started(b))).toBe('fixture-1');
    expect(await azurePrice(started(a))).toEqual({ label: 'fixture-1', prices: ['6.9800'] });
    expect(await azurePrice(started(b))).toEqual({ label: 'fixture-1', prices: ['6.9800'] });
  });

  it('a publish reaches both instances within 1 s, and both then answer identically', async () => {
    const dir = path.join(defined(workDir, 'the work folder'), 'changed');
    await cp(SMALL_CATALOG, dir, { recursive: true });
    for (const file of ['catalog.yaml', 'offers.yaml']) {
      const p = path.join(dir, file);
      await writeFile(
        p,
        (await readFile(p, 'utf8')).replace('label: fixture-1', 'label: fixture-2').replace('pricePerGpuHour: "6.98"', 'pricePerGpuHour: "6.50"'),
      );
    }
    const importer = defined(ctx, 'the admin context').app.get(CatalogImportService);
    const report = await importer.import({ paths: [dir] });
    expect(report.status).toBe('created');
    // Imported, not yet published: both instances still serve fixture-1.
    expect(await labelOf(started(a))).toBe('fixture-1');
    expect(await labelOf(started(b))).toBe('fixture-1');

    const publishStarted = Date.now();
    await importer.publish('fixture-2');
    timings.publishCallMs = Date.now() - publishStarted;
    const [ta, tb] = await waitForBoth(publishStarted, 'fixture-2', '6.5000');
    timings.publishToInstanceA = ta ?? -1;
    timings.publishToInstanceB = tb ?? -1;
    expect({ a: ta, b: tb }).toEqual({ a: expect.any(Number), b: expect.any(Number) });
    expect(Math.max(ta ?? Infinity, tb ?? Infinity)).toBeLessThanOrEqual(PROPAGATION_LIMIT_MS);

    const [ca, cb] = await Promise.all([get(started(a), CHEAPEST), get(started(b), CHEAPEST)]);
    expect((ca as { catalogVersion: { label: string } }).catalogVersion.label).toBe('fixture-2');
    expect(ca).toEqual(cb);
    const [ea, eb] = await Promise.all([get(started(a), '/v1/catalog/versions'), get(started(b), '/v1/catalog/versions')]);
    expect(ea).toEqual(eb);
  });

  it('a rollback (publishing the old version again) reaches both instances within 1 s', async () => {
    const importer = defined(ctx, 'the admin context').app.get(CatalogImportService);
    const publishStarted = Date.now();
    await importer.publish('fixture-1');
    timings.rollbackCallMs = Date.now() - publishStarted;
    const [ta, tb] = await waitForBoth(publishStarted, 'fixture-1', '6.9800');
    timings.rollbackToInstanceA = ta ?? -1;
    timings.rollbackToInstanceB = tb ?? -1;
    expect({ a: ta, b: tb }).toEqual({ a: expect.any(Number), b: expect.any(Number) });
    expect(Math.max(ta ?? Infinity, tb ?? Infinity)).toBeLessThanOrEqual(PROPAGATION_LIMIT_MS);

    const [ca, cb] = await Promise.all([get(started(a), CHEAPEST), get(started(b), CHEAPEST)]);
    expect((ca as { catalogVersion: { label: string } }).catalogVersion.label).toBe('fixture-1');
    expect(ca).toEqual(cb);
  });

  it('re-opens a LISTEN connection the server dropped, and catches up with a publish made meanwhile', async () => {
    const client = new pg.Client({ connectionString: defined(db, 'the test database').url });
    await client.connect();
    const terminated = await client
      .query<{ n: number }>(
        "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
      )
      .finally(() => client.end());
    expect(terminated.rows[0]?.n).toBe(2);
    const importer = defined(ctx, 'the admin context').app.get(CatalogImportService);
    const publishStarted = Date.now();
    await importer.publish('fixture-2');
    // Re-opened after a second; the refresh on reconnecting finds fixture-2 (polling is off).
    const [ta, tb] = await waitForBoth(publishStarted, 'fixture-2', '6.5000');
    timings.afterDroppedListenA = ta ?? -1;
    timings.afterDroppedListenB = tb ?? -1;
    expect({ a: ta, b: tb }).toEqual({ a: expect.any(Number), b: expect.any(Number) });
    expect(Math.max(ta ?? Infinity, tb ?? Infinity)).toBeLessThanOrEqual(3_000);
  });
});
