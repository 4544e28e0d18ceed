// The aws-spot source against a local server playing real rows of SkyPilot's AWS CSV and a trimmed
// real spot-advisor-data.json (test/fixtures/price-sources/README.md).
import { startFeedServer, type FeedServer, type Reply } from '../../../../test/setup/feed-server.js';
import { HttpClient } from '../http-client.js';
import { awsSpotSource } from './aws-spot.js';

describe('aws-spot source (spot prices and Spot Instance Advisor bands)', () => {
  let server: FeedServer | undefined;
  afterEach(async () => server?.close());
  const run = async (csv: Reply[], advisor: Reply[] = [{ file: 'aws/spot-advisor-data.json' }]) => {
    server = await startFeedServer([
      { match: (u) => u.pathname === '/aws/vms.csv', replies: csv },
      { match: (u) => u.pathname === '/spot-advisor-data.json', replies: advisor },
    ]);
    const url = `${server.base}/aws/vms.csv`;
    const env = { PRICE_SOURCE_AWS_SPOT_ADVISOR_URL: `${server.base}/spot-advisor-data.json` };
    return awsSpotSource.fetch({ url, now: new Date('2026-11-30T06:00:00Z'), http: new HttpClient({ retries: 2, backoffMs: 10 }), env });
  };

  it('takes the lowest regular-AZ spot price per type and region, and the advisor band of that type there', async () => {
    const result = await run([{ file: 'aws/vms.csv' }], [{ status: 503 }, { file: 'aws/spot-advisor-data.json' }]);
    expect(result.rowsRead).toBe(11);
    expect(result.skipped).toEqual({ 'not a GPU family the source reads': 1, 'Local or Wavelength Zone': 1, 'no spot price in that AZ': 3 });
    // By hand from the fixture: eu-north-1 p5.48xlarge has one priced AZ (eun1-az3 32.012), advisor r=0 -> "<5%";
    // us-east-1 p5.48xlarge min(55.04, 19.197, 18.766) = 18.766 (use1-atl2-az1 10.1808 is a Local Zone), r=4 -> ">20%";
    // eu-north-1 p5en.48xlarge min(15.2312, 11.8348) = 11.8348, and the advisor has no p5en in eu-north-1.
    expect(result.offers.map((o) => [o.region, o.instanceType, o.gpu, o.gpuCount, o.pricingModel, o.pricePerHour, o.interruptionRate])).toEqual([
      ['aws:eu-north-1', 'p5.48xlarge', 'h100-sxm-80gb', '8', 'SPOT', '32.012', '<5%'],
      ['aws:us-east-1', 'p5.48xlarge', 'h100-sxm-80gb', '8', 'SPOT', '18.766', '>20%'],
      ['aws:eu-north-1', 'p5en.48xlarge', 'h200-141gb', '8', 'SPOT', '11.8348', undefined],
    ]);
    expect(result.offers.every((o) => o.interruptionNoticeSeconds === '120' && o.currency === 'USD' && o.observedAt === '2026-11-30')).toBe(true);
    expect(result.offers[1]?.sourceTitle).toContain('per AZ: use1-az1=55.040000, use1-az2=19.197000, use1-az3=18.766000');
    expect(awsSpotSource.pricingModels).toEqual(['SPOT']);
  });

  it('fails on an advisor band it does not know, an index without a range, or a malformed spot price', async () => {
    await expect(run([{ file: 'aws/vms.csv' }], [{ file: 'aws/spot-advisor-data.json', edit: (b) => b.replace('"5-10%"', '"5-12%"') }])).rejects.toThrow(
      /^aws-spot: unexpected response shape at advisor .*, item ranges\[1\]: label "5-12%" is not one of <5%, 5-10%/,
    );
    await server?.close();
    await expect(run([{ file: 'aws/vms.csv' }], [{ file: 'aws/spot-advisor-data.json', edit: (b) => b.replace('"r": 4', '"r": 7') }])).rejects.toThrow(
      /item us-east-1 Linux p5.48xlarge: r 7 is not the index of a range/,
    );
    await server?.close();
    await expect(run([{ file: 'aws/vms.csv', edit: (b) => b.replace(',18.766000,', ',n/a,') }])).rejects.toThrow(
      /item line 9 \(p5.48xlarge use1-az3\): SpotPrice "n\/a" is not a decimal number/,
    );
  });
});
