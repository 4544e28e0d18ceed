// The lambda source (SkyPilot catalog CSV) against a local server playing real rows of
// skypilot-org/skypilot-catalog catalogs/v9/lambda/vms.csv (test/fixtures/price-sources/README.md).
import { startFeedServer, type FeedServer, type Reply } from '../../../../test/setup/feed-server.js';
import { HttpClient } from '../http-client.js';
import { lambdaSource, nebiusSource } from './skypilot.js';

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

// The nebius source: real rows of skypilot-org/skypilot-catalog catalogs/v9/nebius/vms.csv
// (test/fixtures/price-sources/README.md), with the SpotPrice column read as SPOT offers.
describe('nebius source (SkyPilot catalog CSV, on-demand and spot)', () => {
  let server: FeedServer | undefined;
  afterEach(async () => server?.close());
  const run = async (replies: Reply[]) => {
    server = await startFeedServer([{ match: (u) => u.pathname === '/catalogs/v9/nebius/vms.csv', replies }]);
    const url = `${server.base}/catalogs/v9/nebius/vms.csv`;
    return nebiusSource.fetch({ url, now: new Date('2026-11-30T06:00:00Z'), http: new HttpClient({ retries: 2, backoffMs: 10 }), env: {} });
  };

  it('declares that it replaces only on-demand and spot offers (lambda: on-demand only)', () => {
    expect(nebiusSource.pricingModels).toEqual(['ON_DEMAND', 'SPOT']);
    expect(lambdaSource.pricingModels).toEqual(['ON_DEMAND']);
  });

  it('reads Price as ON_DEMAND and a non-empty SpotPrice as SPOT, per instance-hour, after a 500', async () => {
    const result = await run([{ status: 500 }, { file: 'nebius/vms.csv' }]);
    expect(result.rowsRead).toBe(8);
    expect(result.skipped).toEqual({ 'no GPU': 1 });
    // By hand from the fixture: 7 GPU rows give 7 on-demand offers; the 5 with a SpotPrice (not the two L40S) a spot offer too.
    expect(result.offers.map((o) => [o.region, o.instanceType, o.gpu, o.gpuCount, o.pricingModel, o.pricePerHour])).toEqual([
      ['nebius:eu-north1', 'gpu-h100-sxm_1gpu-16vcpu-200gb', 'h100-sxm-80gb', '1', 'ON_DEMAND', '2.95'],
      ['nebius:eu-north1', 'gpu-h100-sxm_1gpu-16vcpu-200gb', 'h100-sxm-80gb', '1', 'SPOT', '1.25'],
      ['nebius:eu-north1', 'gpu-h100-sxm_8gpu-128vcpu-1600gb', 'h100-sxm-80gb', '8', 'ON_DEMAND', '23.6'],
      ['nebius:eu-north1', 'gpu-h100-sxm_8gpu-128vcpu-1600gb', 'h100-sxm-80gb', '8', 'SPOT', '10'],
      ['nebius:eu-north1', 'gpu-h200-sxm_1gpu-16vcpu-200gb', 'h200-141gb', '1', 'ON_DEMAND', '3.5'],
      ['nebius:eu-north1', 'gpu-h200-sxm_1gpu-16vcpu-200gb', 'h200-141gb', '1', 'SPOT', '1.45'],
      ['nebius:eu-north1', 'gpu-l40s-a_1gpu-8vcpu-32gb', 'l40s-48gb', '1', 'ON_DEMAND', '1.5484'],
      ['nebius:eu-north1', 'gpu-l40s-d_2gpu-64vcpu-384gb', 'l40s-48gb', '2', 'ON_DEMAND', '4.5688'],
      ['nebius:eu-west1', 'gpu-h200-sxm_8gpu-128vcpu-1600gb', 'h200-141gb', '8', 'ON_DEMAND', '28'],
      ['nebius:eu-west1', 'gpu-h200-sxm_8gpu-128vcpu-1600gb', 'h200-141gb', '8', 'SPOT', '11.6'],
      ['nebius:me-west1', 'gpu-b200-sxm-a_8gpu-160vcpu-1792gb', 'b200-180gb', '8', 'ON_DEMAND', '44'],
      ['nebius:me-west1', 'gpu-b200-sxm-a_8gpu-160vcpu-1792gb', 'b200-180gb', '8', 'SPOT', '23.2'],
    ]);
    expect(result.offers.every((o) => o.currency === 'USD' && o.priceKind === 'LIST' && o.observedAt === '2026-11-30')).toBe(true);
  });

  it('names the line of a malformed SpotPrice, and fails when the SpotPrice column is gone', async () => {
    await expect(
      run([{ file: 'nebius/vms.csv', edit: (b) => b.replace("}], 'TotalGpuMemoryInMiB': 0}\",1.45", "}], 'TotalGpuMemoryInMiB': 0}\",cheap") }]),
    ).rejects.toThrow(
      /^nebius: unexpected response shape at page 1 .*, item line 5 \(gpu-h200-sxm_1gpu-16vcpu-200gb eu-north1\): SpotPrice "cheap" is not a decimal number/,
    );
    await server?.close();
    await expect(run([{ file: 'nebius/vms.csv', edit: (b) => b.replace('GpuInfo,SpotPrice', 'GpuInfo,Preemptible') }])).rejects.toThrow(
      /columns missing: SpotPrice/,
    );
  });
});
