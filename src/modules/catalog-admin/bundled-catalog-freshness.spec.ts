// The freshness rule (docs/price-sources.md#freshness-rule) over the bundled catalog: a row in a
// GPU's overall or EEA top five on demand read more than 180 days before the label, or an FX rate
// more than 30 days older than it, fails here with the row named.
import { assembleCatalog, parseCatalogFiles } from '../../domain/catalog/catalog-files.js';
import type { CatalogContent } from '../../domain/catalog/catalog.types.js';
import { defined } from '../../domain/checked.js';
import { topOfferFreshnessBreaches } from '../../domain/compliance/top-offer-freshness.js';
import { readCatalogFiles } from './catalog-import.service.js';

async function bundled(): Promise<{ content: CatalogContent; label: string }> {
  const parsed = parseCatalogFiles(await readCatalogFiles(['data/catalog']));
  const { content } = assembleCatalog({ parsed, inherited: null, scope: { mode: 'FULL' } });
  return { content: defined(content, 'bundled catalog'), label: defined(parsed.meta, 'catalog.yaml').label };
}

describe(topOfferFreshnessBreaches.name, () => {
  it('finds no stale row among any GPU’s first five on-demand offers, overall or in the EEA, and no stale FX rate but one known one, in the bundled catalog', async () => {
    // The one known breach: the newest ECB rate that can be read at a pinned revision here is that of
    // 2026-10-09 (data/catalog/SOURCES.md); answers in EUR warn about its age. Pinned to the date,
    // so a newer rate, an older one or any other breach fails this test.
    expect(topOfferFreshnessBreaches(await bundled())).toEqual(['FX rate USD/EUR of 2026-10-09: 54 days before the label 2026-12-02 (limit 30)']);
  });

  it('names top-five rows dated 181 days before the label, overall and in the EEA, and not ones dated 180 days before it', async () => {
    const { content, label } = await bundled();
    expect(label).toBe('2026-12-02');
    // H100 SXM on demand, USD per GPU-hour, CONFIRMED first: overall, Hyperstack H100-80G-SXM5 in
    // CANADA-1 at 3.2 (hyperstack.yaml) is #1 and Nebius in eu-north1 at 4.5 (nebius.yaml) #2; then
    // AWS US offers at 6.88 (p5.4xlarge 6.88 / 1, p5.48xlarge 55.04 / 8) tie, ordered by region then
    // GPU count: us-east-1 x1 (#3), us-east-1 x8, us-east-2 x1 (#5), us-east-2 x8, us-west-2 x1 (#7,
    // outside the top five). In the EEA: Nebius eu-north1 4.5 (#1), then p5.48xlarge in eu-north-1,
    // 58.8928 / 8 = 7.3616 (#2). 181 days before 2026-12-02: the 2nd to the 2nd of each month back
    // to 2026-06-02 is 30+31+30+31+31+30 = 183 days, so 2026-06-04.
    const rows = [
      ['aws:us-east-1', 'p5.4xlarge'],
      ['aws:us-east-2', 'p5.4xlarge'],
      ['aws:us-west-2', 'p5.4xlarge'],
      ['aws:eu-north-1', 'p5.48xlarge'],
    ];
    const redated = (observedAt: string): CatalogContent => ({
      ...content,
      offers: content.offers.map((o) =>
        o.gpuSlug === 'h100-sxm-80gb' && o.pricingModel === 'ON_DEMAND' && rows.some(([r, t]) => o.regionCode === r && o.instanceType === t)
          ? { ...o, observedAt }
          : o,
      ),
    });
    const before = new Set(topOfferFreshnessBreaches({ content, label }));
    const added = (observedAt: string) => topOfferFreshnessBreaches({ content: redated(observedAt), label }).filter((b) => !before.has(b));
    const line = (row: string, rank: string) =>
      `aws ${row} ON_DEMAND observed 2026-06-04, 181 days before the label 2026-12-02 (limit 180): in the top 5 of h100-sxm-80gb ${rank}`;
    expect(added('2026-06-04')).toEqual([
      line('p5.48xlarge aws:eu-north-1', 'EEA #2'),
      line('p5.4xlarge aws:us-east-1', 'overall #3'),
      line('p5.4xlarge aws:us-east-2', 'overall #5'),
    ]);
    expect(added('2026-06-05')).toEqual([]);
  });

  it('names an FX rate 31 days older than the label, and not one 30 days older', async () => {
    const { content, label } = await bundled();
    // 2026-12-02 minus 30 days is 2026-11-02 (November has 30 days); minus 31, 2026-11-01.
    const withFxDate = (date: string) => topOfferFreshnessBreaches({ content: { ...content, fxRates: { ...content.fxRates, date } }, label });
    expect(withFxDate('2026-11-01').filter((b) => b.startsWith('FX'))).toEqual([
      'FX rate USD/EUR of 2026-11-01: 31 days before the label 2026-12-02 (limit 30)',
    ]);
    expect(withFxDate('2026-11-02').filter((b) => b.startsWith('FX'))).toEqual([]);
  });
});
