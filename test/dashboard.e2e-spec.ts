// The web dashboard in a real browser (Debian's Chromium through playwright-core) against the
// built service and PostgreSQL, under the Content-Security-Policy it is served with: what a person
// sees equals what /graphql answers, links reproduce views, the CSV is the table, API errors stand
// next to their fields, every view passes axe's serious and critical rules at desktop and phone
// widths, and nothing is refused by the CSP or logged as an error. Screenshots of every view land
// in test/screenshots/ (git-ignored).
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { parse } from 'csv-parse/sync';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, watchPage, type PageProblems } from './setup/browser.js';
import { cleanupSteps } from './setup/cleanup.js';
import { eventually } from './setup/eventually.js';
import { createTestServer, type TestServer } from './setup/test-app.js';

const SCREENSHOTS = 'test/screenshots';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
// EU-27 (Council of the EU's member list) and Iceland, Liechtenstein, Norway: the EEA, typed here
// rather than taken from the service's own jurisdiction lists.
const EEA = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO'.split(' '));
// helmet 8's default policy narrowed as app.setup.ts says (no https: sources, connect-src 'self', no
// upgrade-insecure-requests); the service sends it with every answer, the dashboard's included.
const SERVICE_CSP =
  "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;" +
  "object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self'";

/** A displayed amount ("1,234.5678") as a number. */
const shown = (text: string): number => Number(text.replace(/[^\d.-]/g, ''));

describe('Dashboard', () => {
  let server: TestServer;
  let browser: Browser;
  const open: { context: BrowserContext; problems: PageProblems; page: Page }[] = [];

  beforeAll(async () => {
    // Both start at once; whichever started is kept for afterAll even when the other failed.
    const [started, launched] = await Promise.allSettled([createTestServer(), launchChromium()]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    for (const result of [started, launched]) if (result.status === 'rejected') throw result.reason;
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    const step = cleanupSteps('dashboard.e2e');
    await step('the browser', async () => browser?.close());
    await step('the server', async () => server?.stop());
  });

  async function newPage(viewport = DESKTOP): Promise<{ page: Page; problems: PageProblems }> {
    const context = await browser.newContext({ viewport, acceptDownloads: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const problems = await watchPage(page);
    open.push({ context, page, problems });
    return { page, problems };
  }

  // Every page a test opened: no console error, no uncaught exception, no failed request, no CSP
  // violation (a failure here fails the test that opened the page).
  afterEach(async () => {
    const pages = open.splice(0);
    try {
      for (const { page, problems } of pages) {
        const found = {
          console: problems.console,
          pageErrors: problems.pageErrors,
          failed: problems.failedRequests,
          csp: await problems.cspViolations(),
        };
        if (Object.values(found).some((list) => list.length)) throw new Error(`${page.url()} had problems: ${JSON.stringify(found, null, 2)}`);
      }
    } finally {
      for (const { context } of pages) await context.close();
    }
  });

  const url = (hash: string) => `${server.baseUrl}/${hash}`;

  it("is served at / with the service's CSP, its files pre-compressed, and leaves the API routes as they were", async () => {
    const page = await server.http().get('/').set('accept-encoding', 'identity');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBe(SERVICE_CSP);
    expect((await server.http().get('/v1/gpus')).headers['content-security-policy']).toBe(SERVICE_CSP);
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(page.text)?.[1];
    expect(script).toMatch(/^\/assets\/.+\.js$/);
    const br = await server
      .http()
      .get(script ?? '')
      .set('accept-encoding', 'br, gzip');
    expect([br.status, br.headers['content-encoding'], br.headers['cache-control']]).toEqual([200, 'br', 'public, max-age=31536000, immutable']);
    // The API answers as before: JSON health, problem+json 404s, GraphQL.
    expect((await server.http().get('/health/live')).status).toBe(200);
    const missing = await server.http().get('/v1/no-such-route');
    expect([missing.status, missing.headers['content-type']]).toEqual([404, expect.stringContaining('application/problem+json')]);
    expect((await server.http().get('/no-such-file.js')).status).toBe(404);
    expect((await server.graphql('{ catalogVersions { label } }')).status).toBe(200);
  });

  it('Offers: the GDPR preset shows only EEA offers and lists the cheaper excluded ones with their reasons', async () => {
    const { page } = await newPage();
    await page.goto(url('#/offers'));
    await page.getByLabel('Policy preset').selectOption('GDPR_PERSONAL_DATA');
    await page.getByRole('checkbox', { name: 'H100 SXM 80GB' }).check();
    // Providers to filter by are those with offers in the version: Hetzner (monthly servers) and Vast.ai (a market) among them.
    expect(await page.getByRole('checkbox', { name: 'Amazon Web Services' }).count()).toBe(1);
    expect(await page.getByRole('checkbox', { name: 'Hetzner Online' }).count()).toBe(1);
    expect(await page.getByRole('checkbox', { name: 'Vast.ai' }).count()).toBe(1);
    await page.getByLabel('Show cheaper excluded offers and why').check();
    await page.getByRole('button', { name: 'Show offers' }).click();
    await page.locator('[data-testid="excluded-table"]').waitFor();
    await settled(page);

    const countries = await page.locator('[data-testid="offers-table"] tbody tr td:nth-child(3)').allInnerTexts();
    expect(countries.length).toBeGreaterThan(0);
    for (const c of countries) expect(EEA.has(c.replace(/[^A-Z]/g, ''))).toBe(true);
    const gpus = await page.locator('[data-testid="offers-table"] tbody tr td:nth-child(5)').allInnerTexts();
    expect(new Set(gpus)).toEqual(new Set(['h100-sxm-80gb']));

    const cheapestCompliant = Math.min(...(await page.locator('[data-testid="offers-table"] tbody td[data-amount]').evaluateAll(amounts)));
    const excluded = page.locator('[data-testid="excluded-table"] tbody tr');
    expect(await excluded.count()).toBeGreaterThan(0);
    for (const row of await excluded.all()) {
      const price = shown(await row.locator('td[data-amount]').innerText());
      expect(price).toBeLessThan(cheapestCompliant);
      const country = (await row.locator('td').nth(2).innerText()).replace(/[^A-Z]/g, '');
      const reasons = await row.locator('ul.reasons li').allInnerTexts();
      expect(reasons.length).toBeGreaterThan(0);
      // Outside the EEA, the reason says so.
      if (!EEA.has(country)) expect(reasons.join(' ')).toContain(`in ${country}, outside EEA`);
    }
    // The form went into the address.
    expect(new URL(page.url()).hash).toBe('#/offers?gpus=h100-sxm-80gb&preset=GDPR_PERSONAL_DATA&explain=1');
  });

  it("Offers: provider-data-only and confirmed-only go into the policy; each row's source kind, availability and the FX rate are /graphql's", async () => {
    const { page } = await newPage();
    const sent = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('"requireConfirmedAvailability":true'));
    await page.goto(url('#/offers?gpus=h100-sxm-80gb&currency=EUR&minSource=MIRROR&confirmed=1'));
    const body = JSON.parse((await sent).postData() ?? '{}') as { query: string; variables: { policy: Record<string, unknown> } };
    await page.locator('[data-testid="offers-table"] tbody tr').first().waitFor();
    await settled(page);
    expect(body.variables.policy).toEqual(expect.objectContaining({ minSourceKind: 'MIRROR', requireConfirmedAvailability: true }));
    const direct = await server.graphql<{
      cheapestOffers: { items: { sourceKind: string | null; availability: string }[]; exchangeRate: { rate: string; date: string } | null };
    }>(body.query, body.variables);
    expect(direct.errors).toBeUndefined();
    const { items, exchangeRate } = direct.data.cheapestOffers;
    expect(items.length).toBeGreaterThan(0);
    const words = { PROVIDER_API: "provider's API", PROVIDER_PAGE: "provider's page", MIRROR: 'mirror of the provider' } as Record<string, string>;
    const cells = await page.locator('[data-testid="offers-table"] tbody td.provenance').all();
    const shown = [];
    for (const cell of cells)
      shown.push([await cell.getAttribute('data-source-kind'), await cell.getAttribute('data-availability'), (await cell.innerText()).split('\n')[0]]);
    // Sorted by price as the API ranks them: the same rows in the same order, the link named by its kind.
    expect(shown).toEqual(items.map((o) => [o.sourceKind, 'CONFIRMED', words[o.sourceKind ?? '']]));
    // The provenance cell is on screen at 1280 px, not scrolled off to the right.
    const box = await cells[0]?.boundingBox();
    expect((box?.x ?? Infinity) + (box?.width ?? 0)).toBeLessThanOrEqual(1280);
    expect(await page.getByTestId('exchange-rate').innerText()).toContain(`1 USD = ${exchangeRate?.rate} EUR (rate of ${exchangeRate?.date})`);
  });

  it('Offers: the CSV download is the table as shown, in its order, and the table sorts from the keyboard', async () => {
    const { page } = await newPage();
    await page.goto(url('#/offers?gpus=l4-24gb,t4-16gb&preset=GDPR_PERSONAL_DATA&limit=30'));
    await page.locator('[data-testid="offers-table"] tbody tr').first().waitFor();
    // Sort by provider with the keyboard: focus the column's button, Enter.
    await page.getByRole('button', { name: 'Provider' }).focus();
    await page.keyboard.press('Enter');
    await waitForAttribute(page.locator('th', { has: page.getByRole('button', { name: 'Provider' }) }), 'aria-sort', 'ascending');

    const rows = await page.locator('[data-testid="offers-table"] tbody tr').all();
    const table = [];
    for (const row of rows) {
      const cells = await row.locator('td').allInnerTexts();
      table.push({
        provider: cells[0],
        region: cells[1],
        country: cells[2]?.replace(/[^A-Z]/g, ''),
        instance: cells[3],
        gpu: cells[4],
        gpus: cells[5],
        price: shown(cells[6] ?? ''),
        observed: await row.locator('td.provenance').getAttribute('data-observed'),
        source: await row.locator('td a').getAttribute('href'),
      });
    }
    expect(table.length).toBe(30);
    expect(table.map((r) => r.provider)).toEqual([...table.map((r) => r.provider)].sort((a, b) => (a ?? '').localeCompare(b ?? '')));

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV of this table' }).click()]);
    const csv: Record<string, string>[] = parse(await readFile(await download.path(), 'utf8'), { columns: true });
    expect(download.suggestedFilename()).toMatch(/^offers-.+\.csv$/);
    expect(
      csv.map((r) => ({
        provider: r.Provider,
        region: r.Region,
        country: r.Country,
        instance: r.Instance,
        gpu: r.GPU,
        gpus: r.GPUs,
        price: Number(r['Price per GPU-hour (USD)']),
        observed: r.Observed,
        source: r.Source,
      })),
    ).toEqual(table);
  });

  it("Offers: a discount typed in goes into the request, and the prices shown are /graphql's answer with it", async () => {
    const { page } = await newPage();
    await page.goto(url('#/offers?gpus=h100-sxm-80gb&limit=20'));
    await page.locator('[data-testid="offers-table"] tbody tr').first().waitFor();
    await settled(page);
    const before = await offerRows(page);
    const first = before[0];
    if (!first) throw new Error('no offer shown');

    await page.getByRole('button', { name: 'Add a discount' }).click();
    await page.getByLabel('Provider (discount 1)').fill(first.provider);
    await page.getByLabel('Percent off (discount 1)').fill('20');
    const sent = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('"discounts"'));
    await page.getByRole('button', { name: 'Show offers' }).click();
    const body = JSON.parse((await sent).postData() ?? '{}') as { query: string; variables: Record<string, unknown> };
    await settled(page);
    expect(body.variables.discounts).toEqual([{ provider: first.provider, percent: 20 }]);
    expect(new URL(page.url()).hash).toContain(`discounts=${first.provider}%3A20`);

    const after = await offerRows(page);
    const direct = await server.graphql<{ cheapestOffers: { items: { provider: string; instanceType: string; region: string; pricePerGpuHour: Money }[] } }>(
      body.query,
      body.variables,
    );
    expect(direct.errors).toBeUndefined();
    expect(after).toEqual(
      direct.data.cheapestOffers.items.map((o) => ({
        provider: o.provider,
        instance: o.instanceType,
        region: o.region,
        price: Number(o.pricePerGpuHour.amount),
      })),
    );
    // By hand: 20 % off is four fifths of the list price shown before (to the answer's 4 places).
    const same = after.find((r) => r.provider === first.provider && r.instance === first.instance && r.region === first.region);
    expect(same?.price).toBeCloseTo(first.price * 0.8, 4);
  });

  it('Offers: an unknown provider typed into "Exclude providers" shows the API\'s error next to that field', async () => {
    const { page } = await newPage();
    await page.goto(url('#/offers'));
    await settled(page);
    await page.getByLabel('Exclude providers').fill('nosuchcloud');
    const sent = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('nosuchcloud'));
    await page.getByRole('button', { name: 'Show offers' }).click();
    const body = JSON.parse((await sent).postData() ?? '{}') as { query: string; variables: Record<string, unknown> };
    const message = page.locator('#offer-exclude-providers-error');
    await message.waitFor();
    expect(body.variables.policy).toEqual({ excludeProviders: ['nosuchcloud'] });

    const direct = await server.graphql(body.query, body.variables);
    const refusal = direct.errors?.[0] as { extensions?: { code?: string; errors?: { field: string; message: string }[] } } | undefined;
    expect(refusal?.extensions?.code).toBe('BAD_USER_INPUT');
    const named = refusal?.extensions?.errors ?? [];
    expect(named.map((e) => e.field)).toEqual(['excludeProviders']);
    expect(named[0]?.message).toMatch(/^unknown provider "nosuchcloud"; closest known: /);
    expect(await message.innerText()).toBe(named[0]?.message);
    const input = page.getByLabel('Exclude providers');
    expect([await input.getAttribute('aria-invalid'), await input.getAttribute('aria-describedby')]).toEqual([
      'true',
      'offer-exclude-providers-hint offer-exclude-providers-error',
    ]);
    expect(await page.locator('[data-field-error]').count()).toBe(1);
  });

  it('Estimate: the chart is drawn and the numbers on the page are those /graphql answers for the same query', async () => {
    const { page } = await newPage();
    await page.goto(url('#/estimate'));
    await page.locator('[data-testid="plan"]').waitFor();
    // A business-hours day without spot: a plan whose cost, autoscaled and naive baselines all differ.
    await page.getByLabel('Shape').selectOption('business');
    await page.getByLabel('Peak requests/s').fill('150');
    await page.getByRole('button', { name: 'Fill the 24 hours' }).click();
    await page.getByLabel('Interruption tolerance').selectOption('INTOLERANT');
    const sent = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('"tolerance":"INTOLERANT"'));
    await page.getByRole('button', { name: 'Estimate', exact: true }).click();
    const body = JSON.parse((await sent).postData() ?? '{}') as { query: string; variables: { input: Record<string, unknown> } };
    await settled(page);
    // What the form holds is what was asked: 150 requests/s from 09:00 to 17:00, 15 otherwise.
    expect(body.variables.input).toEqual(
      expect.objectContaining({
        model: { preset: 'llama-3-8b' },
        gpus: ['l4-24gb', 'l40s-48gb', 'a10g-24gb'],
        policy: { tolerance: 'INTOLERANT' },
        workload: {
          avgInputTokens: 500,
          avgOutputTokens: 200,
          batchShare: 0.1,
          hourlyProfile: Array.from({ length: 24 }, (_, h) => (h >= 9 && h < 17 ? 150 : 15)),
        },
      }),
    );

    const direct = await server.graphql<{ estimate: DirectEstimate }>(body.query, body.variables);
    expect(direct.errors).toBeUndefined();
    const e = direct.data.estimate;
    const naive = e.baselines.naive?.monthlyCost.amount;
    const autoscaled = e.baselines.onDemandAutoscaled?.monthlyCost.amount;
    // The figures below can only be told apart if they differ.
    expect(new Set([e.monthlyCost.amount, naive, autoscaled]).size).toBe(3);
    expect(e.tiers.length).toBeGreaterThan(1);
    expect(shown(await page.getByTestId('monthly-cost').innerText())).toBe(Number(e.monthlyCost.amount));
    expect(await page.getByTestId('plan-version').innerText()).toBe(e.catalogVersion.label);
    expect(e.tiers.length).toBeGreaterThan(0);
    for (const t of e.tiers) expect(shown(await page.getByTestId(`tier-cost-${t.pricingModel}`).innerText())).toBe(Number(t.cost.amount));
    expect(shown(await page.getByTestId('baseline-naive').innerText())).toBe(Number(naive));
    expect(shown(await page.getByTestId('baseline-autoscaled').innerText())).toBe(Number(autoscaled));
    expect(shown(await page.getByTestId('savings-naive').innerText())).toBe(e.savingsVsNaivePct);
    expect(shown(await page.getByTestId('savings-autoscaled').innerText())).toBe(e.savingsVsOnDemandAutoscaledPct);
    expect(shown(await page.getByTestId('unit-1m').innerText())).toBe(Number(e.unitEconomics.costPer1MOutputTokens?.amount));
    expect(shown(await page.getByTestId('unit-1k').innerText())).toBe(Number(e.unitEconomics.costPer1kRequests?.amount));
    expect(await page.locator('[data-testid="chosen-offers"] tbody tr').count()).toBe(e.chosenOffers.length);
    // Without spot, no offer has an interruption rate: the column shows a dash.
    expect(e.chosenOffers.every((o) => o.interruptionsPerHour === null)).toBe(true);
    await expectInterruptionCells(page, e.chosenOffers);
    expect(await page.locator('[data-testid="assumptions"] li').allInnerTexts()).toEqual(e.assumptions);
    // The hourly table holds the 24 hours as answered.
    await page.getByText('Hourly plan as a table').click();
    const demand = await page.locator('[data-testid="hourly-table"] tbody tr td:nth-child(3)').allInnerTexts();
    expect(demand.map(Number)).toEqual(e.hourlyPlan.map((h) => h.replicasNeeded));
    // Both charts were drawn: their canvases hold coloured pixels.
    for (const id of ['hourly-chart', 'tier-chart']) expect(await paintedPixels(page, id)).toBeGreaterThan(2000);
  });

  it('Offers: the carbon column holds /graphql carbon per GPU-hour, and the grid filter goes into the policy (docs/carbon.md)', async () => {
    const { page } = await newPage();
    const sent = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('"maxGridIntensity":50'));
    await page.goto(url('#/offers?gpus=h100-sxm-80gb&maxGrid=50'));
    const body = JSON.parse((await sent).postData() ?? '{}') as { query: string; variables: { policy: Record<string, unknown> } };
    await page.locator('[data-testid="offers-table"] tbody tr').first().waitFor();
    await settled(page);
    const direct = await server.graphql<{ cheapestOffers: { items: { carbon: number | null; gridIntensity: number | null }[] } }>(body.query, body.variables);
    const items = direct.data.cheapestOffers.items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((o) => o.gridIntensity !== null && o.gridIntensity <= 50)).toBe(true);
    const cells = await page
      .locator('[data-testid="offers-table"] tbody td[data-carbon]')
      .evaluateAll((tds) => tds.map((td) => td.getAttribute('data-carbon')));
    expect(cells).toEqual(items.map((o) => String(o.carbon ?? '')));
  });

  it('Estimate: optimize for carbon goes into the request; the cost-against-carbon chart is drawn with the plans /graphql answers', async () => {
    const { page } = await newPage();
    await page.goto(url('#/estimate'));
    await page.locator('[data-testid="plan"]').waitFor();
    await page.getByLabel('Optimize for').selectOption('CARBON');
    const sent = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('"optimizeFor":"CARBON"'));
    await page.getByRole('button', { name: 'Estimate', exact: true }).click();
    const body = JSON.parse((await sent).postData() ?? '{}') as { query: string; variables: { input: Record<string, unknown> } };
    await settled(page);
    const direct = await server.graphql<{ estimate: { carbon: { kgCo2ePerMonth: number | null; otherPlan: { kgCo2ePerMonth: number | null } | null } } }>(
      body.query,
      body.variables,
    );
    expect(direct.errors).toBeUndefined();
    const c = direct.data.estimate.carbon;
    expect(c.kgCo2ePerMonth).not.toBeNull();
    expect(shown(await page.getByTestId('plan-kg').innerText())).toBeCloseTo(c.kgCo2ePerMonth ?? NaN, 1);
    expect(await page.locator('[data-testid="carbon-table"] tbody tr').count()).toBe(c.otherPlan ? 2 : 1);
    expect(await paintedPixels(page, 'carbon-chart')).toBeGreaterThan(100);
  });

  it('Estimate: the default is an 8B model on its GPU class; its plan, why it looks so, and where its prices come from are those /graphql answers', async () => {
    const { page } = await newPage();
    const sent = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('EstimateInput'));
    await page.goto(url('#/estimate'));
    const body = JSON.parse((await sent).postData() ?? '{}') as { query: string; variables: { input: Record<string, unknown> } };
    await page.locator('[data-testid="plan"]').waitFor();
    await settled(page);
    const direct = await server.graphql<{ estimate: DirectEstimate }>(body.query, body.variables);
    expect(direct.errors).toBeUndefined();
    const e = direct.data.estimate;
    // A model and a GPU class that belong together, with baselines priced on demand.
    expect(['l4-24gb', 'l40s-48gb', 'a10g-24gb']).toContain(e.gpu);
    expect([e.baselines.naive, e.baselines.onDemandAutoscaled].every((b) => b !== null)).toBe(true);
    expect(e.warnings.filter((w) => w.startsWith('no compliant on-demand offer'))).toEqual([]);
    expect(await page.locator('[data-testid="explanations"] li').allInnerTexts()).toEqual(e.explanations);
    // Each chosen offer says whether its availability is confirmed and what kind of source its price is from.
    const rows = page.locator('[data-testid="chosen-offers"] tbody tr');
    for (const [i, o] of e.chosenOffers.entries()) {
      const cells = await rows.nth(i).locator('td').allInnerTexts();
      expect(cells[9]).toBe(o.availability === 'CONFIRMED' ? 'confirmed' : 'unconfirmed');
      expect(cells[10]).toMatch(o.sourceKind === 'PROVIDER_API' ? /^provider's API/ : o.sourceKind === 'MIRROR' ? /^mirror of the provider/ : /./);
    }
  });

  it('Estimate: a week profile goes out as weeklyProfile, and the plan, chart and table follow its 168 hours', async () => {
    const { page } = await newPage();
    await page.goto(url('#/estimate'));
    await page.locator('[data-testid="plan"]').waitFor();
    await page.getByLabel('Period').selectOption('week');
    await page.getByLabel('Shape').selectOption('business');
    await page.getByLabel('Peak requests/s').fill('100');
    await page.getByRole('button', { name: 'Fill the 168 hours' }).click();
    // Saturday 10:00 of a business week: the weekend at 30 % of the weekday peak.
    expect(await page.getByRole('group', { name: 'Sat' }).getByLabel('Requests per second on Sat at 10:00').inputValue()).toBe('30');
    const sent = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('"weeklyProfile"'));
    await page.getByRole('button', { name: 'Estimate', exact: true }).click();
    const body = JSON.parse((await sent).postData() ?? '{}') as { query: string; variables: { input: { workload: Record<string, unknown> } } };
    await settled(page);
    const week = body.variables.input.workload['weeklyProfile'] as number[];
    expect(week).toHaveLength(168);
    expect(body.variables.input.workload['hourlyProfile']).toBeUndefined();
    // Monday 10:00 is the peak, Monday 03:00 a tenth of it, Sunday 10:00 the weekend's 30 %.
    expect([week[10], week[3], week[6 * 24 + 10]]).toEqual([100, 10, 30]);
    const direct = await server.graphql<{ estimate: DirectEstimate }>(body.query, body.variables);
    expect(direct.errors).toBeUndefined();
    const e = direct.data.estimate;
    expect(e.periodHours).toBe(168);
    expect(shown(await page.getByTestId('monthly-cost').innerText())).toBe(Number(e.monthlyCost.amount));
    await page.getByText('Hourly plan as a table').click();
    const rows = page.locator('[data-testid="hourly-table"] tbody tr');
    expect(await rows.count()).toBe(168);
    expect(await rows.nth(130).locator('td').first().innerText()).toBe('Sat 10h');
    const demand = await page.locator('[data-testid="hourly-table"] tbody tr td:nth-child(3)').allInnerTexts();
    expect(demand.map(Number)).toEqual(e.hourlyPlan.map((h) => h.replicasNeeded));
    expect(await paintedPixels(page, 'hourly-chart')).toBeGreaterThan(2000);
  });

  it('Estimate: a spot offer shows its interruption rate and where it came from, as /graphql answers', async () => {
    const { page } = await newPage();
    await page.goto(url('#/estimate'));
    await page.locator('[data-testid="plan"]').waitFor();
    await page.getByLabel('Interruption tolerance').selectOption('TOLERANT');
    const sent = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('"tolerance":"TOLERANT"'));
    await page.getByRole('button', { name: 'Estimate', exact: true }).click();
    const body = JSON.parse((await sent).postData() ?? '{}') as { query: string; variables: { input: Record<string, unknown> } };
    await settled(page);
    const direct = await server.graphql<{ estimate: DirectEstimate }>(body.query, body.variables);
    expect(direct.errors).toBeUndefined();
    const offers = direct.data.estimate.chosenOffers;
    expect(offers.some((o) => o.interruptionsPerHour !== null)).toBe(true);
    await expectInterruptionCells(page, offers);
  });

  it('Estimate: a shared URL reproduces the plan, pinned to the catalog version it used', async () => {
    const { page } = await newPage();
    await page.goto(url('#/estimate'));
    await page.getByLabel('Output tokens per request').fill('320');
    await page.getByLabel('Shape').selectOption('business');
    await page.getByLabel('Peak requests/s').fill('150');
    await page.getByRole('button', { name: 'Fill the 24 hours' }).click();
    await page.getByLabel('Requests per second at 12:00').fill('175');
    await page.getByRole('button', { name: 'Estimate', exact: true }).click();
    await settled(page);
    await page.locator('[data-testid="plan"]').waitFor();
    const cost = await page.getByTestId('monthly-cost').innerText();
    const version = await page.getByTestId('plan-version').innerText();
    const shared = page.url();
    expect(new URL(shared).hash).toContain(`version=${version}`);
    expect(new URL(shared).hash).toContain('output=320');

    const { page: other } = await newPage(PHONE);
    await other.goto(shared);
    await other.locator('[data-testid="plan"]').waitFor();
    expect(await other.getByTestId('monthly-cost').innerText()).toBe(cost);
    expect(await other.getByTestId('plan-version').innerText()).toBe(version);
    expect(await other.getByLabel('Output tokens per request').inputValue()).toBe('320');
    expect(await other.getByLabel('Requests per second at 12:00').inputValue()).toBe('175');
    expect(await other.getByLabel('Requests per second at 3:00').inputValue()).toBe('15');
  });

  it('Estimate: a discount, an API price and a measured throughput go into the request, and the page shows the answer to it', async () => {
    const { page } = await newPage();
    await page.goto(url('#/estimate'));
    await page.locator('[data-testid="plan"]').waitFor();
    await settled(page);
    const provider = await page.locator('[data-testid="chosen-offers"] tbody tr td:nth-child(2)').first().innerText();

    await page.getByRole('button', { name: 'Add a discount' }).click();
    await page.getByLabel('Provider (discount 1)').fill(provider);
    await page.getByLabel('Percent off (discount 1)').fill('25');
    await page.getByLabel('Hosted API price per 1M tokens').fill('0.60');
    await page.getByRole('button', { name: 'Add a measurement' }).click();
    await page.getByLabel('Output tokens/s (measurement 1)').fill('2500');
    const sent = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('"discounts"'));
    await page.getByRole('button', { name: 'Estimate', exact: true }).click();
    const body = JSON.parse((await sent).postData() ?? '{}') as { query: string; variables: { input: Record<string, unknown> } };
    await settled(page);
    expect(body.variables.input).toEqual(
      expect.objectContaining({
        discounts: [{ provider, percent: 25 }],
        apiPricePer1MTokens: '0.60',
        measuredThroughput: [{ outputTokensPerSecond: 2500 }],
      }),
    );
    expect(new URL(page.url()).hash).toContain(`discounts=${provider}%3A25`);

    const direct = await server.graphql<{ estimate: DirectEstimate & { apiComparison: { monthlyApiCost: Money } | null } }>(body.query, body.variables);
    expect(direct.errors).toBeUndefined();
    const e = direct.data.estimate;
    expect(shown(await page.getByTestId('monthly-cost').innerText())).toBe(Number(e.monthlyCost.amount));
    expect(shown(await page.getByTestId('api-monthly').innerText())).toBe(Number(e.apiComparison?.monthlyApiCost.amount));
  });

  it('Estimate: rent-or-buy figures go out as owned, and the panel shows the owned cost and crossover POST /v1/estimates answers', async () => {
    const { page } = await newPage();
    // H100s, as in the example server (docs/cost-model.md#rent-or-buy); under GDPR without spot the
    // plan reserves its base load and rents its peaks on demand, so every comparison has a figure.
    await page.goto(url('#/estimate?gpus=h100-sxm-80gb&tolerance=INTOLERANT&preset=GDPR_PERSONAL_DATA'));
    await page.locator('[data-testid="plan"]').waitFor();
    await settled(page);
    expect(await page.getByTestId('rent-or-buy').count()).toBe(0);
    await page.getByLabel('Server price (USD)').fill('240000');
    await page.getByLabel('GPUs per server').fill('8');
    await page.getByLabel('Electricity (USD/kWh)').fill('0.10');
    await page.getByLabel('Colocation (USD per kW-month)').fill('150');
    const sent = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('"owned"'));
    await page.getByRole('button', { name: 'Estimate', exact: true }).click();
    const body = JSON.parse((await sent).postData() ?? '{}') as { variables: { input: Record<string, unknown> } };
    await page.getByTestId('rent-or-buy').waitFor();
    await settled(page);
    expect(body.variables.input['owned']).toEqual({ serverPriceUsd: '240000', electricityUsdPerKwh: '0.10', colocationUsdPerKwMonth: '150', gpusPerServer: 8 });
    expect(new URL(page.url()).hash).toContain('serverPrice=240000&electricity=0.10&colocation=150');

    const answer = (await server.http().post('/v1/estimates').send(body.variables.input).expect(200)).body as { owned: OwnedAnswer | null };
    const o = answer.owned;
    if (!o) throw new Error('no owned section in the answer');
    expect(o.crossoverUtilization).not.toBeNull();
    const text = (testId: string) => page.getByTestId(testId).innerText();
    expect(await text('owned-monthly')).toBe(
      `${Number(o.monthlyCost.amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 })} ${o.monthlyCost.currency}`,
    );
    for (const part of ['depreciation', 'capital', 'power', 'colocation', 'operations'] as const)
      expect(shown(await text(`owned-${part}`))).toBe(Number(o[part].amount));
    expect(shown(await text('owned-reserved'))).toBe(Number(o.reservedMonthlyCost?.amount));
    expect(shown(await text('owned-on-demand'))).toBe(Number(o.onDemandMonthlyCost?.amount));
    expect(await text('owned-cheaper')).toBe(o.cheaperThanReserved ? 'owning' : 'reserving');
    expect(await text('owned-crossover')).toBe(`${((o.crossoverUtilization ?? NaN) * 100).toFixed(1)} %`);
    expect(await text('owned-servers')).toMatch(new RegExp(`^${o.servers} servers?, ${o.gpus} GPUs? `));
    expect(await text('owned-payback')).toContain(o.paybackMonths === null ? 'never' : `${o.paybackMonths} months`);
    expect(await text('owned-server-price')).toContain('(yours)');

    // A site alone: the API's sourced defaults price the servers and the site's grid gives the carbon.
    for (const label of ['Server price (USD)', 'Electricity (USD/kWh)', 'Colocation (USD per kW-month)']) await page.getByLabel(label).fill('');
    await page.getByLabel('Site (DE, or US-VA)').fill('de');
    const bySite = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('"site"'));
    await page.getByRole('button', { name: 'Estimate', exact: true }).click();
    const siteBody = JSON.parse((await bySite).postData() ?? '{}') as { variables: { input: Record<string, unknown> } };
    expect(siteBody.variables.input['owned']).toEqual({ site: 'DE', gpusPerServer: 8 });
    await page.getByTestId('owned-carbon').filter({ hasText: 'kg CO2e' }).waitFor();
    const sited = (await server.http().post('/v1/estimates').send(siteBody.variables.input).expect(200)).body as {
      owned: { kgCo2ePerMonth: number; serverPrice: { amount: string } };
    };
    expect(await text('owned-carbon')).toBe(`${sited.owned.kgCo2ePerMonth.toLocaleString('en-US')} kg CO2e`);
    expect(await text('owned-server-price')).toContain('(sourced default)');
    expect(shown(await text('owned-server-price'))).toBe(Number(sited.owned.serverPrice.amount));
  });

  it('shows an API error next to the field it names', async () => {
    const { page } = await newPage();
    await page.goto(url('#/estimate'));
    await page.locator('[data-testid="plan"]').waitFor();
    await page.getByLabel('Batch share (0 to <1)').fill('1');
    await page.getByRole('button', { name: 'Estimate', exact: true }).click();
    const message = page.locator('#est-batch-error');
    await message.waitFor();
    expect(await message.innerText()).toBe('must be less than 1');
    const input = page.getByLabel('Batch share (0 to <1)');
    expect([await input.getAttribute('aria-invalid'), await input.getAttribute('aria-describedby')]).toEqual(['true', 'est-batch-error']);
    // Only that field is marked.
    expect(await page.locator('[data-field-error]').count()).toBe(1);

    await page.goto(url('#/offers?maxPrice=abc'));
    await page.locator('#offer-max-price-error').waitFor();
    expect(await page.locator('#offer-max-price-error').innerText()).toBe('must be a decimal number such as 4.00');
  });

  it('Measured: an uploaded range answer and a pasted one give the heatmap, the waste and the plan /graphql answers for the same input', async () => {
    const { page } = await newPage();
    await page.goto(url('#/measured'));
    const example = JSON.parse(await readFile('examples/estimate-measured.json', 'utf8')) as {
      measurements: { traffic: { prometheus: string }; utilization: { prometheus: string } };
    };
    // The traffic from a file, the utilization pasted.
    await page
      .getByLabel('Traffic (requests/s or output tokens/s): upload a file')
      .setInputFiles({ name: 'traffic.json', mimeType: 'application/json', buffer: Buffer.from(example.measurements.traffic.prometheus) });
    await eventually(async () => expect(await page.locator('#meas-traffic').inputValue()).toBe(example.measurements.traffic.prometheus), 10_000);
    await page.getByLabel('GPU utilization (DCGM_FI_DEV_GPU_UTIL, %)', { exact: true }).fill(example.measurements.utilization.prometheus);
    await page.getByLabel('GPUs in the fleet').fill('2');
    await page.getByLabel('Time zone (IANA)').fill('Europe/Berlin');
    await page.getByLabel('Policy preset').selectOption('GDPR_PERSONAL_DATA');
    const sent = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('"measurements"'));
    await page.getByRole('button', { name: 'Compare with the plan' }).click();
    const body = JSON.parse((await sent).postData() ?? '{}') as { query: string; variables: { input: { measurements: Record<string, unknown> } } };
    await page.getByTestId('measured').waitFor();
    await settled(page);
    // What went out is what was uploaded and pasted, as range answers, and the fleet typed in.
    expect(body.variables.input.measurements).toEqual({
      traffic: { prometheus: example.measurements.traffic.prometheus, unit: 'REQUESTS_PER_SECOND' },
      utilization: { prometheus: example.measurements.utilization.prometheus },
      timezone: 'Europe/Berlin',
      fleet: { gpu: 'h100-sxm-80gb', count: 2, provider: 'aws', region: 'eu-north-1', pricingModel: 'ON_DEMAND' },
    });

    const direct = await server.graphql<{ estimate: MeasuredEstimate }>(body.query, body.variables);
    expect(direct.errors).toBeUndefined();
    const e = direct.data.estimate;
    const u = e.measured.utilization;
    const f = e.measured.fleet;
    await expectMeasuredFigures(page, e.measured);
    expect(shown(await page.getByTestId('plan-cost').innerText())).toBe(Number(e.gpuCost.amount));
    expect(shown((await page.getByTestId('saving').innerText()).split(' (')[0] ?? '')).toBe(Number(f.saving.amount));
    for (const t of e.tiers) expect(shown(await page.getByTestId(`measured-tier-${t.pricingModel}`).innerText())).toBe(Number(t.cost.amount));
    // The heatmap: 7 × 24 cells, each stating the API's figure for its hour of the week.
    const cells = page.getByTestId('heatmap').locator('td[data-hour]');
    expect(await cells.count()).toBe(168);
    for (const hour of [0, 10, 60, 130, 167]) {
      const pct = u.byHourOfWeek[hour];
      expect(await cells.nth(hour).innerText()).toBe(pct === null || pct === undefined ? '–' : String(Math.round(pct)));
    }
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  });

  it('Measured: "Load the example" fills the fields from the README\'s measured example and shows what POST /v1/estimates answers for that file', async () => {
    const { page } = await newPage();
    await page.goto(url('#/measured'));
    const example = JSON.parse(await readFile('examples/estimate-measured.json', 'utf8')) as {
      currency: string;
      policy: { preset: string };
      measurements: { traffic: { prometheus: string }; utilization: { prometheus: string }; timezone: string; fleet: Record<string, unknown> };
    };
    const sent = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('"measurements"'));
    await page.getByRole('button', { name: 'Load the example' }).click();
    const body = JSON.parse((await sent).postData() ?? '{}') as {
      query: string;
      variables: { input: { currency: string; policy: unknown; measurements: Record<string, unknown> } };
    };
    await page.getByTestId('measured').waitFor();
    await settled(page);
    // The fields hold the file's values, and the request sent them.
    expect(await page.locator('#meas-traffic').inputValue()).toBe(example.measurements.traffic.prometheus);
    expect(await page.locator('#meas-util').inputValue()).toBe(example.measurements.utilization.prometheus);
    expect(await page.getByLabel('Time zone (IANA)').inputValue()).toBe(example.measurements.timezone);
    expect(body.variables.input.measurements).toEqual({
      traffic: { prometheus: example.measurements.traffic.prometheus, unit: 'REQUESTS_PER_SECOND' },
      utilization: { prometheus: example.measurements.utilization.prometheus },
      timezone: example.measurements.timezone,
      fleet: example.measurements.fleet,
    });
    expect([body.variables.input.currency, body.variables.input.policy]).toEqual([example.currency, example.policy]);

    // The README's curl of the same file: the utilization, the heatmap and the fleet's waste shown are its answer's.
    const readme = (await server.http().post('/v1/estimates').send(example).expect(200)).body as { measured: MeasuredEstimate['measured'] };
    await expectMeasuredFigures(page, readme.measured);
    const u = readme.measured.utilization;
    const cells = await page.getByTestId('heatmap').locator('td[data-hour]').allInnerTexts();
    expect(cells).toEqual(u.byHourOfWeek.map((pct) => (pct === null ? '–' : String(Math.round(pct)))));
    // The plan is the one /graphql answers for what the page sent (the view has no GPU shortlist, the file has).
    const direct = await server.graphql<{ estimate: MeasuredEstimate }>(body.query, body.variables);
    expect(direct.errors).toBeUndefined();
    expect(shown(await page.getByTestId('plan-cost').innerText())).toBe(Number(direct.data.estimate.gpuCost.amount));
  });

  it('Measured: a measurement the API refuses shows its message under that field', async () => {
    const { page } = await newPage();
    await page.goto(url('#/measured'));
    await page.getByLabel('Traffic (requests/s or output tokens/s)', { exact: true }).fill('120,1\n60,2');
    await page.getByRole('button', { name: 'Compare with the plan' }).click();
    const message = page.locator('#meas-traffic-error');
    await message.waitFor();
    expect(await message.innerText()).toMatch(/^line 2: timestamp 60 is not after the one before it/);
    expect(await page.getByLabel('Traffic (requests/s or output tokens/s)', { exact: true }).getAttribute('aria-invalid')).toBe('true');
  });

  describe.each([
    // With a discount row (and on the estimate a measured throughput row and rent or buy) so that those controls are checked too.
    ['offers', '#/offers?gpus=h100-sxm-80gb&preset=GDPR_PERSONAL_DATA&explain=1&limit=20&discounts=aws%3A10', '[data-testid="offers-table"]'],
    [
      'estimate',
      '#/estimate?discounts=aws%3A10&apiPrice=0.60&measured=%3A%3A2500%3A&serverPrice=60000&electricity=0.10&colocation=150',
      '[data-testid="rent-or-buy"]',
    ],
    ['history', '#/history?gpu=l4-24gb', '[data-testid="history-table"]'],
    ['catalog', '#/catalog', '[data-testid="versions-table"] tbody tr'],
  ])('the %s view', (view, hash, ready) => {
    it.each([
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ])('at %s width: a loading state, no serious or critical axe violation, nothing wider than the screen; screenshot', async (width, viewport) => {
      const { page } = await newPage(viewport);
      // The API's answers are held until the loading state has been seen.
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/graphql', async (route) => {
        await released;
        await route.continue();
      });
      await page.goto(url(hash));
      await page.locator('[data-loading="true"]').first().waitFor();
      expect(await page.getByRole('status').first().innerText()).toMatch(/^Loading .+…$/);
      release();
      await page.locator(ready).first().waitFor();
      await settled(page);

      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
      const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: path.join(SCREENSHOTS, `${view}-${width}.png`), fullPage: true });
    });
  });
});

interface Money {
  amount: string;
}
interface OwnedAnswer {
  servers: number;
  gpus: number;
  monthlyCost: Money & { currency: string };
  depreciation: Money;
  capital: Money;
  power: Money;
  colocation: Money;
  operations: Money;
  reservedMonthlyCost: Money | null;
  onDemandMonthlyCost: Money | null;
  cheaperThanReserved: boolean | null;
  crossoverUtilization: number | null;
  paybackMonths: number | null;
}
interface MeasuredEstimate {
  gpuCost: Money;
  tiers: { pricingModel: string; cost: Money }[];
  measured: {
    utilization: { meanPct: number; p95Pct: number; byHourOfWeek: (number | null)[] };
    fleet: { idleGpuHours: number; waste: Money; monthlyCost: Money; saving: Money };
  };
}
interface DirectEstimate {
  catalogVersion: { label: string };
  monthlyCost: Money;
  savingsVsNaivePct: number;
  savingsVsOnDemandAutoscaledPct: number;
  tiers: { pricingModel: string; cost: Money }[];
  baselines: { naive: { monthlyCost: Money } | null; onDemandAutoscaled: { monthlyCost: Money } | null };
  gpu: string;
  periodHours: number;
  warnings: string[];
  explanations: string[];
  unitEconomics: { costPer1MOutputTokens: Money | null; costPer1kRequests: Money | null };
  chosenOffers: {
    availability: string;
    sourceKind: string | null;
    interruptionsPerHour: number | null;
    interruptionBasis: 'REQUEST' | 'ADVISOR_BAND' | 'DEFAULT' | null;
    interruptionRate: string | null;
  }[];
  assumptions: string[];
  hourlyPlan: { replicasNeeded: number }[];
}

/** The chosen-offers table's interruption column: each spot offer's rate as answered (data-rate) and its basis in words; a dash for the others. */
async function expectInterruptionCells(page: Page, offers: DirectEstimate['chosenOffers']): Promise<void> {
  const basisWords = { ADVISOR_BAND: 'AWS Spot Advisor band', REQUEST: 'your rate', DEFAULT: 'default' };
  for (const [i, o] of offers.entries()) {
    const cell = page.locator('[data-testid="chosen-offers"] tbody tr').nth(i).locator('td').nth(7);
    if (o.interruptionsPerHour === null) {
      expect(await cell.innerText()).toBe('—');
      continue;
    }
    expect(Number(await cell.getAttribute('data-rate'))).toBe(o.interruptionsPerHour);
    expect(await cell.innerText()).toContain(`(${basisWords[o.interruptionBasis ?? 'DEFAULT']}`);
  }
}

/** The Offers table's rows: provider, instance, region and the price (its data-amount). */
async function offerRows(page: Page): Promise<{ provider: string; instance: string; region: string; price: number }[]> {
  const rows = [];
  for (const row of await page.locator('[data-testid="offers-table"] tbody tr').all()) {
    const cells = await row.locator('td').allInnerTexts();
    const price = Number(await row.locator('td[data-amount]').getAttribute('data-amount'));
    rows.push({ provider: cells[0] ?? '', instance: cells[3] ?? '', region: cells[1] ?? '', price });
  }
  return rows;
}

/** data-amount of each element, as numbers (runs in the page). */
function amounts(elements: { getAttribute(name: string): string | null }[]): number[] {
  return elements.map((el) => Number(el.getAttribute('data-amount')));
}

/** Every request done: no loading state left. */
/** The Measured view's figures (mean and p95 utilization, idle GPU-hours, their cost, the fleet's cost) as the API answered them. */
async function expectMeasuredFigures(page: Page, { utilization: u, fleet: f }: MeasuredEstimate['measured']): Promise<void> {
  expect(await page.getByTestId('mean-util').innerText()).toBe(`${u.meanPct.toFixed(1)} %`);
  expect(await page.getByTestId('p95-util').innerText()).toBe(`${u.p95Pct.toFixed(1)} %`);
  expect(shown(await page.getByTestId('idle-hours').innerText())).toBe(Number(f.idleGpuHours.toFixed(1)));
  expect(shown(await page.getByTestId('waste').innerText())).toBe(Number(f.waste.amount));
  expect(shown(await page.getByTestId('fleet-cost').innerText())).toBe(Number(f.monthlyCost.amount));
}

async function settled(page: Page): Promise<void> {
  // (A locator, not waitForFunction with a string, which the page's CSP refuses as eval.)
  await page.locator('[data-loading="true"]').first().waitFor({ state: 'detached' });
}

async function waitForAttribute(locator: ReturnType<Page['locator']>, name: string, value: string): Promise<void> {
  await locator.page().waitForFunction(([l, n, v]) => l?.getAttribute(n as string) === v, [await locator.elementHandle(), name, value] as const);
}

/** Pixels of a canvas that are not transparent. */
async function paintedPixels(page: Page, id: string): Promise<number> {
  return page.evaluate(`(() => {
    const c = document.getElementById(${JSON.stringify(id)});
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  })()`);
}
