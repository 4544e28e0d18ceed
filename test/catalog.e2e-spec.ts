import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CatalogImportService } from '../src/modules/catalog-admin/index.js';
import { CatalogRepository } from '../src/modules/catalog/catalog.repository.js';
import { eventually } from './setup/eventually.js';
import { copySmallCatalog, createTestContext, createTestServer, SMALL_CATALOG, type TestContext, type TestServer } from './setup/test-app.js';

describe('catalog (e2e)', () => {
  let t: TestServer;
  let ctx: TestContext;
  let workDir: string;

  beforeAll(async () => {
    t = await createTestServer({ catalog: SMALL_CATALOG });
    // Admin operations run in-process on the same database, as the scripts do.
    ctx = await createTestContext({ db: t.db, catalog: null });
    workDir = await mkdtemp(path.join(os.tmpdir(), 'catalog-e2e-'));
  });
  afterAll(async () => {
    await ctx.close();
    await t.stop();
    await rm(workDir, { recursive: true, force: true });
  });

  const copyWith = (name: string, edit: (text: string) => string): Promise<string> => copySmallCatalog(workDir, name, edit);

  it('lists the seeded version as current, over REST and GraphQL alike', async () => {
    const rest = await t.http().get('/v1/catalog/versions').expect(200);
    expect(rest.body.items).toEqual([expect.objectContaining({ label: 'fixture-1', current: true, offerCount: 7 })]);
    const gql = await t.graphql<{ catalogVersions: { label: string; current: boolean }[] }>('{ catalogVersions { label current offerCount } }');
    expect(gql.data.catalogVersions).toEqual([{ label: 'fixture-1', current: true, offerCount: 7 }]);
  });

  it('re-imports an unchanged catalog as "unchanged" and writes nothing', async () => {
    const before = await ctx.app.get(CatalogRepository).countRows();
    const report = await ctx.app.get(CatalogImportService).import({ paths: [SMALL_CATALOG], label: 'again' });
    expect(report.status).toBe('unchanged');
    expect(await ctx.app.get(CatalogRepository).countRows()).toEqual(before);
  });

  it('stores one changed price as one new row, diffs exactly that change, and keeps old reads on the old price', async () => {
    const before = await ctx.app.get(CatalogRepository).countRows();
    const dir = await copyWith('changed', (s) =>
      s.replace('label: fixture-1', 'label: fixture-2').replace('pricePerGpuHour: "6.98"', 'pricePerGpuHour: "6.50"'),
    );
    const report = await ctx.app.get(CatalogImportService).import({ paths: [dir], publish: true });
    expect(report).toMatchObject({ status: 'created', rowsWritten: 1 });
    const after = await ctx.app.get(CatalogRepository).countRows();
    expect(after.offers - before.offers).toBe(1);

    const diff = await t.http().get('/v1/catalog/diff').query({ from: 'fixture-1', to: 'fixture-2' }).expect(200);
    expect(diff.body.added).toEqual([]);
    expect(diff.body.removed).toEqual([]);
    expect(diff.body.changed).toEqual([
      expect.objectContaining({
        provider: 'azure',
        oldPricePerHour: { amount: '55.8400', currency: 'USD' },
        newPricePerHour: { amount: '52.0000', currency: 'USD' },
        changePct: '-6.8768',
      }),
    ]);

    const versions = (await t.http().get('/v1/catalog/versions').expect(200)).body.items;
    expect(versions.map((v: { label: string; current: boolean }) => [v.label, v.current])).toEqual([
      ['fixture-2', true],
      ['fixture-1', false],
    ]);
    // Reads by label and by a time before the publish still see fixture-1.
    const byLabel = await t.http().get('/v1/providers').query({ version: 'fixture-1' }).expect(200);
    expect(byLabel.body.catalogVersion.label).toBe('fixture-1');
    const firstPublished = versions.find((v: { label: string }) => v.label === 'fixture-1').publishedAt;
    const asOf = await t.http().get('/v1/regions').query({ asOf: firstPublished }).expect(200);
    expect(asOf.body.catalogVersion.label).toBe('fixture-1');
  });

  it('shows price history of an offer and of a GPU per provider across published versions, same over GraphQL', async () => {
    const azure = (await t.http().get('/v1/offers').query({ provider: 'azure', version: 'fixture-1' }).expect(200)).body.items[0];
    const history = (await t.http().get(`/v1/offers/${azure.id}/history`).expect(200)).body;
    expect(
      history.points.map((p: { catalogVersion: { label: string }; pricePerGpuHour: { amount: string } }) => [p.catalogVersion.label, p.pricePerGpuHour.amount]),
    ).toEqual([
      ['fixture-1', '6.9800'],
      ['fixture-2', '6.5000'],
    ]);
    const gpu = (await t.http().get('/v1/gpus/h100-sxm-80gb/price-history').query({ currency: 'EUR', pricingModels: 'ON_DEMAND' }).expect(200)).body;
    const azureSeries = gpu.providers.find((s: { provider: string }) => s.provider === 'azure');
    expect(azureSeries.points.map((p: { pricePerGpuHour: { amount: string } }) => p.pricePerGpuHour.amount)).toEqual(['6.0377', '5.6225']);
    expect(gpu.providers.map((s: { provider: string }) => s.provider)).toEqual(['aws', 'azure', 'ovhcloud']);
    const gql = await t.graphql<{ offerPriceHistory: { points: { pricePerGpuHour: { amount: string } }[] } }>(
      `{ offerPriceHistory(offerId: "${azure.id}") { points { pricePerGpuHour { amount } } } }`,
    );
    expect(gql.data.offerPriceHistory.points.map((p) => p.pricePerGpuHour.amount)).toEqual(['6.9800', '6.5000']);
    await t.http().get('/v1/offers/no-such-offer/history').expect(400);
    await t
      .http()
      .get(`/v1/offers/${'0'.repeat(32)}/history`)
      .expect(404);
  });

  it('rolls back by publishing an older version', async () => {
    const currentLabel = async () => (await t.http().get('/v1/gpus').expect(200)).body.catalogVersion.label as string;
    await ctx.app.get(CatalogImportService).publish('fixture-1');
    // Every instance polls the publication log (CATALOG_REFRESH_MS, 1 s): allow 3 s.
    await eventually(async () => expect(await currentLabel()).toBe('fixture-1'), 3_000);
    await ctx.app.get(CatalogImportService).publish('fixture-2');
    await eventually(async () => expect(await currentLabel()).toBe('fixture-2'), 3_000);
  });

  it('rejects a file with bad rows, locating every error, and changes nothing', async () => {
    const before = await ctx.app.get(CatalogRepository).countRows();
    const dir = await copyWith('bad', (s) =>
      s
        .replace('label: fixture-1', 'label: fixture-bad')
        .replace(
          'gpuCount: 8, instanceType: p5.48xlarge, pricingModel: ON_DEMAND, pricePerGpuHour: "3.90"',
          'gpuCount: 0, instanceType: p5.48xlarge, pricingModel: ON_DEMAND, pricePerGpuHour: "3.90"',
        )
        .replace('region: westeurope', 'region: mars-1')
        .replace('pricePerHour: "1.21"', 'pricePerHour: "cheap"'),
    );
    const report = await ctx.app.get(CatalogImportService).import({ paths: [dir], publish: true });
    expect(report.status).toBe('invalid');
    if (report.status !== 'invalid') return;
    expect(report.errors.map((e) => [path.basename(e.file), e.line, e.field])).toEqual(
      [
        ['offers.yaml', 2, 'gpuCount'],
        ['offers.yaml', 8, 'pricePerHour'],
        ['offers.yaml', 5, 'region'],
      ].sort((a, b) => (a[1] as number) - (b[1] as number)),
    );
    expect(await ctx.app.get(CatalogRepository).countRows()).toEqual(before);
  });

  it('serialises concurrent imports: both land as separate versions, never interleaved', async () => {
    const a = await copyWith('concurrent-a', (s) =>
      s.replace('label: fixture-1', 'label: conc-a').replace('pricePerGpuHour: "1.49"', 'pricePerGpuHour: "1.39"'),
    );
    const b = await copyWith('concurrent-b', (s) =>
      s.replace('label: fixture-1', 'label: conc-b').replace('pricePerGpuHour: "1.49"', 'pricePerGpuHour: "1.59"'),
    );
    const importer = ctx.app.get(CatalogImportService);
    const [ra, rb] = await Promise.all([importer.import({ paths: [a] }), importer.import({ paths: [b] })]);
    expect([ra.status, rb.status]).toEqual(['created', 'created']);
    const diff = await t.http().get('/v1/catalog/diff').query({ from: 'conc-a', to: 'conc-b' }).expect(200);
    expect(diff.body.changed).toHaveLength(1);
    // Each version holds exactly its own file's content, whichever import took the lock first.
    expect(diff.body.changed[0]).toMatchObject({ provider: 'vastai', oldPricePerHour: { amount: '1.3900' }, newPricePerHour: { amount: '1.5900' } });
    const seqs = [ra, rb].map((r) => (r.status === 'created' ? r.version.seq : 0));
    expect(new Set(seqs).size).toBe(2);
  });

  it('answers unknown versions with 404 problem+json and GraphQL NOT_FOUND', async () => {
    const res = await t.http().get('/v1/providers').query({ version: 'no-such' }).expect(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 404, code: 'CATALOG.VERSION_NOT_FOUND' });
    const gql = await t.graphql('{ providers(version: "no-such") { slug } }');
    expect(gql.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('rejects a malformed asOf with 400 naming the field', async () => {
    const res = await t.http().get('/v1/providers').query({ asOf: 'yesterday' }).expect(400);
    expect(res.body.errors).toEqual([{ field: 'asOf', message: 'must be an RFC 3339 date-time with a time zone, such as 2026-12-01T00:00:00Z' }]);
  });
});
