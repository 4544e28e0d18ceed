import { readFile } from 'node:fs/promises';
import { jurisdictionsOf } from '../src/domain/compliance/index.js';
import { createTestServer, type TestServer } from './setup/test-app.js';

const OFFER_FIELDS = `id provider region country gpu gpuCount instanceType pricingModel
  pricePerHour { amount currency } pricePerGpuHour { amount currency } listPricePerHour { amount currency }
  source observedAt priceKind complies totalPricePerHour { amount currency } instances`;

describe('offers (e2e, bundled catalog)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('lists H100 list prices only, from at least 8 providers, with sources; no article figure is an offer', async () => {
    const res = await t.http().get('/v1/offers').query({ gpu: 'h100-sxm-80gb,h100-pcie-80gb,h100-nvl-94gb', limit: 500 }).expect(200);
    const items = res.body.items as {
      provider: string;
      source: string;
      observedAt: string;
      priceKind: string;
      instanceType: string;
      availability: string;
      pricePerGpuHour: { amount: string };
    }[];
    expect(new Set(items.map((i) => i.provider)).size).toBeGreaterThanOrEqual(8);
    expect(items.every((i) => i.priceKind === 'LIST' && i.source.length > 3 && /^\d{4}-\d{2}-\d{2}$/.test(i.observedAt))).toBe(true);
    expect(items.some((i) => /article/i.test(i.instanceType))).toBe(false);
    // The article's "AWS H100 3.90" is a reference figure, not a price of any offer.
    expect(items.some((i) => i.provider === 'aws' && i.pricePerGpuHour.amount === '3.9000')).toBe(false);
    // CONFIRMED availability first, then UNCONFIRMED, each sorted by comparable price per GPU-hour;
    // a LISTED_NOT_ORDERABLE offer never.
    const tiers = items.map((i) => ['CONFIRMED', 'UNCONFIRMED'].indexOf(i.availability));
    expect(tiers).not.toContain(-1);
    expect(tiers).toEqual([...tiers].sort((a, b) => a - b));
    expect(new Set(tiers)).toEqual(new Set([0, 1]));
    for (const tier of [0, 1]) {
      const amounts = items.filter((_, i) => tiers[i] === tier).map((i) => Number(i.pricePerGpuHour.amount));
      expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    }
  });

  it('answers, for every GPU, a first offer one could buy: LIST, not an announcement, on offer today, confirmed unless none is, over REST and GraphQL', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const gpus = ((await t.http().get('/v1/gpus').expect(200)).body.items as { slug: string }[]).map((g) => g.slug);
    expect(gpus.length).toBeGreaterThan(10);
    type First = {
      id: string;
      priceKind: string;
      sourceKind: string | null;
      availability: string;
      availabilityNote: string | null;
      validFrom: string | null;
      validUntil: string | null;
      provider: string;
      region: string;
      instanceType: string;
      pricingModel: string;
    };
    const fields = 'id priceKind sourceKind availability availabilityNote validFrom validUntil provider region instanceType pricingModel';
    let answered = 0;
    for (const gpu of gpus) {
      for (const [preset, pricingModel] of [undefined, 'GDPR_PERSONAL_DATA'].flatMap((p) => [undefined, 'ON_DEMAND'].map((m) => [p, m] as const))) {
        const query = { gpu, limit: 1, ...(preset ? { preset } : {}), ...(pricingModel ? { pricingModel } : {}) };
        const rest = (await t.http().get('/v1/offers/cheapest').query(query).expect(200)).body as {
          items: First[];
          warnings: string[];
        };
        const gql = await t.graphql<{ cheapestOffers: { items: First[]; warnings: string[] } }>(
          `query($gpu: String!, $preset: String, $models: [PricingModel!]) { cheapestOffers(requirement: { gpus: [$gpu] }, policy: { preset: $preset, pricingModels: $models }, limit: 1) { items { ${fields} } warnings } }`,
          { gpu, preset: preset ?? null, models: pricingModel ? [pricingModel] : null },
        );
        expect([gpu, preset, gql.data.cheapestOffers.items.map((i) => i.id)]).toEqual([gpu, preset, rest.items.map((i) => i.id)]);
        expect(gql.data.cheapestOffers.warnings).toEqual(rest.warnings);
        const first = rest.items[0];
        if (!first) continue;
        answered += 1;
        const where = `${gpu} ${preset ?? 'any policy'} ${pricingModel ?? 'any model'}: ${first.provider} ${first.instanceType} ${first.region} ${first.pricingModel}`;
        expect([where, first.priceKind]).toEqual([where, 'LIST']);
        expect([where, first.sourceKind]).not.toEqual([where, 'ANNOUNCEMENT']);
        expect([where, first.sourceKind]).not.toEqual([where, null]);
        expect([where, (first.validFrom ?? today) <= today && today <= (first.validUntil ?? today)]).toEqual([where, true]);
        expect([where, first.availability]).toEqual([where, expect.stringMatching(/^(CONFIRMED|UNCONFIRMED)$/)]);
        if (first.availability === 'UNCONFIRMED') {
          // Only when no confirmed offer meets the query (asked apart: requiring confirmation leaves nothing), and the answer says so first.
          const confirmedOnly = (
            await t
              .http()
              .get('/v1/offers/cheapest')
              .query({ ...query, requireConfirmedAvailability: true })
              .expect(200)
          ).body;
          expect([where, confirmedOnly.items]).toEqual([where, []]);
          expect([where, rest.warnings[0]]).toEqual([where, expect.stringMatching(/^no offer meeting this query has CONFIRMED availability/)]);
          // And in a warning naming the offer and why.
          const warning = rest.warnings.find((w) =>
            w.startsWith(`${first.provider} ${first.instanceType} ${first.region} ${first.pricingModel}: availability UNCONFIRMED`),
          );
          expect([where, warning]).toEqual([where, expect.stringContaining(first.availabilityNote ?? 'not checked')]);
        }
      }
    }
    // Every GPU with an offer was walked, under both policies and both model choices (two GPUs of the catalog have none). Four
    // GDPR answers may be empty: two as before, and B200's two since its only EEA offer (RunPod EU-RO-1, a global price
    // list copied into Romania) was removed (data/catalog/SOURCES.md).
    expect(answered).toBeGreaterThanOrEqual(4 * (gpus.length - 2) - 4);
  });

  it("never ranks OVHcloud's a10-45, which its own catalogue tags coming_soon, and names it in explain with the provider's words", async () => {
    // One A10 per instance, on demand: the a10-45 (0.76 EUR = 0.89 USD) is cheaper than every offer that complies (Lambda's
    // 1.29 USD first), so explain lists it.
    const query = { gpu: 'a10-24gb', gpuCount: 1, pricingModel: 'ON_DEMAND', explain: 'true', limit: 5 };
    const rest = (await t.http().get('/v1/offers/cheapest').query(query).expect(200)).body;
    expect(rest.items.map((i: { instanceType: string }) => i.instanceType)).not.toContain('a10-45');
    const excluded = rest.excluded.filter((e: { offer: { instanceType: string } }) => e.offer.instanceType === 'a10-45');
    expect(excluded.map((e: { offer: { availability: string }; rules: string[] }) => [e.offer.availability, e.rules])).toEqual([
      ['LISTED_NOT_ORDERABLE', ['AVAILABILITY']],
    ]);
    expect(excluded[0].reasons).toEqual([
      expect.stringMatching(/^availability LISTED_NOT_ORDERABLE: OVHcloud's order catalogue tags a10-45 'coming_soon' .*https:\/\//),
    ]);
  });

  it('names the FX rate and its date in every EUR answer: listing, cheapest, CSV and GraphQL', async () => {
    // The bundled rate: ECB 2026-10-09, 1 / 1.1206 = 0.892379 EUR per USD (data/catalog/catalog.yaml).
    const fx = { base: 'USD', currency: 'EUR', rate: '0.892379', date: '2026-10-09' };
    const listing = (await t.http().get('/v1/offers').query({ gpu: 'h100-sxm-80gb', currency: 'EUR', limit: 3 }).expect(200)).body;
    expect(listing.exchangeRate).toMatchObject(fx);
    const cheapest = (await t.http().get('/v1/offers/cheapest').query({ gpu: 'h100-sxm-80gb', currency: 'EUR', limit: 1 }).expect(200)).body;
    expect(cheapest.exchangeRate).toMatchObject(fx);
    // 54 days old on 2026-12-02, older than STALE_FX_DAYS (14): the answer warns.
    expect(cheapest.warnings).toContain(
      `prices converted at 1 USD = 0.892379 EUR, the rate of 2026-10-09: ${cheapest.exchangeRate.ageDays} days old (older than 14 days); amounts in the other currency may be off by the rate's move since`,
    );
    const csv = (await t.http().get('/v1/offers').query({ gpu: 'h100-sxm-80gb', currency: 'EUR', limit: 3 }).set('accept', 'text/csv').expect(200)).text;
    const [header, ...rows] = csv.trim().split('\r\n');
    const columns = (header ?? '').split(',');
    for (const row of rows) {
      const cells = row.split(',');
      expect([cells[columns.indexOf('FxRate')], cells[columns.indexOf('FxRatePair')], cells[columns.indexOf('FxRateDate')]]).toEqual([
        '0.892379',
        'USD/EUR',
        '2026-10-09',
      ]);
    }
    const gql = await t.graphql<{ offers: { exchangeRate: unknown }; cheapestOffers: { exchangeRate: unknown } }>(
      '{ offers(first: 2, filter: { gpus: ["h100-sxm-80gb"], currency: EUR }) { exchangeRate { base currency rate date } } ' +
        'cheapestOffers(requirement: { gpus: ["h100-sxm-80gb"] }, currency: EUR, limit: 1) { exchangeRate { base currency rate date } } }',
    );
    expect(gql.data).toEqual({ offers: { exchangeRate: fx }, cheapestOffers: { exchangeRate: fx } });
    // A USD answer of USD offers converts nothing and names no rate.
    const usd = (await t.http().get('/v1/offers/cheapest').query({ gpu: 'h100-sxm-80gb', provider: 'aws', limit: 1 }).expect(200)).body;
    expect(usd.exchangeRate).toBeNull();
  });

  it('answers the cheapest AWS H100 on-demand with the p5 list price, 55.04 / 8 = 6.88 USD per GPU-hour, over REST and GraphQL', async () => {
    const rest = (await t.http().get('/v1/offers/cheapest').query({ gpu: 'h100-sxm-80gb', provider: 'aws', pricingModels: 'ON_DEMAND', limit: 1 }).expect(200))
      .body;
    expect(rest.items[0]).toMatchObject({ priceKind: 'LIST', pricePerGpuHour: { amount: '6.8800', currency: 'USD' } });
    expect(rest.items[0].instanceType).toMatch(/^p5\./);
    expect(rest.warnings).toEqual(expect.any(Array));
    const gql = await t.graphql<{ cheapestOffers: { items: { priceKind: string; pricePerGpuHour: { amount: string } }[] } }>(
      '{ cheapestOffers(requirement: { gpus: ["h100-sxm-80gb"] }, policy: { providers: ["aws"], pricingModels: [ON_DEMAND] }, limit: 1) ' +
        '{ items { priceKind pricePerGpuHour { amount } } } }',
    );
    expect(gql.data.cheapestOffers.items).toEqual([{ priceKind: 'LIST', pricePerGpuHour: { amount: '6.8800' } }]);
  });

  it('ranks ESTIMATE prices only with includeEstimates, flags them on the offer and in warnings, over REST and GraphQL', async () => {
    // AWS p5.48xlarge in eu-north-1 has no reserved list price; the catalog holds a 1-year ESTIMATE (on-demand x 0.60).
    const query = { gpu: 'h100-sxm-80gb', provider: 'aws', region: 'aws:eu-north-1', pricingModels: 'RESERVED_1Y' };
    expect((await t.http().get('/v1/offers').query(query).expect(200)).body.items).toEqual([]);
    expect((await t.http().get('/v1/offers/cheapest').query(query).expect(200)).body.items).toEqual([]);
    const listed = (
      await t
        .http()
        .get('/v1/offers')
        .query({ ...query, includeEstimates: 'true' })
        .expect(200)
    ).body.items;
    expect(listed).toEqual([expect.objectContaining({ priceKind: 'ESTIMATE', derivation: expect.stringContaining('x (1 - 0.40)') })]);
    const cheapest = (
      await t
        .http()
        .get('/v1/offers/cheapest')
        .query({ ...query, includeEstimates: 'true' })
        .expect(200)
    ).body;
    expect(cheapest.items).toEqual([expect.objectContaining({ priceKind: 'ESTIMATE' })]);
    expect(cheapest.warnings).toEqual(
      expect.arrayContaining([expect.stringContaining('p5.48xlarge aws:eu-north-1 RESERVED_1Y is an ESTIMATE, not a list price')]),
    );
    const gql = await t.graphql<{ cheapestOffers: { items: { priceKind: string }[]; warnings: string[] } }>(
      `{ cheapestOffers(requirement: { gpus: ["h100-sxm-80gb"] }, policy: { providers: ["aws"], regions: ["aws:eu-north-1"], pricingModels: [RESERVED_1Y], ` +
        `includeEstimates: true }) { items { priceKind } warnings } }`,
    );
    expect(gql.data.cheapestOffers.items).toEqual([{ priceKind: 'ESTIMATE' }]);
    expect(gql.data.cheapestOffers.warnings).toEqual(cheapest.warnings);
    const none = await t.graphql<{ offers: { items: unknown[] } }>(
      '{ offers(filter: { gpus: ["h100-sxm-80gb"], providers: ["aws"], regions: ["aws:eu-north-1"], pricingModels: [RESERVED_1Y] }) { items { id } } }',
    );
    expect(none.data.offers.items).toEqual([]);
  });

  it('finds H100 or H200 list offers under GDPR_PERSONAL_DATA from at least four providers in at least three EEA countries, Azure among them', async () => {
    const res = await t
      .http()
      .get('/v1/offers')
      .query({ gpu: 'h100-sxm-80gb,h100-pcie-80gb,h100-nvl-94gb,h200-141gb', preset: 'GDPR_PERSONAL_DATA', limit: 500 })
      .expect(200);
    const items = res.body.items as { provider: string; country: string; priceKind: string }[];
    const providers = new Set(items.map((i) => i.provider));
    expect(providers.size).toBeGreaterThanOrEqual(4);
    expect(providers.has('azure')).toBe(true);
    expect(new Set(items.map((i) => i.country)).size).toBeGreaterThanOrEqual(3);
    for (const i of items) expect(jurisdictionsOf(i.country)).toContain('EEA');
    expect(items.every((i) => i.priceKind === 'LIST')).toBe(true);
  });

  it('excludes prices older than maxPriceAgeDays, with the reason, and warns about stale chosen prices', async () => {
    // The OVHcloud H100 flavours (h100-380, h100-760) were read on 2026-08-22: more than 100 days before today (2026-12-02 or later).
    const query = { gpu: 'h100-pcie-80gb', provider: 'ovhcloud', explain: 'true' };
    const all = (await t.http().get('/v1/offers/cheapest').query(query).expect(200)).body;
    expect(all.items.length).toBeGreaterThan(0);
    expect(all.warnings.join(' ')).toMatch(/price observed 2026-(01-27|08-22), \d+ days before \d{4}-\d{2}-\d{2} \(older than 90 days\)/);
    const fresh = (
      await t
        .http()
        .get('/v1/offers/cheapest')
        .query({ ...query, maxPriceAgeDays: 100 })
        .expect(200)
    ).body;
    expect(fresh.items).toEqual([]);
    // The version says how fresh each provider's prices are: OVHcloud's 7 rows since its 8 E1 rows (2026-01-27) were removed,
    // six from the order catalogue copy of 2026-08-22 and l4-90 read 2026-10-07 (data/catalog/SOURCES.md).
    const [version] = (await t.http().get('/v1/catalog/versions').expect(200)).body.items;
    expect(version.providerObservations).toEqual(expect.arrayContaining([{ provider: 'ovhcloud', offers: 7, oldest: '2026-08-22', newest: '2026-10-07' }]));
    const ovh = fresh.excluded.filter((e: { offer: { provider: string } }) => e.offer.provider === 'ovhcloud');
    expect(ovh.length).toBe(all.items.length);
    expect(ovh.map((e: { rules: string[] }) => e.rules)).toEqual(ovh.map(() => ['FRESHNESS']));
    expect(ovh[0].reasons[0]).toMatch(/^price observed 2026-(01-27|08-22), \d+ days before \d{4}-\d{2}-\d{2}: older than maxPriceAgeDays 100$/);
  });

  it('shows every reference figure next to the list price with its deviation, over REST and GraphQL', async () => {
    const rest = (await t.http().get('/v1/reference-figures').expect(200)).body;
    const byKey = new Map(rest.items.map((f: { key: string }) => [f.key, f]));
    // Every seed figure of the articles is there.
    for (const key of [
      'a1-aws-h100-on-demand',
      'a1-azure-h100-on-demand',
      'a1-gcp-h100-on-demand',
      'a1-vast-h100-spot',
      'a1-specialists-h100-on-demand',
      'a1-aws-h100-reserved',
      'a3-aws-egress',
      'a3-gcp-egress',
      'a2-spot-discount',
      'a2-reserved-1y-discount',
      'a2-blended-savings',
    ]) {
      expect(byKey.has(key)).toBe(true);
    }
    // AWS 3.90 against the p5 list price 6.88: (6.88 − 3.90) / 3.90 = +76.41%.
    expect(byKey.get('a1-aws-h100-on-demand')).toMatchObject({ status: 'COMPARED', value: '3.90', deviation: '76.41', cheapest: { value: '6.8800' } });
    // Money as quoted; percentages as they are.
    expect(byKey.get('a1-a10g-on-demand')).toMatchObject({ value: '1.00', valueHigh: '1.50' });
    expect(byKey.get('a2-spot-discount')).toMatchObject({ value: '60', valueHigh: '80' });
    expect((byKey.get('a1-aws-h100-on-demand') as { summary: string }).summary).toContain('figure 3.90 USD/GPU-h; cheapest list p5.');
    // Azure 6.98 is exactly the NC40ads H100 v5 eastus list price.
    expect(byKey.get('a1-azure-h100-on-demand')).toMatchObject({ status: 'COMPARED', deviation: '0.00' });
    // Vast.ai has no list price in the catalog; the blended-savings claim is no price.
    expect(byKey.get('a1-vast-h100-spot')).toMatchObject({ status: 'NO_LIST_PRICE', deviation: null });
    expect(byKey.get('a2-blended-savings')).toMatchObject({ status: 'NOT_COMPARABLE' });
    const gql = await t.graphql<{
      referenceFigures: { catalogVersion: { label: string }; items: { key: string; deviation: string | null; summary: string }[] };
    }>('{ referenceFigures { catalogVersion { label } items { key deviation summary } } }');
    expect(gql.data.referenceFigures.items).toEqual(
      rest.items.map((f: { key: string; deviation: string | null; summary: string }) => ({ key: f.key, deviation: f.deviation, summary: f.summary })),
    );
    expect(gql.data.referenceFigures.catalogVersion.label).toBe(rest.catalogVersion.label);
  });

  it('pages with a cursor without gaps or repeats, and the cursor pins the version', async () => {
    const filter = { gpu: 'h100-sxm-80gb' };
    const all = (
      await t
        .http()
        .get('/v1/offers')
        .query({ ...filter, limit: 500 })
        .expect(200)
    ).body.items.map((i: { id: string }) => i.id);
    expect(all.length).toBeGreaterThan(17 * 3);
    expect(all.length).toBeLessThan(500);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await t
        .http()
        .get('/v1/offers')
        .query({ ...filter, limit: 17, ...(cursor ? { cursor } : {}) })
        .expect(200);
      seen.push(...page.body.items.map((i: { id: string }) => i.id));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all);
    const first = await t
      .http()
      .get('/v1/offers')
      .query({ ...filter, limit: 5 })
      .expect(200);
    const mismatch = await t.http().get('/v1/offers').query({ limit: 5, gpu: 'l4-24gb', cursor: first.body.nextCursor }).expect(400);
    expect(mismatch.body.errors[0].field).toBe('cursor');
  });

  it('converts prices to EUR with the version FX rate', async () => {
    const usd = (await t.http().get('/v1/offers').query({ provider: 'aws', gpu: 'a10g-24gb', limit: 1 }).expect(200)).body.items[0];
    const eur = (await t.http().get('/v1/offers').query({ provider: 'aws', gpu: 'a10g-24gb', limit: 1, currency: 'EUR' }).expect(200)).body.items[0];
    expect(eur.id).toBe(usd.id);
    expect(eur.pricePerHour.currency).toBe('EUR');
    const versions = (await t.http().get('/v1/catalog/versions').expect(200)).body.items;
    const rate = Number(versions[0].fxRates.rates.find((r: { currency: string }) => r.currency === 'EUR').rate);
    expect(Number(eur.pricePerHour.amount)).toBeCloseTo(Number(usd.pricePerHour.amount) * rate, 3);
  });

  it('serves offers as CSV with FOCUS-style columns', async () => {
    const res = await t.http().get('/v1/offers').query({ gpu: 'l4-24gb', limit: 5 }).set('Accept', 'text/csv').expect(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const [header, ...rows] = res.text.trim().split('\r\n');
    expect(header?.split(',')).toEqual(expect.arrayContaining(['ListUnitPrice', 'PricingCategory', 'RegionId', 'SkuPriceId']));
    expect(rows).toHaveLength(5);
  });

  it('finds the cheapest H100 under GDPR_PERSONAL_DATA in the EEA only, names the cheaper excluded offers, and agrees with GraphQL to the cent', async () => {
    const query = { gpu: 'h100-sxm-80gb,h100-pcie-80gb', preset: 'GDPR_PERSONAL_DATA', explain: 'true', limit: 5 };
    const rest = (await t.http().get('/v1/offers/cheapest').query(query).expect(200)).body;
    expect(rest.items.length).toBeGreaterThan(0);
    for (const item of rest.items) expect(jurisdictionsOf(item.country)).toContain('EEA');
    expect(rest.items[0].complies.join(' ')).toMatch(/inside EEA/);
    expect(rest.excluded.length).toBeGreaterThan(0);
    const cheapestCompliant = Number(rest.items[0].pricePerGpuHour.amount);
    for (const e of rest.excluded) {
      expect(Number(e.offer.pricePerGpuHour.amount)).toBeLessThan(cheapestCompliant);
      expect(e.reasons.join(' ')).toMatch(/outside EEA/);
    }

    const gql = await t.graphql<{ cheapestOffers: { catalogVersion: { label: string }; items: unknown[]; excluded: { offer: unknown; reasons: string[] }[] } }>(
      `query($r: GpuRequirement!, $p: CompliancePolicyInput) {
        cheapestOffers(requirement: $r, policy: $p, limit: 5, explain: true) {
          catalogVersion { id label } items { ${OFFER_FIELDS} } excluded { offer { ${OFFER_FIELDS} } reasons }
        }
      }`,
      { r: { gpus: ['h100-sxm-80gb', 'h100-pcie-80gb'] }, p: { preset: 'GDPR_PERSONAL_DATA' } },
    );
    expect(gql.errors).toBeUndefined();
    const pick = (o: Record<string, unknown>) => ({ id: o.id, pricePerGpuHour: o.pricePerGpuHour, pricePerHour: o.pricePerHour, complies: o.complies });
    expect(gql.data.cheapestOffers.items.map((i) => pick(i as Record<string, unknown>))).toEqual(rest.items.map(pick));
    expect(gql.data.cheapestOffers.excluded.map((e) => [(e.offer as { id: string }).id, e.reasons])).toEqual(
      rest.excluded.map((e: { offer: { id: string }; reasons: string[] }) => [e.offer.id, e.reasons]),
    );
    expect(gql.data.cheapestOffers.catalogVersion.label).toBe(rest.catalogVersion.label);
  });

  it('returns only EU/EEA-headquartered operators under EU_SOVEREIGN', async () => {
    const rest = (await t.http().get('/v1/offers/cheapest').query({ gpu: 'h100-sxm-80gb,h100-pcie-80gb', preset: 'EU_SOVEREIGN', limit: 20 }).expect(200)).body;
    const providers = new Set(rest.items.map((i: { provider: string }) => i.provider));
    expect(providers.size).toBeGreaterThan(0);
    // The providers.yaml operators headquartered in the EU/EEA (FR, FR, DE, NL, FI, DE, IT); Hyperstack (GB) is not.
    const euOperators = ['ovhcloud', 'scaleway', 'hetzner', 'nebius', 'verda', 'stackit', 'seeweb'];
    expect([...providers].every((p) => euOperators.includes(p as string))).toBe(true);
  });

  it('never gives spot to INTOLERANT workloads and explains it', async () => {
    const rest = (await t.http().get('/v1/offers/cheapest').query({ gpu: 'h100-sxm-80gb', tolerance: 'INTOLERANT', explain: true, limit: 5 }).expect(200)).body;
    expect(rest.items.every((i: { pricingModel: string }) => i.pricingModel !== 'SPOT')).toBe(true);
    expect(rest.excluded.some((e: { reasons: string[] }) => e.reasons.includes('spot not allowed for INTOLERANT'))).toBe(true);
  });

  it('answers an impossible policy with no items and the nearest misses, not an error', async () => {
    const rest = (await t.http().get('/v1/offers/cheapest').query({ gpu: 'h100-sxm-80gb', countries: 'IS', limit: 5 }).expect(200)).body;
    expect(rest.items).toEqual([]);
    expect(rest.nearestMisses.length).toBeGreaterThan(0);
    expect(rest.nearestMisses[0].reasons.length).toBeGreaterThan(0);
  });

  it('turns a model to serve into a memory need per GPU with the estimator sizing', async () => {
    // Llama-3-70B at INT4 is ~37 GB of weights: more than a 40 GB A100 can hold with 10% reserve
    // and a KV cache, so the smallest acceptable GPUs are the 48 GB ones.
    const int4 = (await t.http().get('/v1/offers/cheapest').query({ model: 'llama-3-70b', precision: 'INT4', gpuCount: 1, limit: 100 }).expect(200)).body;
    expect(int4.items.length).toBeGreaterThan(0);
    expect(Math.min(...int4.items.map((i: { gpuMemoryGb: number }) => i.gpuMemoryGb))).toBe(48);
    // A custom 70-billion-parameter model at INT4 needs about as much.
    const custom = (await t.http().get('/v1/offers/cheapest').query({ parametersB: 70, precision: 'INT4', gpuCount: 1, limit: 100 }).expect(200)).body;
    expect(Math.min(...custom.items.map((i: { gpuMemoryGb: number }) => i.gpuMemoryGb))).toBe(48);
    await t.http().get('/v1/offers/cheapest').query({ model: 'llama-3-8b', parametersB: 8 }).expect(400);
    // At FP16 (141 GB of weights) only the 180 GB B200 and the 192 GB MI300X hold it on one GPU.
    // GraphQL's offer listing takes the same model filter and agrees with REST's.
    const restList = (await t.http().get('/v1/offers').query({ parametersB: 70, precision: 'INT4', gpuCount: 1, limit: 100 }).expect(200)).body;
    const gqlList = await t.graphql<{ offers: { items: { id: string }[] } }>(
      '{ offers(first: 100, filter: { gpuCount: 1, model: { parametersB: 70, precision: INT4 } }) { items { id } } }',
    );
    expect(gqlList.data.offers.items.map((i) => i.id)).toEqual(restList.items.map((i: { id: string }) => i.id));
    expect(restList.items.length).toBeGreaterThan(0);
    const fp16 = (await t.http().get('/v1/offers/cheapest').query({ model: 'llama-3-70b', precision: 'FP16', gpuCount: 1, limit: 100 }).expect(200)).body;
    expect(fp16.items.length).toBeGreaterThan(0);
    expect(new Set(fp16.items.map((i: { gpu: string }) => i.gpu))).toEqual(new Set(['b200-180gb', 'mi300x-192gb']));
    // With the GPU count fixed at one, a model that needs more memory than any GPU finds nothing, and that is not an error.
    const huge = (await t.http().get('/v1/offers/cheapest').query({ parametersB: 405, precision: 'FP16', gpuCount: 1 }).expect(200)).body;
    expect(huge.items).toEqual([]);
  });

  it.each([
    [{ gpuCount: '0' }, 'gpuCount'],
    [{ residency: 'MOON' }, 'residency'],
    [{ preset: 'NOPE' }, 'preset'],
    [{ gpu: 'h900' }, 'gpu'],
    [{ minSla: '120' }, 'minSla'],
    [{ preset: 'GDPR_PERSONAL_DATA', residency: 'ANY' }, 'residency'],
    [{ discounts: 'aws:abc' }, 'discounts'],
  ])('rejects %j with 400 naming %s', async (query, field) => {
    const res = await t.http().get('/v1/offers/cheapest').query(query).expect(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('rejects bad GraphQL input with BAD_USER_INPUT naming the field', async () => {
    const res = await t.graphql('{ cheapestOffers(requirement: { gpuCount: 0 }, policy: { preset: "GDPR_PERSONAL_DATA" }) { items { id } } }');
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(res.errors?.[0]?.extensions)).toContain('requirement.gpuCount');
    const policy = await t.graphql('{ cheapestOffers(requirement: { gpus: ["h100-sxm-80gb"] }, policy: { preset: "NOPE" }) { items { id } } }');
    expect(policy.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(policy.errors?.[0]?.extensions)).toContain('preset');
  });

  it('answers the example clients (examples/clients) on every operation, typed from the contract', async () => {
    const { callEveryOperation, cheapestGdprH100, gpuCostClient } = await import('../examples/clients/rest-client.js');
    const statuses = await callEveryOperation(gpuCostClient(t.baseUrl));
    const doc = JSON.parse(await readFile('openapi.json', 'utf8')) as { paths: Record<string, unknown> };
    expect(Object.keys(statuses).sort()).toEqual(Object.keys(doc.paths).sort());
    expect(Object.entries(statuses).filter(([, status]) => status !== 200)).toEqual([]);
    expect(await cheapestGdprH100(gpuCostClient(t.baseUrl))).toEqual({
      version: '2026-12-02',
      pricePerGpuHour: expect.stringMatching(/^\d+\.\d{4}$/) as unknown,
    });
    const { cheapestGdprH100: viaGraphql } = await import('../examples/clients/graphql-client.js');
    expect(await viaGraphql(`${t.baseUrl}/graphql`)).toMatch(/EUR\/GPU-hour, catalog 2026-12-02$/);
  });
});
