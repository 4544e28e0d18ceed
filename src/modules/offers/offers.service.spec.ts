// OffersService over the in-memory catalog: filters, the cheapest compliant answer, cursors (round
// trip, version pinning, tampering), the memory a model needs, and the errors it answers with.
import { createHmac } from 'node:crypto';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { CatalogContent } from '../../domain/catalog/catalog.types.js';
import { PolicyError } from '../../domain/compliance/index.js';
import { makeCatalog, makeGpu, makeOffer, makeProvider, makeRegion } from '../../domain/compliance/testing/factories.js';
import { sampleCatalog } from '../../domain/compliance/testing/sample-catalog.js';
import { Decimal, MissingFxRateError } from '../../domain/money/money.js';
import type { AppError } from '../../common/errors/app-error.js';
import { catalogTestingModule } from '../catalog/testing/catalog-testing-module.js';
import { InMemoryCatalogRepository } from '../catalog/testing/in-memory-catalog.repository.js';
import { searchFromListQuery, type OfferSearch } from './offer-search.js';
import { memoryPerGpuForModel, OffersService } from './offers.service.js';
import { toAppError } from '../../common/errors/domain-errors.js';
import { at, defined } from '../../domain/checked.js';

const search = (overrides: Partial<OfferSearch> = {}): OfferSearch => ({
  requirement: {},
  policy: {},
  currency: 'USD',
  selector: {},
  discounts: [],
  ...overrides,
});

/** Offers as "<region> <pricing model>", enough to tell the sample catalog's apart. */
const names = (items: { offer: { regionCode: string; pricingModel: string } }[]): string[] =>
  items.map(({ offer }) => `${offer.regionCode} ${offer.pricingModel}`);

/**
 * The sample catalog by price per GPU-hour in USD (EUR prices / 0.8650): 12.00/8 = 1.50, 2.49,
 * 2.73 EUR = 3.1561, 2.80 EUR = 3.2370, 3.00 EUR = 3.4682, 31.46/8 = 3.9325, 36.00/8 = 4.50.
 */
const SAMPLE_BY_USD_PRICE = [
  'aws:us-east-1 SPOT',
  'lambda:us-tx-1 ON_DEMAND',
  'scaleway:fr-par-2 ON_DEMAND',
  'ovh:gra ON_DEMAND',
  'exoscale:ch-gva-2 ON_DEMAND',
  'aws:us-east-1 ON_DEMAND',
  'aws:eu-central-1 ON_DEMAND',
];

/** The cursor signing key of the services set up here (CURSOR_SIGNING_KEY: 32 characters at least). */
const KEY = 'offers-service-spec-signing-key-0123456789';

async function setUp(
  content: CatalogContent = sampleCatalog(),
  config: { STALE_PRICE_DAYS: number; STALE_FX_DAYS: number; CURSOR_SIGNING_KEY?: string } = {
    STALE_PRICE_DAYS: 90,
    STALE_FX_DAYS: 10_000,
    CURSOR_SIGNING_KEY: KEY,
  },
) {
  const repo = new InMemoryCatalogRepository();
  const v1 = repo.addVersion({ content });
  repo.publishAt(v1.id, new Date('2026-01-01T00:00:00Z'));
  const moduleRef = await catalogTestingModule({ repository: repo, config, providers: [OffersService] }).compile();
  return { repo, v1, offers: moduleRef.get(OffersService) };
}

// A cursor as docs/api-conventions.md#paging describes it: base64url JSON, a dot, and the
// HMAC-SHA256 (base64url) of "offers-cursor.v1." and that payload under the signing key.
const payloadOf = (fields: Record<string, unknown>): string => Buffer.from(JSON.stringify(fields)).toString('base64url');
const signature = (payload: string, key: string): string => createHmac('sha256', key).update(`offers-cursor.v1.${payload}`).digest('base64url');
const decode = (cursor: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(cursor.split('.')[0] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
/** A cursor with these fields, signed with `key` (the services' own by default). */
const encode = (fields: Record<string, unknown>, key = KEY): string => `${payloadOf(fields)}.${signature(payloadOf(fields), key)}`;

describe(OffersService.name, () => {
  beforeAll(() => Logger.overrideLogger(false));

  describe('list', () => {
    it('lists every offer of the current version by price per GPU-hour in the asked currency', async () => {
      const { v1, offers } = await setUp();
      const { version, page, nextCursor } = await offers.list(search(), {});
      expect(version.id).toBe(v1.id);
      expect(names(page.items)).toEqual(SAMPLE_BY_USD_PRICE);
      expect(nextCursor).toBeNull();
    });

    it('applies the policy: EEA residency in EUR leaves the French and German regions, cheapest first', async () => {
      const { offers } = await setUp();
      const { page } = await offers.list(search({ policy: { residency: 'EEA' }, currency: 'EUR' }), {});
      expect(names(page.items)).toEqual(['scaleway:fr-par-2 ON_DEMAND', 'ovh:gra ON_DEMAND', 'aws:eu-central-1 ON_DEMAND']);
      // 36.00 USD / 8 GPUs × 0.8650 = 3.8925 EUR.
      expect(page.items.map((q) => q.pricePerGpuHour.toFixed(4))).toEqual(['2.7300', '2.8000', '3.8925']);
    });

    it('pages through the listing with cursors: every offer once, in order, and no cursor after the last page', async () => {
      const { offers } = await setUp();
      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const { page, nextCursor } = await offers.list(search(), { limit: 3, cursor });
        pages.push(names(page.items));
        cursor = nextCursor ?? undefined;
      } while (cursor && pages.length < 10);
      expect(pages).toEqual([SAMPLE_BY_USD_PRICE.slice(0, 3), SAMPLE_BY_USD_PRICE.slice(3, 6), SAMPLE_BY_USD_PRICE.slice(6)]);
    });

    it('keeps paging the version the first page came from when another is published meanwhile', async () => {
      const { repo, v1, offers } = await setUp();
      const first = await offers.list(search(), { limit: 3 });
      const v2 = repo.addVersion({ content: makeCatalog({ providers: [makeProvider()], regions: [makeRegion()], offers: [makeOffer()] }) });
      await repo.publish(v2.id);
      const second = await offers.list(search(), { limit: 3, cursor: defined(first.nextCursor, 'a next cursor') });
      expect(second.version.id).toBe(v1.id);
      expect(names(second.page.items)).toEqual(SAMPLE_BY_USD_PRICE.slice(3, 6));
      // Without a cursor, the new version answers.
      expect((await offers.list(search(), {})).version.id).toBe(v2.id);
    });

    it('pages with the day prices were aged from on the first page, even when midnight passes between pages', async () => {
      // Three prices observed on 1 December, listed with maxPriceAgeDays 0 (today's prices only).
      const offer = (instanceType: string, price: string) => makeOffer({ instanceType, pricePerHour: new Decimal(price), observedAt: '2026-12-01' });
      const content = makeCatalog({
        providers: [makeProvider()],
        regions: [makeRegion()],
        offers: [offer('a', '1.00'), offer('b', '2.00'), offer('c', '3.00')],
      });
      const { offers } = await setUp(content);
      const onlyDate = [
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
      ] as const;
      jest.useFakeTimers({ now: new Date('2026-12-01T23:59:00Z'), doNotFake: [...onlyDate] });
      try {
        const fresh = search({ policy: { maxPriceAgeDays: 0 } });
        const first = await offers.list(fresh, { limit: 2 });
        expect(first.page.items.map((q) => q.offer.instanceType)).toEqual(['a', 'b']);
        jest.setSystemTime(new Date('2026-12-02T00:01:00Z'));
        const second = await offers.list(fresh, { limit: 2, cursor: defined(first.nextCursor, 'a next cursor') });
        expect(second.page.items.map((q) => q.offer.instanceType)).toEqual(['c']);
        // A new listing counts from the new day: the 1 December prices are a day old now.
        expect((await offers.list(fresh, {})).page.items).toEqual([]);
      } finally {
        jest.useRealTimers();
      }
    });

    it('refuses a cursor from a query with other filters or another currency (400 OFFERS.CURSOR_MISMATCH)', async () => {
      const { offers } = await setUp();
      const { nextCursor } = await offers.list(search(), { limit: 2 });
      for (const other of [search({ policy: { residency: 'EEA' } }), search({ currency: 'EUR' }), search({ requirement: { gpuCount: 8 } })]) {
        await expect(offers.list(other, { cursor: defined(nextCursor, 'a next cursor') })).rejects.toMatchObject({
          code: 'OFFERS.CURSOR_MISMATCH',
          kind: 'BAD_INPUT',
          errors: [{ field: 'cursor', message: expect.any(String) }],
        });
      }
    });

    it('refuses a cursor it did not issue, or one edited by hand (400 OFFERS.CURSOR_INVALID)', async () => {
      const { offers } = await setUp();
      const { nextCursor } = await offers.list(search(), { limit: 2 });
      const issued = decode(defined(nextCursor, 'a next cursor'));
      const { f: _f, ...withoutFingerprint } = issued;
      const tampered = [
        'not-a-cursor',
        encode({ ...issued, v: 42 }),
        encode(withoutFingerprint),
        encode({ ...issued, d: '1 Dec 2026' }),
        // Signed with the right key, yet no cursor's shape: the shape is checked after the signature.
        ...['["a","b"]', 'null', '{"v":'].map((json) => {
          const payload = Buffer.from(json).toString('base64url');
          return `${payload}.${signature(payload, KEY)}`;
        }),
      ];
      for (const cursor of tampered) {
        await expect(offers.list(search(), { cursor })).rejects.toMatchObject({
          code: 'OFFERS.CURSOR_INVALID',
          kind: 'BAD_INPUT',
          errors: [{ field: 'cursor', message: expect.stringContaining('is not a cursor this service issued') }],
        });
      }
    });

    it('answers 400 on the cursor field for a cursor naming no offer of its version, and 404 for a version that does not exist', async () => {
      const { offers } = await setUp();
      const { nextCursor } = await offers.list(search(), { limit: 2 });
      const issued = decode(defined(nextCursor, 'a next cursor'));
      await expect(offers.list(search(), { cursor: encode({ ...issued, k: 'no-such-offer' }) })).rejects.toMatchObject({
        code: 'REQUEST.INVALID',
        errors: [{ field: 'cursor', message: expect.stringContaining('does not name an offer') }],
      });
      await expect(offers.list(search(), { cursor: encode({ ...issued, v: 'v404' }) })).rejects.toMatchObject({
        code: 'CATALOG.VERSION_NOT_FOUND',
        kind: 'NOT_FOUND',
      });
    });

    it('refuses a forged or altered cursor (400 OFFERS.CURSOR_INVALID), however well formed its payload', async () => {
      const { offers } = await setUp();
      const issued = defined((await offers.list(search(), { limit: 2 })).nextCursor, 'a next cursor');
      const [payload = '', sig = ''] = issued.split('.');
      // The signature is the one this spec computes: the format is what the docs say it is.
      expect(sig).toBe(signature(payload, KEY));
      const fields = decode(issued);
      const flip = (text: string, i: number) => text.slice(0, i) + (text[i] === 'A' ? 'B' : 'A') + text.slice(i + 1);
      const forged = [
        payload, // unsigned, as cursors were before they were signed
        `${payload}.`,
        `.${sig}`,
        `${payloadOf({ ...fields, k: 'another-offer' })}.${sig}`, // payload altered, signature kept
        `${flip(payload, 3)}.${sig}`,
        `${payload}.${flip(sig, 10)}`,
        `${payload}.${sig.slice(0, -1)}`,
        `${payload}.${sig}A`,
        encode(fields, 'another-deployment-key-0123456789abcdef'), // signed, but with another key
      ];
      for (const cursor of forged) {
        await expect(offers.list(search(), { cursor })).rejects.toMatchObject({
          code: 'OFFERS.CURSOR_INVALID',
          kind: 'BAD_INPUT',
          errors: [{ field: 'cursor', message: expect.stringContaining('is not a cursor this service issued') }],
        });
      }
    });

    it("names GraphQL's `after` when a GraphQL query sent the cursor", async () => {
      const { offers } = await setUp();
      const graphql = search({ fieldNames: { after: 'after' } });
      const issued = defined((await offers.list(graphql, { limit: 2 })).nextCursor, 'a next cursor');
      await expect(offers.list(graphql, { cursor: `${issued}x` })).rejects.toMatchObject({ code: 'OFFERS.CURSOR_INVALID', errors: [{ field: 'after' }] });
      await expect(offers.list(search({ fieldNames: { after: 'after' }, currency: 'EUR' }), { cursor: issued })).rejects.toMatchObject({
        code: 'OFFERS.CURSOR_MISMATCH',
        errors: [{ field: 'after' }],
      });
    });

    it('accepts a cursor from another instance with the same key; without a key, each instance signs with its own', async () => {
      const a = await setUp();
      const b = await setUp();
      const first = await a.offers.list(search(), { limit: 2 });
      const next = await b.offers.list(search(), { limit: 2, cursor: defined(first.nextCursor, 'a next cursor') });
      expect(names(next.page.items)).toEqual(SAMPLE_BY_USD_PRICE.slice(2, 4));
      const noKey = { STALE_PRICE_DAYS: 90, STALE_FX_DAYS: 10_000 };
      const c = await setUp(sampleCatalog(), noKey);
      const d = await setUp(sampleCatalog(), noKey);
      const fromC = defined((await c.offers.list(search(), { limit: 2 })).nextCursor, 'a next cursor');
      expect(names((await c.offers.list(search(), { limit: 2, cursor: fromC })).page.items)).toEqual(SAMPLE_BY_USD_PRICE.slice(2, 4));
      await expect(d.offers.list(search(), { cursor: fromC })).rejects.toMatchObject({ code: 'OFFERS.CURSOR_INVALID' });
      await expect(a.offers.list(search(), { cursor: fromC })).rejects.toMatchObject({ code: 'OFFERS.CURSOR_INVALID' });
    });

    it('answers 404 for a version that does not exist', async () => {
      const { offers } = await setUp();
      await expect(offers.list(search({ selector: { version: 'v2' } }), {})).rejects.toMatchObject({ code: 'CATALOG.VERSION_NOT_FOUND', kind: 'NOT_FOUND' });
    });
  });

  describe('cheapest', () => {
    it('answers the cheapest offers the policy allows, and with explain the cheaper ones it excluded', async () => {
      const { offers } = await setUp();
      const { result } = await offers.cheapest(search({ requirement: { gpus: ['h100-sxm-80gb'] }, policy: { residency: 'EEA' }, currency: 'EUR' }), {
        limit: 2,
        explain: true,
      });
      expect(names(result.items)).toEqual(['scaleway:fr-par-2 ON_DEMAND', 'ovh:gra ON_DEMAND']);
      // Cheaper than 2.73 EUR but in the US: the spot p5 (1.2975 EUR) and Lambda (2.49 × 0.865 = 2.15385 EUR).
      expect(names(result.excluded)).toEqual(['aws:us-east-1 SPOT', 'lambda:us-tx-1 ON_DEMAND']);
      expect(result.excluded.every((e) => e.reasons.some((r) => r.rule === 'RESIDENCY'))).toBe(true);
    });

    it('applies negotiated discounts before ranking', async () => {
      const { offers } = await setUp();
      // OVH at 10 % off: 2.80 × 0.9 = 2.52 EUR, now below Scaleway's 2.73.
      const { result } = await offers.cheapest(search({ policy: { residency: 'EEA' }, currency: 'EUR', discounts: [{ provider: 'ovh', percent: 10 }] }), {
        limit: 2,
      });
      expect(names(result.items)).toEqual(['ovh:gra ON_DEMAND', 'scaleway:fr-par-2 ON_DEMAND']);
      expect(at(result.items, 0).pricePerGpuHour.toFixed(4)).toBe('2.5200');
    });

    it('warns about prices older than STALE_PRICE_DAYS, counted back from asOf', async () => {
      const { offers } = await setUp();
      // The sample prices were observed 2026-11-27: 90 days before 2027-02-25, 94 before 2027-03-01.
      const at = (asOf: string) => search({ policy: { residency: 'EEA' }, selector: { asOf: new Date(asOf) } });
      const within = await offers.cheapest(at('2027-02-25T12:00:00Z'), { limit: 2 });
      expect(within.warnings).toEqual([]);
      const stale = await offers.cheapest(at('2027-03-01T12:00:00Z'), { limit: 2 });
      expect(stale.warnings).toHaveLength(2);
      expect(stale.warnings[0]).toContain('scaleway H100-1-80G scaleway:fr-par-2 ON_DEMAND: price observed 2026-11-27, 94 days before 2027-03-01');
    });

    it('names the FX rate it converted with, and warns when it is older than STALE_FX_DAYS', async () => {
      const { offers } = await setUp(sampleCatalog(), { STALE_PRICE_DAYS: 10_000, STALE_FX_DAYS: 14 });
      // The sample's rate is of 2026-11-27: 14 days before 2026-12-11 (not older), 15 before 2026-12-12.
      const at = (asOf: string) => search({ policy: { residency: 'EEA' }, currency: 'EUR', selector: { asOf: new Date(asOf) } });
      const fresh = await offers.cheapest(at('2026-12-11T12:00:00Z'), { limit: 2 });
      expect(fresh.exchangeRate).toEqual({ base: 'USD', currency: 'EUR', rate: '0.8650', date: '2026-11-27', source: 'test', ageDays: 14 });
      expect(fresh.warnings).toEqual([]);
      const stale = await offers.cheapest(at('2026-12-12T12:00:00Z'), { limit: 2 });
      expect(stale.warnings).toEqual([
        expect.stringContaining('prices converted at 1 USD = 0.8650 EUR, the rate of 2026-11-27: 15 days old (older than 14 days)'),
      ]);
      // In USD, with only USD offers shown, nothing was converted: no rate is named.
      const usd = await offers.cheapest(search({ policy: { providers: ['aws'] } }), { limit: 1 });
      expect(usd.exchangeRate).toBeNull();
    });

    it('answers 400 on the gpus field for a GPU model the version does not have', async () => {
      const { offers } = await setUp();
      await expect(offers.cheapest(search({ requirement: { gpus: ['b300'] } }), {})).rejects.toMatchObject({
        code: 'REQUEST.INVALID',
        kind: 'BAD_INPUT',
        errors: [{ field: 'gpus', message: expect.stringContaining('b300') }],
      });
    });
  });

  describe('errors', () => {
    it('names policy fields as the API spells them (minSla; REST’s excludeProvider)', async () => {
      const { offers } = await setUp();
      await expect(offers.list(search({ policy: { minSlaPercent: 101 } }), {})).rejects.toMatchObject({
        code: 'REQUEST.INVALID',
        errors: [{ field: 'minSla' }],
      });
      const rest = searchFromListQuery({ provider: ['ovh'], excludeProvider: ['ovh'] });
      await expect(offers.cheapest(rest, {})).rejects.toMatchObject({ code: 'REQUEST.INVALID', errors: [{ field: 'excludeProvider' }] });
    });

    it('answers 422 CATALOG.MISSING_FX_RATE for a currency the version has no rate for', async () => {
      const usdOnly = makeCatalog({
        providers: [makeProvider()],
        regions: [makeRegion()],
        offers: [makeOffer()],
        fxRates: { base: 'USD', rates: {}, date: '2026-11-27', source: 'test' },
      });
      const { offers } = await setUp(usdOnly);
      await expect(offers.list(search({ currency: 'EUR' }), {})).rejects.toMatchObject({
        code: 'CATALOG.MISSING_FX_RATE',
        kind: 'UNPROCESSABLE',
        errors: [{ field: 'currency', message: expect.any(String) }],
      });
    });
  });

  describe('a model to serve', () => {
    // Llama-2-70B at FP16 with a 4,096-token context, by hand (GiB = vendor GB):
    //   weights 68.98e9 × 2 B = 137.96e9 B = 128.4853 GiB
    //   KV cache 2 × 80 layers × 8 KV heads × 128 dims × 2 B = 327,680 B/token × 4,096 = 1.25 GiB
    //   one GPU: (128.4853 + 1.25 + 1 runtime) / 0.9 usable = 145.26 GB
    //   over 8 GPUs: ((128.4853 + 1.25) / 8 + 1) / 0.9 = 19.13 GB each
    const LLAMA_2_70B_ON_ONE_GPU_GB = 145.26;
    const LLAMA_2_70B_PER_GPU_OF_8_GB = 19.13;

    it('needs the whole model’s memory on one GPU, and a share of weights and cache per GPU when split', () => {
      expect(memoryPerGpuForModel({ preset: 'llama-2-70b' }, null)).toBeCloseTo(LLAMA_2_70B_ON_ONE_GPU_GB, 2);
      expect(memoryPerGpuForModel({ preset: 'llama-2-70b' }, 1)).toBeCloseTo(LLAMA_2_70B_ON_ONE_GPU_GB, 2);
      expect(memoryPerGpuForModel({ preset: 'llama-2-70b' }, 8)).toBeCloseTo(LLAMA_2_70B_PER_GPU_OF_8_GB, 2);
    });

    it('answers a null preset without parametersB as a bad model.parametersB', () => {
      expect(() => memoryPerGpuForModel({ preset: null as unknown as string }, null)).toThrow(expect.objectContaining({ field: 'model.parametersB' }));
    });

    // 8-GPU instances of a 16, a 24 and an 80 GB GPU, cheapest per GPU first.
    const eightGpuBoxes = () => {
      const gpu = (slug: string, memoryGb: number) => makeGpu({ slug, name: slug, memoryGb: new Decimal(memoryGb) });
      const box = (gpuSlug: string, pricePerHour: string) =>
        makeOffer({ gpuSlug, gpuCount: 8, instanceType: `${gpuSlug}-x8`, pricePerHour: new Decimal(pricePerHour) });
      return makeCatalog({
        providers: [makeProvider()],
        regions: [makeRegion()],
        gpus: [gpu('t4-16gb', 16), gpu('l4-24gb', 24), gpu('h100-sxm-80gb', 80)],
        offers: [box('t4-16gb', '4.00'), box('l4-24gb', '8.00'), box('h100-sxm-80gb', '32.00')],
      });
    };
    const gpusFor = async (requirement: OfferSearch['requirement']) => {
      const { offers } = await setUp(eightGpuBoxes());
      return (await offers.list(search({ requirement }), {})).page.items.map((q) => q.offer.gpuSlug);
    };

    it('turns the model into the memory each GPU of the instance needs (19.13 GB of 8 GPUs: 24 and 80 GB qualify, 16 GB does not)', async () => {
      expect(await gpusFor({ gpuCount: 8, model: { preset: 'llama-2-70b' } })).toEqual(['l4-24gb', 'h100-sxm-80gb']);
      // Unsplit, 145 GB fits no GPU.
      expect(await gpusFor({ model: { preset: 'llama-2-70b' } })).toEqual([]);
    });

    it('keeps the larger of the model’s need and an explicit minGpuMemoryGb', async () => {
      expect(await gpusFor({ gpuCount: 8, minGpuMemoryGb: 40, model: { preset: 'llama-2-70b' } })).toEqual(['h100-sxm-80gb']);
      expect(await gpusFor({ gpuCount: 8, minGpuMemoryGb: 10, model: { preset: 'llama-2-70b' } })).toEqual(['l4-24gb', 'h100-sxm-80gb']);
    });

    it('answers 400 naming the model field at fault', async () => {
      const { offers } = await setUp();
      const fieldOf = async (model: OfferSearch['requirement']['model']) => {
        const error = await offers.list(search({ requirement: { model } }), {}).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: 'REQUEST.INVALID', kind: 'BAD_INPUT' });
        return (error as AppError).errors.map((e) => e.field);
      };
      expect(await fieldOf({ preset: 'llama-2-70b', precision: 'FP12' })).toEqual(['model.precision']);
      expect(await fieldOf({ preset: 'llama-2-70b', parametersB: 70 })).toEqual(['model']);
      expect(await fieldOf({})).toEqual(['model']);
      expect(await fieldOf({ preset: 'gpt-9' })).toEqual(['model.preset']);
    });
  });
});

describe(toAppError.name, () => {
  it('turns a PolicyError into 400 REQUEST.INVALID on the field as the transport names it', () => {
    const fieldOf = (field: string, prefix?: string, names?: Record<string, string>) =>
      at((toAppError(new PolicyError(field, 'bad'), prefix, names) as AppError).errors, 0).field;
    expect(toAppError(new PolicyError('residency', 'bad'))).toMatchObject({
      code: 'REQUEST.INVALID',
      kind: 'BAD_INPUT',
      errors: [{ field: 'residency', message: 'bad' }],
    });
    expect(fieldOf('minSlaPercent')).toBe('minSla');
    expect(fieldOf('after')).toBe('cursor');
    expect(fieldOf('minSlaPercent', 'policy.')).toBe('policy.minSla');
    expect(fieldOf('excludeProviders', '', { excludeProviders: 'excludeProvider' })).toBe('excludeProvider');
    // The transport's own name wins over the shared one.
    expect(fieldOf('minSlaPercent', '', { minSlaPercent: 'sla' })).toBe('sla');
    // Only own entries rename: a field called like an Object method stays as it is.
    expect(fieldOf('toString')).toBe('toString');
  });

  it('turns a missing FX rate into 422 CATALOG.MISSING_FX_RATE, and leaves every other error as it is', () => {
    expect(toAppError(new MissingFxRateError('USD', 'EUR'))).toMatchObject({
      code: 'CATALOG.MISSING_FX_RATE',
      kind: 'UNPROCESSABLE',
      errors: [{ field: 'currency' }],
    });
    const other = new TypeError('x is undefined');
    expect(toAppError(other)).toBe(other);
  });
});
