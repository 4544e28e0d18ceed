// CatalogSyncService in-process on the bundled catalog in a real PostgreSQL: a key-gated source
// without its key is skipped, a source whose rows fail validation imports nothing (its provider
// keeps its offers), and the others import in the same run; every attempt is recorded for freshness.
import { CatalogService } from '../src/modules/catalog/catalog.service.js';
import { CatalogSyncService } from '../src/modules/price-feeds/index.js';
import type { PriceSource } from '../src/modules/price-feeds/price-source.js';
import { awsSpotSource } from '../src/modules/price-feeds/sources/aws-spot.js';
import { scalewaySource } from '../src/modules/price-feeds/sources/scaleway.js';
import { lambdaSource, nebiusSource } from '../src/modules/price-feeds/sources/skypilot.js';
import { SourceFreshnessService } from '../src/modules/catalog/index.js';
import { startFeedServer, type FeedServer } from './setup/feed-server.js';
import { createTestContext, type TestContext } from './setup/test-app.js';

// Test doubles of a source, not of the database: one that needs a key, one whose feed has a currency the catalog refuses.
const keyed: PriceSource = {
  name: 'keyed',
  provider: 'gcp',
  defaultUrl: 'http://127.0.0.1:9/never-read',
  requiredEnv: ['TEST_FEED_KEY'],
  fetch: () => Promise.reject(new Error('a skipped source is never fetched')),
};
const wrongCurrency: PriceSource = {
  name: 'wrong-currency',
  provider: 'runpod',
  defaultUrl: 'http://127.0.0.1:9/never-read',
  // The RunPod H100 PCIe price of the bundled catalog, with a currency the catalog has no rate for.
  fetch: async ({ now }) => ({
    offers: [
      {
        provider: 'runpod',
        region: 'runpod:us-tx-3',
        gpu: 'h100-pcie-80gb',
        gpuCount: '1',
        instanceType: 'H100 PCIe',
        pricingModel: 'ON_DEMAND',
        pricePerHour: '2.89',
        currency: 'GBP' as 'USD',
        priceKind: 'LIST',
        source: 'https://example.org/feed',
        observedAt: now.toISOString().slice(0, 10),
      },
    ],
    rowsRead: 1,
    pages: 1,
    skipped: {},
  }),
};

describe('CatalogSyncService (integration, real PostgreSQL)', () => {
  let ctx: TestContext;
  let feed: FeedServer | undefined;
  beforeAll(async () => {
    ctx = await createTestContext();
    feed = await startFeedServer([
      { match: (u) => u.pathname === '/lambda/vms.csv', replies: [{ file: 'lambda/vms.csv' }] },
      { match: (u) => u.pathname === '/nebius/vms.csv', replies: [{ file: 'nebius/vms.csv' }] },
      { match: (u) => u.pathname === '/aws/vms.csv', replies: [{ file: 'aws/vms.csv' }] },
      { match: (u) => u.pathname === '/aws/spot-advisor-data.json', replies: [{ file: 'aws/spot-advisor-data.json' }] },
      { match: (u) => u.pathname === '/scaleway/products' && u.searchParams.get('page') === '1', replies: [{ file: 'scaleway/products-page1.json' }] },
      { match: (u) => u.pathname === '/scaleway/products' && u.searchParams.get('page') === '2', replies: [{ file: 'scaleway/products-page2.json' }] },
    ]);
  });
  afterAll(async () => {
    await feed?.close();
    await ctx.close();
  });
  const offersOf = async (provider: string) => {
    const service = ctx.app.get(CatalogService);
    return (await service.content(await service.resolveVersion())).offers.filter((o) => o.providerSlug === provider);
  };

  it('refuses an unknown source name, naming the known ones', async () => {
    await expect(ctx.app.get(CatalogSyncService).sync({ sources: ['nope'], registry: [lambdaSource] })).rejects.toThrow(
      'unknown source(s) nope; known: lambda',
    );
  });

  it('skips a source without its key, fails one with invalid rows, imports the other, and records each attempt', async () => {
    const runpodBefore = (await offersOf('runpod')).map((o) => `${o.keyHash} ${o.pricePerHour.toString()}`).sort();
    const report = await ctx.app.get(CatalogSyncService).sync({
      registry: [keyed, wrongCurrency, lambdaSource],
      env: { PRICE_SOURCE_LAMBDA_URL: `${feed?.base ?? ''}/lambda/vms.csv`, PRICE_SOURCE_BACKOFF_MS: '10' },
      publish: true,
      label: 'sync-int',
      guard: { allowLargeChange: true },
    });
    const by = Object.fromEntries(report.sources.map((s) => [s.name, s]));
    expect(by.keyed).toMatchObject({ status: 'skipped', error: 'skipped: set TEST_FEED_KEY to read this source' });
    expect(by['wrong-currency']?.status).toBe('failed');
    expect(by['wrong-currency']?.error).toMatch(/^rows refused by validation \(1\): currency: /);
    expect(by.lambda).toMatchObject({ status: 'ok', rowsRead: 8, offers: 4 });
    expect(by.lambda?.skipped).toMatchObject({ 'region lambda:us-west-2 not in the catalog': 1, 'region lambda:europe-central-1 not in the catalog': 1 });
    expect(report.import?.status).toBe('created');

    // lambda now holds exactly the feed's us-east-1 rows; runpod kept every offer it had.
    expect((await offersOf('lambda')).map((o) => `${o.instanceType} ${o.pricePerHour.toString()}`).sort()).toEqual([
      'gpu_1x_h100_pcie 3.29',
      'gpu_1x_h100_sxm5 4.29',
      'gpu_2x_h100_sxm5 8.38',
      'gpu_8x_a100_80gb_sxm4 22.32',
    ]);
    expect((await offersOf('runpod')).map((o) => `${o.keyHash} ${o.pricePerHour.toString()}`).sort()).toEqual(runpodBefore);

    const fresh = Object.fromEntries((await ctx.app.get(SourceFreshnessService).list()).map((r) => [r.source, r]));
    expect(fresh.lambda).toMatchObject({ offers: 4, lastError: null });
    expect(fresh.lambda?.lastSuccessAt).toBeInstanceOf(Date);
    expect(fresh.keyed).toMatchObject({ lastSuccessAt: null, lastError: 'Skipped (set TEST_FEED_KEY)' });
    expect(fresh['wrong-currency']?.lastSuccessAt).toBeNull();
  });

  it('a source that covers only some pricing models replaces only those: nebius on-demand and spot, an AWS spot-only feed', async () => {
    const sync = ctx.app.get(CatalogSyncService);
    const env = { PRICE_SOURCE_NEBIUS_URL: `${feed?.base ?? ''}/nebius/vms.csv`, PRICE_SOURCE_BACKOFF_MS: '10' };
    const nebius = await sync.sync({ registry: [nebiusSource], env, publish: true, label: 'sync-nebius', guard: { allowLargeChange: true } });
    expect(nebius.sources[0]).toMatchObject({ status: 'ok', rowsRead: 8, offers: 10, pricingModels: ['ON_DEMAND', 'SPOT'] });
    expect(nebius.sources[0]?.skipped).toMatchObject({ 'no GPU': 1, 'region nebius:me-west1 not in the catalog': 2 });
    // By hand from the fixture: the 6 GPU rows of eu-north1 and eu-west1, 4 of them with a spot price too.
    expect((await offersOf('nebius')).map((o) => `${o.regionCode} ${o.instanceType} ${o.pricingModel} ${o.pricePerHour.toString()}`).sort()).toEqual([
      'nebius:eu-north1 gpu-h100-sxm_1gpu-16vcpu-200gb ON_DEMAND 2.95',
      'nebius:eu-north1 gpu-h100-sxm_1gpu-16vcpu-200gb SPOT 1.25',
      'nebius:eu-north1 gpu-h100-sxm_8gpu-128vcpu-1600gb ON_DEMAND 23.6',
      'nebius:eu-north1 gpu-h100-sxm_8gpu-128vcpu-1600gb SPOT 10',
      'nebius:eu-north1 gpu-h200-sxm_1gpu-16vcpu-200gb ON_DEMAND 3.5',
      'nebius:eu-north1 gpu-h200-sxm_1gpu-16vcpu-200gb SPOT 1.45',
      'nebius:eu-north1 gpu-l40s-a_1gpu-8vcpu-32gb ON_DEMAND 1.5484',
      'nebius:eu-north1 gpu-l40s-d_2gpu-64vcpu-384gb ON_DEMAND 4.5688',
      'nebius:eu-west1 gpu-h200-sxm_8gpu-128vcpu-1600gb ON_DEMAND 28',
      'nebius:eu-west1 gpu-h200-sxm_8gpu-128vcpu-1600gb SPOT 11.6',
    ]);

    // A feed of AWS spot prices only, that today lists none: it may empty AWS's spot offers, never its on-demand or reserved ones.
    const awsSpotOnly: PriceSource = {
      name: 'aws-spot-only',
      provider: 'aws',
      pricingModels: ['SPOT'],
      defaultUrl: 'http://127.0.0.1:9/never-read',
      fetch: () => Promise.resolve({ offers: [], rowsRead: 0, pages: 1, skipped: {} }),
    };
    const count = async () => (await offersOf('aws')).reduce<Record<string, number>>((n, o) => ({ ...n, [o.pricingModel]: (n[o.pricingModel] ?? 0) + 1 }), {});
    const before = await count();
    expect(before.SPOT).toBeGreaterThan(0);
    // The guard counts only the offers in the pricing-model scope: all the spot offers, not all of AWS's.
    const guarded = await sync.sync({ registry: [awsSpotOnly], env: {}, publish: true, label: 'sync-aws-spot' });
    expect(guarded.sources[0]?.status).toBe('failed');
    expect(guarded.sources[0]?.error).toContain(`would remove ${before.SPOT} of ${before.SPOT} offers in scope (100.0%`);
    const report = await sync.sync({ registry: [awsSpotOnly], env: {}, publish: true, label: 'sync-aws-spot', guard: { allowLargeChange: true } });
    expect(report.import?.status).toBe('created');
    expect(await count()).toEqual({ ...before, SPOT: undefined });
  });

  it('scaleway: the recorded fr-par-1 L4 types replace Scaleway on-demand offers, in EUR per hour', async () => {
    const report = await ctx.app.get(CatalogSyncService).sync({
      registry: [scalewaySource],
      env: { PRICE_SOURCE_SCALEWAY_URL: `${feed?.base ?? ''}/scaleway/products?product_types=instance` },
      publish: true,
      label: 'sync-scaleway',
      guard: { allowLargeChange: true },
    });
    expect(report.sources[0]).toMatchObject({ status: 'ok', rowsRead: 6, pages: 2, offers: 4 });
    // The bundled L40S offer in fr-par-2 is not in the recorded fr-par-1 answer: removed; L4-1-24G re-priced from 0.792 to 0.7875.
    expect(report.sources[0]?.diff?.removed.length).toBe(1);
    expect(
      (await offersOf('scaleway')).map((o) => `${o.regionCode} ${o.instanceType} ${o.gpuCount} ${o.pricePerHour.toString()} ${o.currency}`).sort(),
    ).toEqual([
      'scaleway:fr-par-1 L4-1-24G 1 0.7875 EUR',
      'scaleway:fr-par-1 L4-2-24G 2 1.575 EUR',
      'scaleway:fr-par-1 L4-4-24G 4 3.15 EUR',
      'scaleway:fr-par-1 L4-8-24G 8 6.3 EUR',
    ]);
  });

  it('aws-spot: spot offers with their Spot Instance Advisor band are stored and read back; on-demand and reserved stay', async () => {
    const count = async () => (await offersOf('aws')).reduce<Record<string, number>>((n, o) => ({ ...n, [o.pricingModel]: (n[o.pricingModel] ?? 0) + 1 }), {});
    const before = await count();
    const report = await ctx.app.get(CatalogSyncService).sync({
      registry: [awsSpotSource],
      env: {
        PRICE_SOURCE_AWS_SPOT_URL: `${feed?.base ?? ''}/aws/vms.csv`,
        PRICE_SOURCE_AWS_SPOT_ADVISOR_URL: `${feed?.base ?? ''}/aws/spot-advisor-data.json`,
      },
      publish: true,
      label: 'sync-aws-spot-advisor',
      guard: { allowLargeChange: true },
    });
    expect(report.sources[0]).toMatchObject({ status: 'ok', rowsRead: 11, offers: 3, pricingModels: ['SPOT'] });
    expect(report.import?.status).toBe('created');
    const spot = (await offersOf('aws')).filter((o) => o.pricingModel === 'SPOT');
    expect(spot.map((o) => `${o.regionCode} ${o.instanceType} ${o.pricePerHour.toString()} ${o.interruptionRate ?? 'no band'}`).sort()).toEqual([
      'aws:eu-north-1 p5.48xlarge 32.012 <5%',
      'aws:eu-north-1 p5en.48xlarge 11.8348 no band',
      'aws:us-east-1 p5.48xlarge 18.766 >20%',
    ]);
    // An offer without a band has no interruptionRate at all (not null), so its content hash is what it was before the field existed.
    expect(spot.filter((o) => !('interruptionRate' in o)).map((o) => o.instanceType)).toEqual(['p5en.48xlarge']);
    const after = await count();
    expect([after.ON_DEMAND, after.RESERVED_1Y, after.RESERVED_3Y]).toEqual([before.ON_DEMAND, before.RESERVED_1Y, before.RESERVED_3Y]);
  });
});
