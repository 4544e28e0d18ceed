// The aws source against a local server playing offer files in the Price List bulk layout, assembled
// from real recorded rows, and the reserved-term conversion on real recorded c5.xlarge terms
// (test/fixtures/price-sources/README.md, "aws/ — AWS Price List bulk files").
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { FIXTURES, startFeedServer, type FeedServer, type Reply, type Route } from '../../../../test/setup/feed-server.js';
import { HttpClient } from '../http-client.js';
import type { SourceResult } from '../price-source.js';
import { awsSource, onDemandPrice, readOfferFile, reservedPrice } from './aws.js';

const NOW = new Date('2026-11-30T18:00:00Z');
const INDEX = '/offers/v1.0/aws/AmazonEC2/current/region_index.json';
const FILE = {
  'eu-west-1': '/offers/v1.0/aws/AmazonEC2/20260910195514/eu-west-1/index.json',
  'us-east-1': '/offers/v1.0/aws/AmazonEC2/20260910195514/us-east-1/index.json',
  'us-east-2': '/offers/v1.0/aws/AmazonEC2/20230322145651/us-east-2/index.json',
} as const;
/** The aws regions of the bundled catalog (data/catalog/regions.yaml). */
const CATALOG_REGIONS = ['us-east-1', 'us-east-2', 'eu-central-1', 'eu-west-1', 'eu-west-3', 'eu-north-1', 'eu-west-2', 'eu-south-2', 'us-west-2'].map(
  (r) => `aws:${r}`,
);

type Region = keyof typeof FILE;
/** The parts of an offer file the tests change. */
interface OfferDoc {
  products: Record<string, { attributes: Record<string, string> }>;
  terms: { OnDemand: Record<string, Record<string, { priceDimensions: Record<string, { unit: string; pricePerUnit: Record<string, string> }> }>> };
}
/** Edits a JSON body through its parsed form (a field removed or changed in one term). */
const jsonEdit =
  (change: (doc: OfferDoc) => void) =>
  (body: string): string => {
    const doc = JSON.parse(body) as OfferDoc;
    change(doc);
    return JSON.stringify(doc);
  };

describe('aws price source (Price List bulk files, streamed)', () => {
  let server: FeedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const run = async (files: Partial<Record<Region, Reply[]>> = {}, env: NodeJS.ProcessEnv = {}, index: Reply[] = [{ file: 'aws/region_index.json' }]) => {
    const routes: Route[] = [
      { match: (u) => u.pathname === INDEX, replies: index },
      ...(Object.keys(FILE) as Region[]).map((r) => ({
        match: (u: URL) => u.pathname === FILE[r],
        replies: files[r] ?? [{ file: `aws/offers-${r}.json` }],
      })),
    ];
    server = await startFeedServer(routes);
    return awsSource.fetch({
      url: `${server.base}${INDEX}`,
      now: NOW,
      http: new HttpClient({ retries: 2, backoffMs: 10 }),
      env,
      regions: CATALOG_REGIONS,
    });
  };
  const view = (r: SourceResult) => r.offers.map((o) => [o.region, o.instanceType, o.gpu, o.gpuCount, o.pricingModel, o.pricePerHour]);

  it('reads the region index, then the offer file of each catalog region through a 429 and a 500, and keeps the Linux GPU rows', async () => {
    const started = Date.now();
    const result = await run({
      'eu-west-1': [{ status: 429, headers: { 'retry-after': '1' }, body: 'SlowDown' }, { file: 'aws/offers-eu-west-1.json' }],
      'us-east-2': [{ status: 500, body: 'InternalError' }, { file: 'aws/offers-us-east-2.json' }],
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    // The index, then the three files of catalog regions, eu-west-1 and us-east-2 twice; ap-southeast-2 is not fetched.
    expect(server?.requests).toEqual([INDEX, FILE['eu-west-1'], FILE['eu-west-1'], FILE['us-east-1'], FILE['us-east-2'], FILE['us-east-2']]);
    expect(result.pages).toBe(1 + 3);
    // Products in the three files: eu-west-1 5, us-east-1 11, us-east-2 3.
    expect(result.rowsRead).toBe(5 + 11 + 3);
    // Counted by hand from the fixtures: m5.xlarge Linux in eu-west-1 and us-east-1 and m5.large in us-east-2 (no GPU);
    // the free-tier product of eu-west-1 and us-east-1; the three m5.xlarge Windows SKUs of us-east-1 and the p3.8xlarge
    // Windows BYOL of us-east-2; SQL Std, Dedicated, UnusedBox and the Capacity Block p5 of us-east-1; the gp3 volume.
    expect(result.skipped).toEqual({
      'region not in the catalog (its offer file is not read)': 1,
      'not a GPU family the source reads': 3,
      'no instanceType (the free-tier pseudo-product)': 2,
      'operatingSystem Windows': 4,
      'preInstalledSw SQL Std': 1,
      'tenancy Dedicated': 1,
      'capacitystatus UnusedCapacityReservation': 1,
      'marketoption CapacityBlock': 1,
      'not a Compute Instance': 1,
    });
    // The hourly prices as the files write them (23.7156900000 is 23.71569); the Capacity Block p5 at 0.00 is not here.
    expect(view(result)).toEqual([
      ['aws:eu-west-1', 'g4dn.xlarge', 't4-16gb', '1', 'ON_DEMAND', '0.587'],
      ['aws:eu-west-1', 'g5.2xlarge', 'a10g-24gb', '1', 'ON_DEMAND', '1.35296'],
      ['aws:eu-west-1', 'p4d.24xlarge', 'a100-sxm-40gb', '8', 'ON_DEMAND', '23.71569'],
      ['aws:us-east-1', 'p4d.24xlarge', 'a100-sxm-40gb', '8', 'ON_DEMAND', '21.957642'],
      ['aws:us-east-1', 'p5.48xlarge', 'h100-sxm-80gb', '8', 'ON_DEMAND', '55.04'],
    ]);
    const p4d = result.offers.find((o) => o.region === 'aws:eu-west-1' && o.instanceType === 'p4d.24xlarge');
    expect(p4d).toMatchObject({ source: `${server?.base}${FILE['eu-west-1']}`, observedAt: '2026-11-30', priceKind: 'LIST', currency: 'USD' });
    expect(p4d?.sourceTitle).toBe(
      'AWS Price List, AmazonEC2 offer file for eu-west-1, version 20260910195514 (published 2026-09-10T19:55:14Z): ' +
        'SKU CQ3RZ8A8BQKVHSKT, on-demand term JRTCKXETXF, "$23.71569 per On Demand Linux p4d.24xlarge Instance Hour"',
    );
    expect(awsSource.pricingModels).toEqual(['ON_DEMAND', 'RESERVED_1Y', 'RESERVED_3Y']);
  });

  it('leaves out a GPU product that is not Linux (the g5.2xlarge made Windows in a copy)', async () => {
    const windows = jsonEdit((d) => {
      const g5 = d.products.P2KE3JYU9KQ2RD7B;
      if (!g5) throw new Error('the fixture has no g5.2xlarge');
      g5.attributes.operatingSystem = 'Windows';
    });
    const result = await run({ 'eu-west-1': [{ file: 'aws/offers-eu-west-1.json', edit: windows }] });
    expect(result.offers.map((o) => o.instanceType)).not.toContain('g5.2xlarge');
    expect(result.skipped['operatingSystem Windows']).toBe(4 + 1);
  });

  it('names the source, the file, the SKU and the term for a price without USD or with a unit it does not know', async () => {
    const p4dTerm = (d: OfferDoc) => {
      const dim = d.terms.OnDemand.CQ3RZ8A8BQKVHSKT?.['CQ3RZ8A8BQKVHSKT.JRTCKXETXF']?.priceDimensions['CQ3RZ8A8BQKVHSKT.JRTCKXETXF.6YS6EN2CT7'];
      if (!dim) throw new Error('the fixture has no p4d.24xlarge on-demand dimension');
      return dim;
    };
    const noUsd = jsonEdit((d) => (p4dTerm(d).pricePerUnit = { EUR: '20.0000000000' }));
    await expect(run({ 'eu-west-1': [{ file: 'aws/offers-eu-west-1.json', edit: noUsd }] })).rejects.toThrow(
      /^aws: unexpected response shape at offer file http:\/\/127\.0\.0\.1:\d+\/offers\/v1\.0\/aws\/AmazonEC2\/20260910195514\/eu-west-1\/index\.json, item SKU CQ3RZ8A8BQKVHSKT term JRTCKXETXF: price dimension CQ3RZ8A8BQKVHSKT\.JRTCKXETXF\.6YS6EN2CT7 has no USD price/,
    );
    await server?.close();
    const hours = jsonEdit((d) => (p4dTerm(d).unit = 'Hours'));
    await expect(run({ 'eu-west-1': [{ file: 'aws/offers-eu-west-1.json', edit: hours }] })).rejects.toThrow(
      /eu-west-1\/index\.json, item SKU CQ3RZ8A8BQKVHSKT term JRTCKXETXF: price dimension .* unit "Hours" is not a known unit/,
    );
  });

  it('fails on a changed region index, a file that is not JSON, an offer file that keeps failing, and at the page cap', async () => {
    await expect(run({}, {}, [{ file: 'aws/region_index.json', edit: (b) => b.replace('"regions"', '"regionList"') }])).rejects.toThrow(
      /^aws: unexpected response shape at region index \(http:.*region_index\.json\): regions: /,
    );
    await server?.close();
    await expect(run({ 'us-east-1': [{ body: '<Error><Code>AccessDenied</Code></Error>' }] })).rejects.toThrow(
      /^aws: unexpected response shape at offer file .*us-east-1\/index\.json: not JSON/,
    );
    await server?.close();
    await expect(run({ 'us-east-2': [{ status: 503, body: 'SlowDown' }] })).rejects.toThrow(/us-east-2\/index\.json answered 503 \(gave up after 3 attempts\)/);
    await server?.close();
    // The index and three files are four pages.
    await expect(run({}, { PRICE_SOURCE_MAX_PAGES: '3' })).rejects.toThrow(/the region index and 3 offer files are more than 3 pages/);
  });
});

describe('aws term conversion (real c5.xlarge us-east-1 terms from a recorded Price List Query API answer)', () => {
  // The recorded GetProducts PriceList: the c5.xlarge product with its on-demand and twelve reserved terms.
  const [c5] = JSON.parse(readFileSync(`${FIXTURES}/aws/query-api-c5.xlarge-us-east-1.json`, 'utf8')) as {
    product: { sku: string };
    terms: { OnDemand: Record<string, unknown>; Reserved: Record<string, unknown> };
  }[];
  if (!c5) throw new Error('the fixture has no product');
  const place = { file: 'query-api-c5.xlarge-us-east-1.json', sku: '35AEEWH98DECPC35' };
  const reserved = (code: string) => reservedPrice(c5.terms.Reserved[`35AEEWH98DECPC35.${code}`], place, code);

  it('on-demand: the Hrs dimension', () => {
    expect(onDemandPrice(c5.terms.OnDemand['35AEEWH98DECPC35.JRTCKXETXF'], place, 'JRTCKXETXF')).toMatchObject({
      pricingModel: 'ON_DEMAND',
      pricePerHour: '0.17',
    });
  });

  it('standard No Upfront is the hourly price; All Upfront is the fee over the term hours plus the hourly price (0)', () => {
    // 4NA7Y494T4: 1yr No Upfront, 0.1070000000 USD/h. BPH4J8HBKS: 3yr No Upfront, 0.0710000000.
    expect(reserved('4NA7Y494T4')).toMatchObject({
      pricingModel: 'RESERVED_1Y',
      pricePerHour: '0.107',
      termMonths: '12',
      upfront: '0',
      purchaseOption: 'No Upfront',
    });
    expect(reserved('BPH4J8HBKS')).toMatchObject({ pricingModel: 'RESERVED_3Y', pricePerHour: '0.071', termMonths: '36', upfront: '0' });
    // 6QCMYABX3D: 1yr All Upfront, fee 876 USD, Hrs 0: 876 / 8760 h = 0.1 USD/h.
    expect(reserved('6QCMYABX3D')).toMatchObject({ pricingModel: 'RESERVED_1Y', pricePerHour: '0.1', termMonths: '12', purchaseOption: 'All Upfront' });
    // NQ3QZPMQV9: 3yr All Upfront, fee 1629 USD: 1629 / 26280 h = 0.061986301369863... -> 0.0619863014 at 10 decimals.
    const threeYear = reserved('NQ3QZPMQV9');
    expect(threeYear).toMatchObject({ pricingModel: 'RESERVED_3Y', pricePerHour: '0.0619863014', termMonths: '36' });
    expect('conversion' in threeYear && threeYear.conversion).toContain('1629 USD / 26280 h (3yr) + 0 USD/h = 0.0619863014 USD/h');
    expect(threeYear).not.toHaveProperty('upfront');
  });

  it('skips convertible and Partial Upfront reservations', () => {
    // Convertible: 7NE97W5U4E, CUZHX8X6JH, MZU6U2429S, R5XV2EPZQZ, VJWZNREJX2, Z2E3P23VKM; standard Partial Upfront: 38NPMPTW36, HU7G6KETJZ.
    for (const code of ['7NE97W5U4E', 'CUZHX8X6JH', 'MZU6U2429S', 'R5XV2EPZQZ', 'VJWZNREJX2', 'Z2E3P23VKM'])
      expect(reserved(code)).toEqual({ skip: 'convertible reservation' });
    for (const code of ['38NPMPTW36', 'HU7G6KETJZ']) expect(reserved(code)).toEqual({ skip: 'Partial Upfront reservation' });
  });

  it('fails, naming the file, SKU and term, on a reserved dimension without USD or with an unknown unit', () => {
    const term = c5.terms.Reserved['35AEEWH98DECPC35.6QCMYABX3D'] as {
      priceDimensions: Record<string, { unit: string; pricePerUnit: Record<string, string> }>;
    };
    const copy = structuredClone(term);
    const fee = copy.priceDimensions['35AEEWH98DECPC35.6QCMYABX3D.2TG2D8R56U'];
    if (!fee) throw new Error('no upfront dimension');
    fee.pricePerUnit = {};
    expect(() => reservedPrice(copy, place, '6QCMYABX3D')).toThrow(
      'aws: unexpected response shape at offer file query-api-c5.xlarge-us-east-1.json, item SKU 35AEEWH98DECPC35 term 6QCMYABX3D: price dimension 35AEEWH98DECPC35.6QCMYABX3D.2TG2D8R56U has no USD price',
    );
    fee.pricePerUnit = { USD: '876' };
    fee.unit = 'Months';
    expect(() => reservedPrice(copy, place, '6QCMYABX3D')).toThrow(/term 6QCMYABX3D: price dimension .*2TG2D8R56U: unit "Months" is not a known unit/);
  });

  it('reads reserved terms through the streamed offer file too (the c5.xlarge product in the bulk layout, taken as a GPU type here)', async () => {
    // The recorded product and its terms, nested the way a bulk file nests them (terms.<type>.<sku>.<sku.code>).
    const recorded = JSON.parse(readFileSync(`${FIXTURES}/aws/query-api-c5.xlarge-us-east-1.json`, 'utf8')) as {
      product: { sku: string };
      terms: Record<string, unknown>;
    }[];
    const bulk = {
      formatVersion: 'v1.0',
      offerCode: 'AmazonEC2',
      version: '20200618221809',
      products: Object.fromEntries(recorded.map((p) => [p.product.sku, p.product])),
      terms: {
        OnDemand: Object.fromEntries(recorded.map((p) => [p.product.sku, p.terms.OnDemand])),
        Reserved: Object.fromEntries(recorded.filter((p) => p.terms.Reserved).map((p) => [p.product.sku, p.terms.Reserved])),
      },
    };
    const body = Readable.from([JSON.stringify(bulk)]);
    const asGpu = (a: Readonly<Record<string, string>>) => (a.instanceType === 'c5.xlarge' ? { gpu: 'test-gpu', gpuCount: 1 } : { skip: 'not c5.xlarge' });
    const result = await readOfferFile(body, 'bulk.json', 'us-east-1', '2026-11-30', asGpu);
    expect(result.offers.map((o) => [o.instanceType, o.pricingModel, o.pricePerHour, o.termMonths, o.upfront])).toEqual([
      ['c5.xlarge', 'ON_DEMAND', '0.17', undefined, undefined],
      ['c5.xlarge', 'RESERVED_1Y', '0.107', '12', '0'],
      ['c5.xlarge (All Upfront)', 'RESERVED_1Y', '0.1', '12', undefined],
      ['c5.xlarge', 'RESERVED_3Y', '0.071', '36', '0'],
      ['c5.xlarge (All Upfront)', 'RESERVED_3Y', '0.0619863014', '36', undefined],
    ]);
    // The UnusedBox and Reservation (AllocatedCapacityReservation) products of the recording are not Used capacity.
    expect(result.skipped).toEqual({
      'capacitystatus UnusedCapacityReservation': 1,
      'capacitystatus AllocatedCapacityReservation': 1,
      'convertible reservation': 6,
      'Partial Upfront reservation': 2,
    });
  });
});
