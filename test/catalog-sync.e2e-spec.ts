// catalog:sync through the admin script itself (node dist/app/catalog.js sync, what
// `npm run catalog:sync` runs) against a local server playing recorded provider feeds
// (test/fixtures/price-sources), on the bundled catalog in a real PostgreSQL, with the built
// service running on the same database: a published sync answers the GDPR cheapest query, and a
// source that fails mid-way changes nothing for its provider while another source imports.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { eventually } from './setup/eventually.js';
import { azurePage, startFeedServer, type FeedServer, type Route } from './setup/feed-server.js';
import { createTestServer, type TestServer } from './setup/test-app.js';
import { defined } from '../src/domain/checked.js';

const run = promisify(execFile);
const AWS_OFFERS = '/offers/v1.0/aws/AmazonEC2';
const AWS_INDEX = `${AWS_OFFERS}/current/region_index.json`;

interface Outcome {
  code: number;
  out: string;
}

interface CheapestItem {
  provider: string;
  region: string;
  instanceType: string;
  pricingModel: string;
  pricePerHour: { amount: string; currency: string };
  source: string;
  observedAt: string;
  priceKind: string;
}

describe('catalog:sync (e2e, recorded feeds, real script, real PostgreSQL)', () => {
  let server: TestServer | undefined;
  let feed: FeedServer | undefined;
  let azurePage2: Route['replies'];
  let awsUsEast1: Route['replies'];
  beforeAll(async () => {
    server = await createTestServer();
    azurePage2 = [{ file: 'azure/page2.json' }];
    awsUsEast1 = [{ file: 'aws/offers-us-east-1.json' }];
    feed = await startFeedServer([
      { match: azurePage(null), replies: [{ file: 'azure/page1.json' }] },
      // Read through a getter: a test swaps page 2's replies.
      {
        match: azurePage('1000'),
        get replies() {
          return azurePage2;
        },
      },
      { match: azurePage('2000'), replies: [{ file: 'azure/page3.json' }] },
      { match: (u) => u.pathname === '/ecb/eurofxref-daily.xml', replies: [{ file: 'ecb/eurofxref-daily.xml' }] },
      { match: (u) => u.pathname === '/aws/vms.csv', replies: [{ file: 'aws/vms.csv' }] },
      { match: (u) => u.pathname === '/aws/spot-advisor-data.json', replies: [{ file: 'aws/spot-advisor-data.json' }] },
      { match: (u) => u.pathname === AWS_INDEX, replies: [{ file: 'aws/region_index.json' }] },
      { match: (u) => u.pathname === `${AWS_OFFERS}/20260910195514/eu-west-1/index.json`, replies: [{ file: 'aws/offers-eu-west-1.json' }] },
      {
        match: (u) => u.pathname === `${AWS_OFFERS}/20260910195514/us-east-1/index.json`,
        get replies() {
          return awsUsEast1;
        },
      },
      { match: (u) => u.pathname === `${AWS_OFFERS}/20230322145651/us-east-2/index.json`, replies: [{ file: 'aws/offers-us-east-2.json' }] },
      // Hostile or broken feeds: the first Azure page, edited.
      ...hostileFeeds(),
    ]);
  });
  const srv = (): TestServer => defined(server, 'the test server');
  const fd = (): FeedServer => defined(feed, 'the feed server');
  // Also when beforeAll failed half-way (the service did not start): nothing is left behind.
  afterAll(async () => {
    await feed?.close();
    await server?.stop();
  });

  const sync = async (...args: string[]): Promise<Outcome> => syncWith({}, ...args);
  const syncWith = async (overrides: Record<string, string>, ...args: string[]): Promise<Outcome> => {
    const env = {
      PATH: process.env.PATH,
      DATABASE_URL: srv().db.url,
      LOG_LEVEL: 'warn',
      PRICE_SOURCE_AZURE_URL: `${fd().base}/api/retail/prices?api-version=2023-01-01-preview`,
      PRICE_SOURCE_ECB_URL: `${fd().base}/ecb/eurofxref-daily.xml`,
      PRICE_SOURCE_AWS_SPOT_URL: `${fd().base}/aws/vms.csv`,
      PRICE_SOURCE_AWS_SPOT_ADVISOR_URL: `${fd().base}/aws/spot-advisor-data.json`,
      PRICE_SOURCE_AWS_URL: `${fd().base}${AWS_INDEX}`,
      PRICE_SOURCE_RETRIES: '1',
      PRICE_SOURCE_BACKOFF_MS: '10',
      ...overrides,
    };
    try {
      const { stdout, stderr } = await run(process.execPath, ['dist/app/catalog.js', 'sync', ...args], { env });
      return { code: 0, out: stdout + stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: e.stdout + e.stderr };
    }
  };
  const azureOffers = async (): Promise<CheapestItem[]> =>
    (await srv().http().get('/v1/offers').query({ provider: 'azure', limit: 500 }).expect(200)).body.items as CheapestItem[];
  const currentVersion = async (): Promise<{ label: string; fxRates: { base: string; date: string; rates: { currency: string; rate: string }[] } }> => {
    const items = (await srv().http().get('/v1/catalog/versions').expect(200)).body.items as { current: boolean; label: string }[];
    return defined(
      items.find((v) => v.current),
      'the current version',
    ) as unknown as Awaited<ReturnType<typeof currentVersion>>;
  };
  const currentLabel = async (): Promise<string> => (await currentVersion()).label;
  /** The version the running service answers with (it polls the publication log). */
  const servedLabel = async (): Promise<string> =>
    (await srv().http().get('/v1/offers/cheapest').query({ gpu: 'h100-sxm-80gb' }).expect(200)).body.catalogVersion.label as string;

  it('--dry-run prints the rows it would add, reservation term totals as hourly prices, and writes nothing', async () => {
    const before = await currentLabel();
    const dry = await sync('--source', 'azure', '--dry-run', '--allow-large-change');
    expect(dry.out).toMatch(/\[azure\] OK in [\d.]+ s: 19 rows read from 3 page\(s\), 12 offers; added \d+, removed \d+, changed \d+/);
    expect(dry.out).toContain('skipped: Low Priority 2, Windows 2, a fraction of a GPU 1, DevTest meter 1, not a GPU size 1');
    // The bundled catalog has these Azure offers from an older read of the same API: 12 changed (new source and date), the other 96 removed.
    expect(dry.out).toContain('added 0, removed 96, changed 12');
    // 551221 USD for 1 year / 8760 h = 62.9247716895 USD/h; 1134310 / 26280 h = 43.1624809741 (bc, 10 decimals).
    expect(dry.out).toMatch(/azure\|azure:eastus\|h100-sxm-80gb\|8\|Standard_ND96isr_H100_v5\|RESERVED_1Y .*62\.9247716895 USD\/h/);
    expect(dry.out).toMatch(/azure\|azure:eastus\|h100-sxm-80gb\|8\|Standard_ND96isr_H100_v5\|RESERVED_3Y .*43\.1624809741 USD\/h/);
    expect(dry.out).toContain('~ azure|azure:westeurope|h100-nvl-94gb|1|Standard_NC40ads_H100_v5|ON_DEMAND  9.08 USD/h -> 9.08 USD/h');
    expect(dry.out).toContain('~ azure|azure:westeurope|h100-nvl-94gb|1|Standard_NC40ads_H100_v5|SPOT  3.3469 USD/h -> 5.23008 USD/h (+56.27%)');
    // Windows (132.232, 0.799), Low Priority (25.563, 0.123) and DevTest (0.176346) prices appear nowhere.
    for (const price of ['132.232', '0.799 ', '25.563', '0.123 ', '0.176346']) expect(dry.out).not.toContain(price);
    expect(dry.out).toContain('Dry run: nothing was written.');
    expect(dry.code).toBe(0);
    expect(await currentLabel()).toBe(before);
  });

  it('without --allow-large-change, a feed that would remove most Azure offers is refused and exits 1', async () => {
    const before = (await azureOffers()).length;
    const refused = await sync('--source', 'azure', '--publish');
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/\[azure\] FAILED/);
    expect(refused.out).toContain('refused by the guard: would remove');
    expect((await azureOffers()).length).toBe(before);
  });

  it('--publish creates a version in which the synced Azure offers answer the GDPR cheapest query', async () => {
    const published = await sync('--source', 'azure', '--publish', '--allow-large-change', '--label', 'sync-azure-e2e');
    expect(published.out).toContain('Published: it is now the current version.');
    expect(published.code).toBe(0);
    // The running service picks the new version up from the publication log.
    expect(await currentLabel()).toBe('sync-azure-e2e');
    await eventually(async () => expect(await servedLabel()).toBe('sync-azure-e2e'), 10_000);
    const cheapest = (
      await srv()
        .http()
        .get('/v1/offers/cheapest')
        .query({ gpu: 'h100-sxm-80gb,h100-nvl-94gb', preset: 'GDPR_PERSONAL_DATA', provider: 'azure', limit: 10 })
        .expect(200)
    ).body;
    const items = cheapest.items as CheapestItem[];
    // westeurope (NL) is the only EEA region with H100 offers in the feed; eastus is not in the EEA. Cheapest per GPU-hour
    // first: 23.620397 / 8 = 2.95, 5.23008 / 1, 9.08 / 1, 127.816 / 8 = 15.98 (amounts shown to 4 decimals).
    expect(items.map((i) => [i.region, i.instanceType, i.pricingModel, i.pricePerHour.amount])).toEqual([
      ['azure:westeurope', 'Standard_ND96isr_H100_v5', 'SPOT', '23.6204'],
      ['azure:westeurope', 'Standard_NC40ads_H100_v5', 'SPOT', '5.2301'],
      ['azure:westeurope', 'Standard_NC40ads_H100_v5', 'ON_DEMAND', '9.0800'],
      ['azure:westeurope', 'Standard_ND96isr_H100_v5', 'ON_DEMAND', '127.8160'],
    ]);
    for (const i of items) {
      expect(i.source.startsWith(fd().base)).toBe(true);
      expect(i.priceKind).toBe('LIST');
      expect(i.observedAt).toBe(new Date().toISOString().slice(0, 10));
    }
    expect((await azureOffers()).length).toBe(12);
  });

  it('a source failing mid-way changes nothing for its provider; the other source imports; exit 1 with the report', async () => {
    const before = await azureOffers();
    azurePage2 = [{ status: 500, body: 'upstream error' }];
    try {
      const outcome = await sync('--source', 'azure,ecb', '--publish', '--label', 'sync-ecb-only');
      expect(outcome.code).toBe(1);
      expect(outcome.out).toMatch(/\[azure\] FAILED in [\d.]+ s/);
      expect(outcome.out).toMatch(
        /nothing imported from azure: GET http:\/\/127\.0\.0\.1:\d+\/api\/retail\/prices\?.*\$skip=1000 answered 500 \(gave up after 2 attempts\)/,
      );
      expect(outcome.out).toMatch(/\[ecb\] OK/);
      // 1 EUR = 1.1289 USD on 2019-06-13 (the recorded file): 1 / 1.1289 = 0.885818 EUR per USD.
      expect(outcome.out).toContain('FX: 1 USD = 0.885818 EUR (2019-06-13;');
      expect(outcome.out).toContain('Created version sync-ecb-only');
    } finally {
      azurePage2 = [{ file: 'azure/page2.json' }];
    }
    const version = await currentVersion();
    expect(version.label).toBe('sync-ecb-only');
    expect(version.fxRates).toMatchObject({ base: 'USD', rates: [{ currency: 'EUR', rate: '0.885818' }], date: '2019-06-13' });
    await eventually(async () => expect(await servedLabel()).toBe('sync-ecb-only'), 10_000);
    const after = await azureOffers();
    const view = (o: CheapestItem[]) => o.map((i) => `${i.region} ${i.instanceType} ${i.pricingModel} ${i.pricePerHour.amount}`).sort();
    expect(view(after)).toEqual(view(before));
  });

  it('reports per-source freshness on /metrics and /health/ready; a stale source is a warning and readiness stays up', async () => {
    // azure: 12 offers from the published sync; its last attempt (the one above) failed, which keeps the last success.
    await eventually(async () => {
      const metrics = (await srv().http().get('/metrics').expect(200)).text;
      expect(metrics).toMatch(/^catalog_source_offers\{source="azure"\} 12$/m);
      expect(metrics).toMatch(/^catalog_source_last_success_timestamp\{source="azure"\} \d{10}(\.\d+)?$/m);
      expect(metrics).toMatch(/^catalog_source_last_success_timestamp\{source="ecb"\} \d{10}(\.\d+)?$/m);
    }, 10_000);
    // A source last synced 10 days ago: older than CATALOG_SOURCE_STALE_HOURS (default 48).
    const client = new pg.Client({ connectionString: srv().db.url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO catalog_source_syncs (source, provider, last_attempt_at, last_success_at, offers) VALUES ('old-feed', 'gcp', now() - interval '10 days', now() - interval '10 days', 3)`,
      );
    } finally {
      await client.end();
    }
    await eventually(async () => {
      const ready = await srv().http().get('/health/ready').expect(200);
      const sources = ready.body.info.catalogSources;
      expect(sources.status).toBe('up');
      expect(sources.warning).toBe('stale price sources (no successful catalog:sync recently): old-feed');
      expect(sources.sources['old-feed']).toMatchObject({ stale: true, offers: 3 });
      expect(sources.sources.azure).toMatchObject({ stale: false, offers: 12 });
      // The error class and HTTP status only: never text the feed answered ("upstream error").
      expect(sources.sources.azure.lastError).toBe('HttpStatusError (HTTP 500)');
      expect(JSON.stringify(ready.body)).not.toContain('upstream error');
      expect(sources.sources.ecb).toMatchObject({ stale: false, lastError: null });
    }, 10_000);
  });

  it('aws-spot: the published spot offers carry their interruption band on REST and GraphQL; AWS on-demand offers stay', async () => {
    const onDemand = async () =>
      (await srv().http().get('/v1/offers').query({ provider: 'aws', pricingModel: 'ON_DEMAND', limit: 500 }).expect(200)).body.items.length as number;
    const onDemandBefore = await onDemand();
    const published = await sync('--source', 'aws-spot', '--publish', '--allow-large-change', '--label', 'sync-aws-spot-e2e');
    expect(published.code).toBe(0);
    expect(published.out).toContain('(SPOT offers of aws only)');
    await eventually(async () => expect(await servedLabel()).toBe('sync-aws-spot-e2e'), 10_000);
    const rest = (await srv().http().get('/v1/offers').query({ provider: 'aws', pricingModel: 'SPOT', limit: 500 }).expect(200)).body.items as {
      region: string;
      instanceType: string;
      interruptionRate: string | null;
    }[];
    expect(rest.map((o) => `${o.region} ${o.instanceType} ${o.interruptionRate}`).sort()).toEqual([
      'aws:eu-north-1 p5.48xlarge <5%',
      'aws:eu-north-1 p5en.48xlarge null',
      'aws:us-east-1 p5.48xlarge >20%',
    ]);
    const gql = await srv()
      .http()
      .post('/graphql')
      .send({ query: '{ offers(first: 50, filter: { providers: ["aws"], pricingModels: [SPOT] }) { items { instanceType region interruptionRate } } }' })
      .expect(200);
    expect(gql.body.errors).toBeUndefined();
    expect(
      (gql.body.data.offers.items as { region: string; interruptionRate: string | null }[]).map((o) => `${o.region} ${o.interruptionRate}`).sort(),
    ).toEqual(['aws:eu-north-1 <5%', 'aws:eu-north-1 null', 'aws:us-east-1 >20%']);
    expect(await onDemand()).toBe(onDemandBefore);

    // The estimator prices each of these spot offers with its band (docs/cost-model.md, "The Spot Instance Advisor band").
    const spotOfferIn = async (region: string) => {
      const body = {
        model: { preset: 'llama-3-8b' },
        workload: { requestsPerSecond: 1, avgInputTokens: 500, avgOutputTokens: 200 },
        gpus: ['h100-sxm-80gb'],
        policy: { providers: ['aws'], regions: [region], pricingModels: ['SPOT'], tolerance: 'TOLERANT' },
      };
      const e = (await srv().http().post('/v1/estimates').send(body).expect(200)).body;
      return e.chosenOffers.find((o: { pricingModel: string }) => o.pricingModel === 'SPOT');
    };
    const banded = await spotOfferIn('aws:eu-north-1');
    expect(banded).toMatchObject({ instanceType: 'p5.48xlarge', interruptionRate: '<5%', interruptionBasis: 'ADVISOR_BAND' });
    // −ln(1 − 0.05) / 730 = 0.0512932943875506 / 730 interruptions per instance-hour.
    expect(banded.interruptionsPerHour).toBeCloseTo(0.0512932943875506 / 730, 15);
    // >20% has no upper bound: the flat default.
    expect(await spotOfferIn('aws:us-east-1')).toMatchObject({ interruptionRate: '>20%', interruptionBasis: 'DEFAULT', interruptionsPerHour: 0.05 });
  });

  it('aws --dry-run: lists the hourly rows of the offer files it read; Windows, SQL and Capacity Block rows appear nowhere; nothing is written', async () => {
    const before = await currentLabel();
    const dry = await sync('--source', 'aws', '--dry-run', '--allow-large-change');
    // The region index and three offer files (eu-west-1, us-east-1, us-east-2: 5 + 11 + 3 products). The bundled catalog has 199 AWS
    // offers that are not SPOT (data/catalog/offers/aws.yaml); 4 of them are read again (changed: source and date), the other 195
    // are removed, and g5.2xlarge in eu-west-1 is new.
    expect(dry.out).toMatch(
      /\[aws\] OK in [\d.]+ s: 19 rows read from 4 page\(s\), 5 offers; added 1, removed 195, changed 4 \(ON_DEMAND, RESERVED_1Y, RESERVED_3Y offers of aws only\)/,
    );
    expect(dry.out).toContain(
      'skipped: region not in the catalog (its offer file is not read) 1, not a GPU family the source reads 3, no instanceType (the free-tier pseudo-product) 2, ' +
        'operatingSystem Windows 4, preInstalledSw SQL Std 1, tenancy Dedicated 1, capacitystatus UnusedCapacityReservation 1, marketoption CapacityBlock 1, not a Compute Instance 1',
    );
    // 1.3529600000 and 23.7156900000 USD per hour in the files.
    expect(dry.out).toContain('+ aws|aws:eu-west-1|a10g-24gb|1|g5.2xlarge|ON_DEMAND  1.35296 USD/h');
    expect(dry.out).toContain(
      '~ aws|aws:eu-west-1|a100-sxm-40gb|8|p4d.24xlarge|ON_DEMAND  23.71569 USD/h -> 23.71569 USD/h (+0.00%) [also: sourceUrl, sourceTitle, observedAt, sourceKind]',
    );
    expect(dry.out).toContain('~ aws|aws:us-east-1|h100-sxm-80gb|8|p5.48xlarge|ON_DEMAND  55.04 USD/h -> 55.04 USD/h');
    // Windows m5.xlarge (0.376), SQL Std (0.672), the p3.8xlarge Windows BYOL (12.24) and the Capacity Block p5 at 0.00 are not offers.
    for (const price of ['0.376 ', '0.672 ', '12.24 ']) expect(dry.out).not.toContain(price);
    expect(dry.out).not.toMatch(/[+~] aws\|aws:us-east-1\|h100-sxm-80gb\|8\|p5\.48xlarge\|ON_DEMAND .*-> 0 /);
    expect(dry.out).toContain('Dry run: nothing was written.');
    expect(dry.code).toBe(0);
    expect(await currentLabel()).toBe(before);
  });

  it('aws --publish: the synced eu-west-1 offer answers the GDPR cheapest query; AWS spot offers stay', async () => {
    const spot = async () =>
      (await srv().http().get('/v1/offers').query({ provider: 'aws', pricingModel: 'SPOT', limit: 500 }).expect(200)).body.items.length as number;
    const spotBefore = await spot();
    const published = await sync('--source', 'aws', '--publish', '--allow-large-change', '--label', 'sync-aws-e2e');
    expect(published.out).toContain('Published: it is now the current version.');
    expect(published.code).toBe(0);
    await eventually(async () => expect(await servedLabel()).toBe('sync-aws-e2e'), 10_000);
    const items = (
      await srv()
        .http()
        .get('/v1/offers/cheapest')
        .query({ gpu: 'a100-sxm-40gb', preset: 'GDPR_PERSONAL_DATA', provider: 'aws', pricingModel: 'ON_DEMAND', limit: 10 })
        .expect(200)
    ).body.items as CheapestItem[];
    // The sync replaced AWS's on-demand and reserved offers with the five it read: of their A100s, eu-west-1 (IE) is in the EEA,
    // us-east-1 is not. 23.71569 shown to 4 decimals.
    expect(items.map((i) => [i.region, i.instanceType, i.pricingModel, i.pricePerHour.amount])).toEqual([
      ['aws:eu-west-1', 'p4d.24xlarge', 'ON_DEMAND', '23.7157'],
    ]);
    expect(items[0]).toMatchObject({
      source: `${fd().base}${AWS_OFFERS}/20260910195514/eu-west-1/index.json`,
      priceKind: 'LIST',
      observedAt: new Date().toISOString().slice(0, 10),
    });
    expect(await spot()).toBe(spotBefore);
  });

  it('aws: an offer file that keeps answering 500 changes nothing for AWS, and the exit code is 1', async () => {
    const awsOffers = async () =>
      ((await srv().http().get('/v1/offers').query({ provider: 'aws', limit: 500 }).expect(200)).body.items as CheapestItem[])
        .map((i) => `${i.region} ${i.instanceType} ${i.pricingModel} ${i.pricePerHour.amount}`)
        .sort();
    const before = await awsOffers();
    awsUsEast1 = [{ status: 500, body: 'InternalError' }];
    try {
      const outcome = await sync('--source', 'aws', '--publish', '--allow-large-change', '--label', 'sync-aws-fails');
      expect(outcome.code).toBe(1);
      expect(outcome.out).toMatch(/\[aws\] FAILED in [\d.]+ s/);
      expect(outcome.out).toMatch(
        /nothing imported from aws: GET http:\/\/127\.0\.0\.1:\d+\/offers\/v1\.0\/aws\/AmazonEC2\/20260910195514\/us-east-1\/index\.json answered 500 \(gave up after 2 attempts\)/,
      );
    } finally {
      awsUsEast1 = [{ file: 'aws/offers-us-east-1.json' }];
    }
    expect(await currentLabel()).toBe('sync-aws-e2e');
    expect(await awsOffers()).toEqual(before);
  });

  describe('feeds trusted with nothing, and guards that weigh the size of a change', () => {
    const azureAt = (prefix: string) => ({ PRICE_SOURCE_AZURE_URL: `${fd().base}${prefix}/api/retail/prices?api-version=2023-01-01-preview` });
    // Only the rules under test: removing or re-pricing many offers is allowed here.
    const counts = ['--max-removed', '100', '--max-changed', '100'];
    const readyText = async () => JSON.stringify((await srv().http().get('/health/ready')).body);

    it('refuses one offer re-priced by −99.78% (4.591 → 0.01) however few offers change, naming both prices, and writes nothing', async () => {
      const before = await currentLabel();
      const out = await syncWith(azureAt('/moved'), '--source', 'azure', '--publish', ...counts);
      expect(out.code).toBe(1);
      // (0.01 − 4.591) / 4.591 = −99.78%.
      expect(out.out).toContain(
        'would move the price of azure|azure:francecentral|a100-pcie-80gb|1|Standard_NC24ads_A100_v4|ON_DEMAND from 4.591 to 0.01 USD per instance-hour (-99.78%, limit ±50%)',
      );
      expect(await currentLabel()).toBe(before);
      // --max-price-move sets the limit; --allow-large-change lets it through (dry run: nothing written).
      expect((await syncWith(azureAt('/moved'), '--source', 'azure', '--dry-run', ...counts, '--max-price-move', '99')).out).toContain('limit ±99%');
      expect((await syncWith(azureAt('/moved'), '--source', 'azure', '--dry-run', '--allow-large-change')).code).toBe(0);
    });

    it('never imports a price of 0: the feed row is skipped and counted, and no offer is re-priced to 0', async () => {
      // The import guard refuses a price of 0 too (import-guard.spec.ts); the Azure adapter stops it first.
      const out = await syncWith(azureAt('/zero'), '--source', 'azure', '--dry-run', ...counts, '--max-price-move', '100000');
      expect(out.out).toMatch(/skipped: [^\n]*price 0 1/);
      expect(out.out).not.toMatch(/-> 0 USD\/h/);
      expect(out.out).toMatch(/- azure\|azure:francecentral\|t4-16gb\|1\|Standard_NC4as_T4_v3\|ON_DEMAND/);
    });

    it('refuses an ECB rate of 0.0000001 USD per EUR (10,000,000 EUR per USD): more than 20% from the current rate', async () => {
      const before = await currentVersion();
      const out = await syncWith({ PRICE_SOURCE_ECB_URL: `${fd().base}/broken-ecb/eurofxref-daily.xml` }, '--source', 'ecb', '--publish');
      expect(out.code).toBe(1);
      expect(out.out).toMatch(/would move the FX rate of EUR from [\d.]+ to 10000000 per USD \(\+\d+\.\d\d%, limit ±20%\)/);
      expect(await currentVersion()).toEqual(before);
    });

    it('does not follow a next-page link or a redirect to another origin (169.254.169.254), and /health/ready shows no text of the feed', async () => {
      const linked = await syncWith(azureAt('/offorigin'), '--source', 'azure', '--dry-run', '--allow-large-change');
      expect(linked.code).toBe(1);
      expect(linked.out).toMatch(/the URL leaves the source's origin\(s\) http:\/\/127\.0\.0\.1:\d+ for http:\/\/169\.254\.169\.254/);
      const redirected = await syncWith(azureAt('/redirect'), '--source', 'azure', '--publish', '--allow-large-change');
      expect(redirected.code).toBe(1);
      expect(redirected.out).toMatch(/a redirect from .* leaves the source's origin\(s\) .* for http:\/\/169\.254\.169\.254/);
      // What readiness shows: the class of the failure, not the feed's text (its page says "SECRET-FEED-TEXT").
      await eventually(async () => {
        const ready = await srv().http().get('/health/ready').expect(200);
        expect(ready.body.info.catalogSources.sources.azure.lastError).toBe('FeedGuardError (OFF_ORIGIN)');
      }, 10_000);
      expect(await readyText()).not.toContain('SECRET-FEED-TEXT');
      expect(await readyText()).not.toContain('169.254');
    });

    it('stops an answer larger than PRICE_SOURCE_MAX_BYTES, and says so', async () => {
      const out = await syncWith({ ...azureAt('/huge'), PRICE_SOURCE_MAX_BYTES: '100000' }, '--source', 'azure', '--allow-large-change');
      expect(out.code).toBe(1);
      expect(out.out).toContain('the answer is larger than 100000 bytes (PRICE_SOURCE_MAX_BYTES)');
      await eventually(async () => expect(await readyText()).toContain('ResponseTooLargeError'), 10_000);
    });
  });
});

/** The first Azure page, edited into what a hostile or broken feed would answer (routes under a prefix of their own). */
function hostileFeeds(): Route[] {
  const page1 = (prefix: string, edit: (body: string) => string): Route => ({
    match: (u) => u.pathname === `${prefix}/api/retail/prices` && u.searchParams.get('$skip') === null,
    replies: [{ file: 'azure/page1.json', edit }],
  });
  return [
    page1('/moved', (b) => b.replace('"retailPrice": 4.591,', '"retailPrice": 0.01,')),
    page1('/zero', (b) => b.replace('"retailPrice": 0.615,', '"retailPrice": 0,')),
    page1('/offorigin', (b) => b.replace(/"NextPageLink": "[^"]*"/, '"NextPageLink": "http://169.254.169.254/latest/meta-data/?$skip=1000"')),
    {
      match: (u) => u.pathname === '/redirect/api/retail/prices',
      replies: [{ status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' }, body: 'SECRET-FEED-TEXT' }],
    },
    page1('/huge', (b) => b.replace('{', `{"padding": "${' '.repeat(200_000)}",`)),
    {
      match: (u) => u.pathname === '/broken-ecb/eurofxref-daily.xml',
      replies: [{ file: 'ecb/eurofxref-daily.xml', edit: (b) => b.replace("rate='1.1289'", "rate='0.0000001'") }],
    },
  ];
}
