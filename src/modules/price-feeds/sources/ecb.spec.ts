// The ecb source against a local server playing a recorded ECB daily file (test/fixtures/price-sources/ecb).
import { startFeedServer, type FeedServer, type Reply } from '../../../../test/setup/feed-server.js';
import { HttpClient } from '../http-client.js';
import { ecbSource } from './ecb.js';

describe('ecb source (recorded eurofxref-daily.xml)', () => {
  let server: FeedServer | undefined;
  afterEach(async () => server?.close());
  const run = async (replies: Reply[]) => {
    server = await startFeedServer([{ match: (u) => u.pathname === '/stats/eurofxref/eurofxref-daily.xml', replies }]);
    return ecbSource.fetch({
      url: `${server.base}/stats/eurofxref/eurofxref-daily.xml`,
      now: new Date(),
      http: new HttpClient({ retries: 1, backoffMs: 10 }),
      env: {},
    });
  };

  it('reads the USD rate with its date and inverts it for the USD-based catalog FX', async () => {
    const result = await run([{ status: 500 }, { file: 'ecb/eurofxref-daily.xml' }]);
    // 1 EUR = 1.1289 USD on 2019-06-13, so 1 USD = 1 / 1.1289 = 0.885818052... EUR (bc), 6 decimals.
    expect(result.fx).toMatchObject({ base: 'USD', rates: { EUR: '0.885818' }, date: '2019-06-13' });
    expect(result.fx?.source).toContain('1 EUR = 1.1289 USD');
    expect(result.offers).toEqual([]);
  });

  it('fails clearly when the answer is not the ECB envelope', async () => {
    await expect(run([{ body: '<html><body>maintenance</body></html>' }])).rejects.toThrow(
      /ecb: unexpected response shape at page 1 .*no Envelope > Cube > Cube/,
    );
    await server?.close();
    await expect(
      run([{ file: 'ecb/eurofxref-daily.xml', edit: (b) => b.replace("currency='USD' rate='1.1289'", "currency='USD' rate='n/a'") }]),
    ).rejects.toThrow(/item Cube time=2019-06-13: no positive USD rate/);
  });
});
