// PriceHistoryService over the in-memory repository: prices across published versions (drafts
// left out), converted with each version's own FX rate, and the cheapest per provider.
import { makeCatalog, makeGpu, makeOffer } from '../../domain/compliance/testing/factories.js';
import { sampleCatalog } from '../../domain/compliance/testing/sample-catalog.js';
import type { Offer } from '../../domain/catalog/catalog.types.js';
import { Decimal } from '../../domain/money/money.js';
import { PriceHistoryService } from './price-history.service.js';
import { catalogTestingModule } from './testing/catalog-testing-module.js';
import { InMemoryCatalogRepository } from './testing/in-memory-catalog.repository.js';
import { defined } from '../../domain/checked.js';

const price = (o: Offer, pricePerHour: string): Offer => ({ ...o, pricePerHour: new Decimal(pricePerHour) });
const boxA = makeOffer({ instanceType: 'box-a', pricePerHour: new Decimal('4.00') });
const boxB = makeOffer({ instanceType: 'box-b', gpuCount: 8, pricePerHour: new Decimal('24.00') });
const spot = makeOffer({ instanceType: 'box-b', gpuCount: 8, pricingModel: 'SPOT', pricePerHour: new Decimal('12.00') });
const lambda = makeOffer({ providerSlug: 'lambda', regionCode: 'lambda:us-tx-1', instanceType: 'gpu_1x', pricePerHour: new Decimal('2.49') });
const ovh = makeOffer({ providerSlug: 'ovh', regionCode: 'ovh:gra', instanceType: 'h100-380', pricePerHour: new Decimal('2.80'), currency: 'EUR' });

/** v1 published (EUR 0.8650), v2 a draft never published, v3 published (EUR 0.9000). */
async function setUp() {
  const repo = new InMemoryCatalogRepository();
  const fx = (eur: string) => ({ base: 'USD' as const, rates: { EUR: eur }, date: '2026-01-01', source: 'test' });
  const v1 = repo.addVersion({ content: makeCatalog({ offers: [boxA, boxB, spot, lambda], fxRates: fx('0.8650') }) });
  repo.addVersion({ content: makeCatalog({ offers: [price(boxA, '5.00'), boxB, spot, lambda], fxRates: fx('0.8650') }) });
  // v3 also knows an L4 that no version offers.
  const { providers, regions } = sampleCatalog();
  const gpus = [makeGpu(), makeGpu({ slug: 'l4-24gb', name: 'L4' })];
  const v3 = repo.addVersion({
    content: makeCatalog({ providers, regions, gpus, offers: [price(boxA, '3.60'), price(boxB, '32.00'), spot, ovh], fxRates: fx('0.9000') }),
  });
  repo.publishAt(v1.id, new Date('2026-01-01T00:00:00Z'));
  repo.publishAt(v3.id, new Date('2026-03-01T00:00:00Z'));
  const moduleRef = await catalogTestingModule({ repository: repo }).compile();
  return moduleRef.get(PriceHistoryService);
}

describe(PriceHistoryService.name, () => {
  it('gives an offer’s price in every published version, converted with that version’s rate', async () => {
    const history = await setUp();
    const points = await history.offerHistory(boxA.keyHash, 'EUR');
    // v1: 4.00 USD × 0.8650 = 3.46 EUR; v3: 3.60 USD × 0.9000 = 3.24 EUR; the draft's 5.00 is never shown.
    expect(points.map((p) => [p.version.label, p.pricePerGpuHour.toFixed(4)])).toEqual([
      ['v1', '3.4600'],
      ['v3', '3.2400'],
    ]);
  });

  it('answers 404 CATALOG.OFFER_NOT_FOUND for an offer no version has', async () => {
    const history = await setUp();
    await expect(history.offerHistory('no-such-offer', 'USD')).rejects.toMatchObject({ code: 'CATALOG.OFFER_NOT_FOUND', kind: 'NOT_FOUND' });
  });

  it('gives each provider’s cheapest price per GPU-hour of a GPU in each published version, providers in order', async () => {
    const history = await setUp();
    const series = await history.gpuHistory('h100-sxm-80gb', 'USD', ['ON_DEMAND']);
    const view = series.map((s) => [s.provider, s.points.map((p) => `${p.version.label} ${p.offer.instanceType} ${p.pricePerGpuHour.toFixed(4)}`)]);
    expect(view).toEqual([
      // v1: box-b's 24.00 / 8 = 3.00 beats box-a's 4.00; v3: box-a's 3.60 beats box-b's 32.00 / 8 = 4.00.
      ['aws', ['v1 box-b 3.0000', 'v3 box-a 3.6000']],
      ['lambda', ['v1 gpu_1x 2.4900']],
      // 2.80 EUR / 0.9000 = 3.1111 USD.
      ['ovh', ['v3 h100-380 3.1111']],
    ]);
  });

  it('counts every pricing model when none is named', async () => {
    const history = await setUp();
    const aws = defined(
      (await history.gpuHistory('h100-sxm-80gb', 'USD', null)).find((s) => s.provider === 'aws'),
      'the aws series',
    );
    // The spot p5 at 12.00 / 8 = 1.50 is the cheapest in both versions.
    expect(aws.points.map((p) => [p.offer.pricingModel, p.pricePerGpuHour.toFixed(2)])).toEqual([
      ['SPOT', '1.50'],
      ['SPOT', '1.50'],
    ]);
  });

  it('answers 400 naming the closest known GPUs for a GPU the catalog does not know', async () => {
    const history = await setUp();
    // b300 → l4-24gb 7 edits (no letter in common), → h100-sxm-80gb 11 ("00" kept).
    await expect(history.gpuHistory('b300', 'USD', null)).rejects.toMatchObject({
      code: 'REQUEST.INVALID',
      errors: [{ field: 'gpu', message: 'unknown GPU model "b300"; closest known: l4-24gb, h100-sxm-80gb' }],
    });
  });

  it('answers 404 CATALOG.GPU_NOT_FOUND for a known GPU no version has offers for', async () => {
    const history = await setUp();
    await expect(history.gpuHistory('l4-24gb', 'USD', null)).rejects.toMatchObject({ code: 'CATALOG.GPU_NOT_FOUND', kind: 'NOT_FOUND' });
  });
});
