// GraphiQL and the OpenAPI UI in a real browser (Debian's Chromium, driven by playwright-core) with
// no network: every request that is not for the test server is aborted and recorded. The pages
// must render and GraphiQL must run a query, with no blocked request, no Content-Security-Policy
// violation and no error in the console. Chromium comes from test/setup/browser.ts (CHROMIUM_PATH
// or Debian's package); without it the test fails, it is not skipped.
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import { launchChromium } from './setup/browser.js';
import { eventually } from './setup/eventually.js';
import { BUNDLED_CATALOG, createTestServer, type TestServer } from './setup/test-app.js';

interface Observed {
  /** Requests for another origin, aborted. */
  blocked: string[];
  /** Console errors, page errors and CSP violations. */
  problems: string[];
}

describe('GraphiQL and the OpenAPI UI in Chromium, offline (e2e)', () => {
  let t: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
    t = await createTestServer();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  async function open(path: string): Promise<{ page: Page; observed: Observed }> {
    if (!browser || !t) throw new Error('not started');
    const origin = new URL(t.baseUrl).origin;
    const observed: Observed = { blocked: [], problems: [] };
    const context = await browser.newContext();
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      observed.blocked.push(url);
      return route.abort('internetdisconnected');
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') observed.problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => observed.problems.push(`page error: ${error.message}`));
    // Run by the browser before the page's own scripts, outside the page's CSP.
    await page.addInitScript({
      content: "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
    });
    const response = await page.goto(`${t.baseUrl}${path}`);
    expect(response?.status()).toBe(200);
    return { page, observed };
  }

  /** Waits for `selector`; when it does not come, says what the browser blocked and reported. */
  async function rendered(page: Page, observed: Observed, selector: string): Promise<void> {
    await page.waitForSelector(selector, { timeout: 15_000 }).catch((error: unknown) => {
      throw new Error(`${selector} did not appear (${String(error).split('\n')[0]}); ${JSON.stringify(observed, null, 2)}`);
    });
  }

  it('renders GraphiQL and runs a query', async () => {
    const { page, observed } = await open('/graphql');
    const editor = '.graphiql-query-editor .CodeMirror';
    await rendered(page, observed, editor);
    // The editor is CodeMirror 5, which keeps its instance on its element.
    await page.$eval(editor, (el) => (el as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror.setValue('{ gpus { slug } }'));
    await page.click('button.graphiql-execute-button');
    const response = '.graphiql-response .CodeMirror';
    const readResponse = () => page.$eval(response, (el) => (el as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue());
    let text = '';
    await eventually(async () => {
      text = await readResponse();
      expect(text).toMatch(/"gpus"/);
    }, 15_000);
    const answer = JSON.parse(text) as { data: { gpus: { slug: string }[] } };
    // The GPUs of the catalog the service was seeded from.
    const catalog = parseYaml(await readFile(`${BUNDLED_CATALOG}/gpus.yaml`, 'utf8')) as { gpus: { slug: string }[] };
    expect(answer.data.gpus.map((g) => g.slug).sort()).toEqual(catalog.gpus.map((g) => g.slug).sort());
    expect(observed).toEqual({ blocked: [], problems: [] });
  });

  it('renders the OpenAPI UI', async () => {
    const { page, observed } = await open('/docs');
    await rendered(page, observed, '.swagger-ui .info .title');
    expect(await page.textContent('.swagger-ui .info .title')).toContain('GPU Cost API');
    await rendered(page, observed, '.swagger-ui .opblock');
    expect(observed).toEqual({ blocked: [], problems: [] });
  });
});
