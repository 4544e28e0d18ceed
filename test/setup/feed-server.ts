// A local HTTP server that plays recorded price-feed responses (test/fixtures/price-sources), for
// tests of catalog:sync without internet. Each route answers its replies in order (the last one
// again once they run out), so a test can script a 429 with Retry-After or a 500 before the page.
// "{{BASE}}" in a body becomes the server's own address (a feed's next-page links point back here).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A file under test/fixtures/price-sources, or a literal body. */
  file?: string;
  body?: string;
  /** Edits the body before it is sent (a malformed item, a changed shape). */
  edit?: (body: string) => string;
}

export interface Route {
  /** Matches the request's path and query. */
  match: (url: URL) => boolean;
  replies: Reply[];
}

export interface FeedServer {
  base: string;
  /** Requests received, as path + query. */
  requests: string[];
  close(): Promise<void>;
}

export const FIXTURES = 'test/fixtures/price-sources';

export async function startFeedServer(routes: Route[]): Promise<FeedServer> {
  const served = new Map<Route, number>();
  const requests: string[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    requests.push(`${url.pathname}${url.search}`);
    const route = routes.find((r) => r.match(url));
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no recorded response for ${url.pathname}${url.search}`);
      return;
    }
    const n = served.get(route) ?? 0;
    served.set(route, n + 1);
    const reply = route.replies[Math.min(n, route.replies.length - 1)] ?? { status: 500 };
    let body = reply.file ? readFileSync(`${FIXTURES}/${reply.file}`, 'utf8') : (reply.body ?? '');
    body = body.replaceAll('{{BASE}}', base);
    if (reply.edit) body = reply.edit(body);
    res.writeHead(reply.status ?? 200, { 'content-type': reply.file?.endsWith('.xml') ? 'text/xml' : 'application/json', ...reply.headers }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

/** The Azure Retail Prices pages of test/fixtures/price-sources/azure, by their $skip. */
export const azurePage =
  (skip: string | null) =>
  (url: URL): boolean =>
    url.pathname === '/api/retail/prices' && url.searchParams.get('$skip') === skip;
