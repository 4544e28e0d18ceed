// The gcp source against a local server playing a recorded Cloud Billing Catalog API response
// (test/fixtures/price-sources/gcp; README there says where it comes from).
import { startFeedServer, type FeedServer, type Route } from '../../../../test/setup/feed-server.js';
import { HttpClient } from '../http-client.js';
import type { SourceResult } from '../price-source.js';
import { gcpSource } from './gcp.js';

const TOKEN = 'APKCS1HVa0YpwgyTFbqbJ1eGwzKZmsPwLqzMZPTSNia5ck1Hc54Tx_Kz3oBxwSnRIdGVxXoSPdf-XlDpyNBf4QuxKcIEgtrQ1LDLWAgZowI0ns7HjrGta2s=';
const page = (token: string | null) => (u: URL) => u.pathname === '/v1/services/6F81-5844-456A/skus' && u.searchParams.get('pageToken') === token;

describe('gcp source (recorded Cloud Billing Catalog pages)', () => {
  let server: FeedServer | undefined;
  afterEach(async () => server?.close());
  const run = async (p1: Route['replies'], p2: Route['replies']): Promise<SourceResult> => {
    server = await startFeedServer([
      { match: page(null), replies: p1 },
      { match: page(TOKEN), replies: p2 },
    ]);
    return gcpSource.fetch({
      url: `${server.base}/v1/services/6F81-5844-456A/skus?pageSize=5000`,
      now: new Date('2026-11-30T06:00:00Z'),
      http: new HttpClient({ retries: 2, backoffMs: 10 }),
      env: { GCP_API_KEY: 'test-key' },
    });
  };

  it('sums vCPU, memory and GPU parts into machine prices across pages, through a 500 and a 429', async () => {
    const result = await run(
      [{ status: 500 }, { file: 'gcp/skus-page1.json' }],
      [{ status: 429, headers: { 'retry-after': '0' } }, { file: 'gcp/skus-page2.json' }],
    );
    expect(result.pages).toBe(2);
    expect(result.rowsRead).toBe(3);
    // The key is sent, but no row names it.
    expect(server?.requests.every((r) => r.includes('key=test-key'))).toBe(true);
    expect(result.offers.every((o) => !o.source.includes('key=') && o.source.startsWith(server?.base ?? '?'))).toBe(true);
    // 3 regions (us-central1, us-east1, us-west1) x 5 A2 machine types; no Spot or commitment SKU in the recording.
    expect(result.offers).toHaveLength(15);
    const price = (machine: string, region: string) => result.offers.find((o) => o.instanceType === machine && o.region === region)?.pricePerHour;
    // a2-highgpu-1g: 12 x 0.031611 + 85 x 0.004237 + 1 x 2.933908 = 0.379332 + 0.360145 + 2.933908 = 3.673385 USD/h (by hand;
    // Google's published on-demand price of a2-highgpu-1g in us-central1 at the time).
    expect(price('a2-highgpu-1g', 'gcp:us-central1')).toBe('3.673385');
    // a2-highgpu-8g: 96 x 0.031611 + 680 x 0.004237 + 8 x 2.933908 = 3.034656 + 2.88116 + 23.471264 = 29.38708.
    expect(price('a2-highgpu-8g', 'gcp:us-west1')).toBe('29.38708');
    expect(result.offers.find((o) => o.instanceType === 'a2-highgpu-8g')).toMatchObject({ gpu: 'a100-sxm-40gb', gpuCount: '8', pricingModel: 'ON_DEMAND' });
  });

  it('names the page and the SKU of a part in a unit it does not know', async () => {
    await expect(run([{ file: 'gcp/skus-page1.json' }], [{ file: 'gcp/skus-page2.json', edit: (b) => b.replace('"GiBy.h"', '"GBy.h"') }])).rejects.toThrow(
      /^gcp: unexpected response shape at page 2 .*, item #0 \(skuId 2390-DCAF-DA38\): usageUnit "GBy.h" is not a known unit for ram/,
    );
  });
});
