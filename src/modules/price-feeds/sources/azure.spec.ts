// The azure source against a local server playing recorded Retail Prices API pages
// (test/fixtures/price-sources/azure, README there says where each item comes from).
import { azurePage, startFeedServer, type FeedServer, type Route } from '../../../../test/setup/feed-server.js';
import { HttpClient } from '../http-client.js';
import type { SourceResult, SyncOfferRow } from '../price-source.js';
import { azureSource } from './azure.js';

const NOW = new Date('2026-11-30T18:00:00Z');
const FIRST = '/api/retail/prices?api-version=2023-01-01-preview';

describe('azure price source (recorded Retail Prices API pages)', () => {
  let server: FeedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const run = async (routes: Route[], env: NodeJS.ProcessEnv = {}): Promise<SourceResult> => {
    server = await startFeedServer(routes);
    return azureSource.fetch({ url: `${server.base}${FIRST}`, now: NOW, http: new HttpClient({ retries: 2, backoffMs: 10 }), env });
  };
  const pages = (overrides: Partial<Record<'1' | '2' | '3', Route['replies']>> = {}): Route[] => [
    { match: azurePage(null), replies: overrides['1'] ?? [{ file: 'azure/page1.json' }] },
    { match: azurePage('1000'), replies: overrides['2'] ?? [{ file: 'azure/page2.json' }] },
    { match: azurePage('2000'), replies: overrides['3'] ?? [{ file: 'azure/page3.json' }] },
  ];
  const byKey = (offers: SyncOfferRow[]) => Object.fromEntries(offers.map((o) => [`${o.region} ${o.instanceType} ${o.pricingModel}`, o]));

  it('follows NextPageLink through a 429 with Retry-After and a 500, and reads every Linux GPU offer', async () => {
    const started = Date.now();
    const result = await run(
      pages({
        '2': [{ status: 429, headers: { 'retry-after': '1' }, body: '{"error":"too many requests"}' }, { file: 'azure/page2.json' }],
        '3': [{ status: 500, body: 'upstream error' }, { file: 'azure/page3.json' }],
      }),
    );
    // Retry-After: 1 was honoured (the backoff alone is 10 ms).
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(server?.requests).toHaveLength(5);
    expect(result.pages).toBe(3);
    expect(result.rowsRead).toBe(9 + 7 + 3);
    // Skipped, counted from the fixture by hand: T4 and ND H100 Windows, T4 and ND H100 Low Priority,
    // NV6ads (1/6 GPU), the F16s DevTest item, the E64 v4 reservation (no GPU).
    expect(result.skipped).toEqual({ Windows: 2, 'Low Priority': 2, 'a fraction of a GPU': 1, 'DevTest meter': 1, 'not a GPU size': 1 });
    const offers = byKey(result.offers);
    expect(Object.keys(offers).sort()).toEqual(
      [
        'azure:eastus Standard_ND96isr_H100_v5 RESERVED_1Y',
        'azure:eastus Standard_ND96isr_H100_v5 RESERVED_3Y',
        'azure:francecentral Standard_NC24ads_A100_v4 ON_DEMAND',
        'azure:francecentral Standard_NC24ads_A100_v4 SPOT',
        'azure:francecentral Standard_NC4as_T4_v3 ON_DEMAND',
        'azure:francecentral Standard_NC4as_T4_v3 SPOT',
        'azure:francecentral Standard_NV36ads_A10_v5 ON_DEMAND',
        'azure:francecentral Standard_NV36ads_A10_v5 SPOT',
        'azure:westeurope Standard_NC40ads_H100_v5 ON_DEMAND',
        'azure:westeurope Standard_NC40ads_H100_v5 SPOT',
        'azure:westeurope Standard_ND96isr_H100_v5 ON_DEMAND',
        'azure:westeurope Standard_ND96isr_H100_v5 SPOT',
      ].sort(),
    );
    // The Linux on-demand and spot prices as the pages write them.
    expect(offers['azure:francecentral Standard_NC4as_T4_v3 ON_DEMAND']).toMatchObject({ pricePerHour: '0.615', gpu: 't4-16gb', gpuCount: '1' });
    expect(offers['azure:francecentral Standard_NC4as_T4_v3 SPOT']).toMatchObject({ pricePerHour: '0.17835', interruptionNoticeSeconds: '30' });
    expect(offers['azure:westeurope Standard_ND96isr_H100_v5 ON_DEMAND']).toMatchObject({ pricePerHour: '127.816', gpu: 'h100-sxm-80gb', gpuCount: '8' });
    expect(offers['azure:westeurope Standard_ND96isr_H100_v5 SPOT']?.pricePerHour).toBe('23.620397');
    // Reservation prices are term totals: 551221 / 8760 h = 62.92477168949..., 1134310 / 26280 h = 43.16248097412... (bc, scale 12).
    expect(offers['azure:eastus Standard_ND96isr_H100_v5 RESERVED_1Y']).toMatchObject({ pricePerHour: '62.9247716895', termMonths: '12' });
    expect(offers['azure:eastus Standard_ND96isr_H100_v5 RESERVED_3Y']).toMatchObject({ pricePerHour: '43.1624809741', termMonths: '36' });
    expect(offers['azure:eastus Standard_ND96isr_H100_v5 RESERVED_1Y']?.conversion).toContain('551221 USD / 8760 h');
    // Each row names the exact page it was read from and the day of the fetch.
    expect(offers['azure:eastus Standard_ND96isr_H100_v5 RESERVED_1Y']?.source).toBe(
      `${server?.base}/api/retail/prices?api-version=2023-01-01-preview&$skip=2000`,
    );
    expect(offers['azure:francecentral Standard_NC4as_T4_v3 ON_DEMAND']?.source).toBe(`${server?.base}${FIRST}`);
    expect(result.offers.every((o) => o.observedAt === '2026-11-30' && o.priceKind === 'LIST' && o.currency === 'USD')).toBe(true);
  });

  it('names the source, the page and the item when an item lacks a field', async () => {
    const noPrice = (body: string) => body.replace('"retailPrice": 5.23008,', '');
    await expect(run(pages({ '2': [{ file: 'azure/page2.json', edit: noPrice }] }))).rejects.toThrow(
      /^azure: unexpected response shape at page 2 \(http:.*\$skip=1000\), item #1 \(meterId 96aa5ece-0b52-5f0f-9e7d-ef4d71bbb4ef\): retailPrice: /,
    );
  });

  it('fails on a changed page shape (no Items) and on a unit it does not know', async () => {
    await expect(run(pages({ '3': [{ file: 'azure/page3.json', edit: (b) => b.replace('"Items"', '"items"') }] }))).rejects.toThrow(
      /azure: unexpected response shape at page 3 .*Items: /,
    );
    await server?.close();
    await expect(run(pages({ '1': [{ file: 'azure/page1.json', edit: (b) => b.replace('"1 Hour"', '"1/Month"') }] }))).rejects.toThrow(
      /page 1 .*item #0 .*unitOfMeasure "1\/Month" is not a known unit/,
    );
  });

  it('gives up after its retries on a page that keeps failing, and at the page cap', async () => {
    await expect(run(pages({ '2': [{ status: 503, body: 'down' }] }))).rejects.toThrow(/answered 503 \(gave up after 3 attempts\)/);
    await server?.close();
    await expect(run(pages(), { PRICE_SOURCE_MAX_PAGES: '2' })).rejects.toThrow(/more than 2 pages/);
  });
});
