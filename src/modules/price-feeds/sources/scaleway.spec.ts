// The scaleway source against a local server playing a real answer of Scaleway's product catalog
// (recorded by scaleway/scaleway-cli, fr-par-1; test/fixtures/price-sources/README.md), split in two pages.
import { startFeedServer, type FeedServer, type Reply } from '../../../../test/setup/feed-server.js';
import { HttpClient } from '../http-client.js';
import { scalewaySource } from './scaleway.js';

describe('scaleway source (product catalog)', () => {
  let server: FeedServer | undefined;
  afterEach(async () => server?.close());
  const run = async (page1: Reply[], page2: Reply[] = [{ file: 'scaleway/products-page2.json' }]) => {
    const path = '/product-catalog/v2alpha1/public-catalog/products';
    server = await startFeedServer([
      { match: (u) => u.pathname === path && u.searchParams.get('page') === '1', replies: page1 },
      { match: (u) => u.pathname === path && u.searchParams.get('page') === '2', replies: page2 },
    ]);
    const url = `${server.base}${path}?product_types=instance`;
    return scalewaySource.fetch({ url, now: new Date('2026-11-30T06:00:00Z'), http: new HttpClient({ retries: 1, backoffMs: 10 }), env: {} });
  };

  it('reads every page, turns per-minute prices into hourly ones, and skips CPU types and GPUs the catalog lacks', async () => {
    const result = await run(
      [{ file: 'scaleway/products-page1.json' }],
      [{ status: 429, headers: { 'retry-after': '0' } }, { file: 'scaleway/products-page2.json' }],
    );
    expect(result.pages).toBe(2);
    expect(result.rowsRead).toBe(6);
    expect(result.skipped).toEqual({ 'no GPU': 1, 'GPU without a catalog mapping': 1 });
    // By hand: EUR per minute x 60 (0.105 x 60 = 6.3, ...). The same recording's /instance/v1/.../products/servers
    // gives these types hourly_price 6.3, 3.15, 1.575 and 0.7875.
    expect(result.offers.map((o) => [o.region, o.instanceType, o.gpu, o.gpuCount, o.pricePerHour, o.currency])).toEqual([
      ['scaleway:fr-par-1', 'L4-8-24G', 'l4-24gb', '8', '6.3', 'EUR'],
      ['scaleway:fr-par-1', 'L4-4-24G', 'l4-24gb', '4', '3.15', 'EUR'],
      ['scaleway:fr-par-1', 'L4-2-24G', 'l4-24gb', '2', '1.575', 'EUR'],
      ['scaleway:fr-par-1', 'L4-1-24G', 'l4-24gb', '1', '0.7875', 'EUR'],
    ]);
    const last = result.offers[3];
    expect(last?.conversion).toBe('0.013125 EUR per minute x 60 / 1 = 0.7875 EUR per hour');
    expect(last?.source).toMatch(/\/public-catalog\/products\?product_types=instance&page=2$/);
    expect(result.offers.every((o) => o.pricingModel === 'ON_DEMAND' && o.priceKind === 'LIST' && o.observedAt === '2026-11-30')).toBe(true);
    expect(scalewaySource.pricingModels).toEqual(['ON_DEMAND']);
  });

  it('fails on an unknown unit, a missing price, or a page that ends the products before total_count', async () => {
    const minute = (b: string) => b.replace('"unit": "minute"', '"unit": "day"');
    await expect(run([{ file: 'scaleway/products-page1.json', edit: minute }])).rejects.toThrow(
      /^scaleway: unexpected response shape at page 1 .*, item products\[1\] \(L4-8-24G\): unit_of_measure.unit "day" is not one the source knows/,
    );
    await server?.close();
    await expect(run([{ file: 'scaleway/products-page1.json', edit: (b) => b.replace('"retail_price"', '"list_price"') }])).rejects.toThrow(
      /item products\[0\] \(BASIC3-X2C-4G\): price.retail_price: /,
    );
    await server?.close();
    await expect(run([{ file: 'scaleway/products-page1.json' }], [{ body: '{"products": [], "total_count": 6}' }])).rejects.toThrow(
      /at page 2 .*: no products on this page, but only 3 of total_count 6 read/,
    );
  });

  it('imports nothing when a page keeps failing with 500', async () => {
    await expect(run([{ file: 'scaleway/products-page1.json' }], [{ status: 500 }])).rejects.toThrow(/500/);
  });
});
