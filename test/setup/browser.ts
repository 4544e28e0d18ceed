// A real browser for the dashboard's tests: Debian's Chromium (the chromium package; npm test
// installs it when missing, scripts/test-prerequisites.mjs, which also finds it), driven by
// playwright-core, which downloads no browser of its own. CHROMIUM_PATH points elsewhere.
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_CANDIDATES, chromiumPath as foundChromium } from '../../scripts/test-prerequisites.mjs';

export function chromiumPath(): string {
  const found = foundChromium();
  if (!found) throw new Error(`No Chromium found (tried CHROMIUM_PATH, ${CHROMIUM_CANDIDATES.join(', ')}): apt-get install -y chromium, as npm test does.`);
  return found;
}

export async function launchChromium(): Promise<Browser> {
  // As root (CI), Chromium refuses to start with its sandbox on.
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
}

/** What went wrong in a page: console errors (CSP refusals among them), uncaught exceptions, failed requests, CSP violation events. */
export interface PageProblems {
  console: string[];
  pageErrors: string[];
  failedRequests: string[];
  cspViolations: () => Promise<string[]>;
}

export async function watchPage(page: Page): Promise<PageProblems> {
  const problems = { console: [] as string[], pageErrors: [] as string[], failedRequests: [] as string[] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.console.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.pageErrors.push(e.message));
  page.on('requestfailed', (r) => {
    // A request the page aborted itself (a newer one replaced it) is not a failure.
    if (!/ERR_ABORTED/.test(r.failure()?.errorText ?? '')) problems.failedRequests.push(`${r.method()} ${r.url()}: ${r.failure()?.errorText}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && !r.url().endsWith('/graphql')) problems.failedRequests.push(`${r.status()} ${r.url()}`);
  });
  // Runs in the page before its own scripts (through the DevTools protocol, which the CSP does not govern).
  await page.addInitScript(
    'window.__csp = []; document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(e.violatedDirective + " " + e.blockedURI));',
  );
  return { ...problems, cspViolations: () => page.evaluate('window.__csp || []') };
}
