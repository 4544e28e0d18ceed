// The lambda source (SkyPilot catalog CSV) against a local server playing real rows of
// skypilot-org/skypilot-catalog catalogs/v9/lambda/vms.csv (test/fixtures/price-sources/README.md).
import { startFeedServer, type FeedServer, type Reply } from '../../../../../test/setup/feed-server.js';
import { HttpClient } from '../http-client.js';
import { lambdaSource } from './skypilot.js';

describe('lambda source (SkyPilot catalog CSV)', () => {
  let server: FeedServer | undefined;
  afterEach(async () => server?.close());
  const run = async (replies: Reply[]) => {
    server = await startFeedServer([{ match: (u) => u.pathname === '/catalogs/v9/lambda/vms.csv', replies }]);
    const url = `${server.base}/catalogs/v9/lambda/vms.csv`;
    return {
      url,
      result: await lambdaSource.fetch({ url, now: new Date('2026-11-30T06:00:00Z'), http: new HttpClient({ retries: 2, backoffMs: 10 }), env: {} }),
    };
  };

  it('reads the GPU rows with their instance price, after a 429 with Retry-After, and skips CPU and unmapped GPUs', async () => {
    const { url, result } = await run([{ status: 429, headers: { 'retry-after': '0' } }, { file: 'lambda/vms.csv' }]);
    expect(result.rowsRead).toBe(8);
    expect(result.skipped).toEqual({ 'no GPU': 1, 'GPU without a catalog mapping': 1 });
    expect(result.offers.map((o) => [o.region, o.instanceType, o.gpu, o.gpuCount, o.pricePerHour])).toEqual([
      ['lambda:us-west-2', 'gpu_1x_a10', 'a10-24gb', '1', '1.29'],
      ['lambda:europe-central-1', 'gpu_8x_a100_80gb_sxm4', 'a100-sxm-80gb', '8', '22.32'],
      ['lambda:us-east-1', 'gpu_8x_a100_80gb_sxm4', 'a100-sxm-80gb', '8', '22.32'],
      ['lambda:us-east-1', 'gpu_1x_h100_pcie', 'h100-pcie-80gb', '1', '3.29'],
      ['lambda:us-east-1', 'gpu_1x_h100_sxm5', 'h100-sxm-80gb', '1', '4.29'],
      ['lambda:us-east-1', 'gpu_2x_h100_sxm5', 'h100-sxm-80gb', '2', '8.38'],
    ]);
    expect(result.offers.every((o) => o.source === url && o.observedAt === '2026-11-30' && o.pricingModel === 'ON_DEMAND')).toBe(true);
  });

  it('names the line of a malformed row, and fails on a changed header', async () => {
    await expect(run([{ file: 'lambda/vms.csv', edit: (b) => b.replace(',8.38,', ',n/a,') }])).rejects.toThrow(
      /^lambda: unexpected response shape at page 1 .*, item line 9 \(gpu_2x_h100_sxm5 us-east-1\): Price "n\/a" is not a decimal number/,
    );
    await server?.close();
    await expect(run([{ file: 'lambda/vms.csv', edit: (b) => b.replace('Price,Region', 'PriceUSD,Region') }])).rejects.toThrow(/columns missing: Price/);
  });
});
