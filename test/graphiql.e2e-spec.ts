// The GraphiQL page works with no network: the page and every file it loads come from the service
// itself, nothing inline needs the Content-Security-Policy relaxed, and the policy is sent on the
// pages and the API. (graphiql-browser.e2e-spec.ts runs the page in Chromium.)
import { parse } from 'parse5';
import { createTestServer, type TestServer } from './setup/test-app.js';

interface Reference {
  tag: string;
  attribute: string;
  value: string;
}

interface HtmlNode {
  nodeName: string;
  attrs?: { name: string; value: string }[];
  childNodes?: HtmlNode[];
  content?: HtmlNode;
}

/** Every element of the document, depth first. */
function elements(node: HtmlNode): HtmlNode[] {
  const children = [...(node.childNodes ?? []), ...(node.content ? [node.content] : [])];
  return [node, ...children.flatMap(elements)];
}

/** The URLs an HTML page makes a browser load or offer: src, href, srcset, poster, data, action. */
function referencesOf(html: string): Reference[] {
  const loading = new Set(['src', 'href', 'srcset', 'poster', 'data', 'action', 'formaction', 'xlink:href']);
  return elements(parse(html) as unknown as HtmlNode).flatMap((el) =>
    (el.attrs ?? []).filter((a) => loading.has(a.name)).map((a) => ({ tag: el.nodeName, attribute: a.name, value: a.value })),
  );
}

function inlineCode(html: string): string[] {
  return elements(parse(html) as unknown as HtmlNode).flatMap((el) => [
    ...(el.nodeName === 'script' && !(el.attrs ?? []).some((a) => a.name === 'src') ? ['<script> without src'] : []),
    ...(el.attrs ?? []).filter((a) => a.name.startsWith('on')).map((a) => `${el.nodeName} ${a.name}=`),
  ]);
}

/**
 * Origins that appear as text in the served GraphiQL and React files but are never loaded: each
 * occurrence was read in the file (November 2026, graphiql 3.9.0, react 18.3.1). Any other
 * absolute URL fails the test, whether or not it would be loaded, so that a new one is looked at.
 */
const INERT_ORIGINS: Record<string, string> = {
  // XML namespace names (createElementNS, xmlns attributes of SVG icons): identifiers, not fetched.
  'http://www.w3.org': 'namespace',
  // GraphiQL's logo link and a console message for CDN users; links in licence comments.
  'https://github.com': 'link',
  // The "keyboard shortcuts" dialog's link to CodeMirror's manual (an <a target=_blank>).
  'https://codemirror.net': 'link',
  // Descriptions of the built-in scalar types and the @specifiedBy markdown (graphql-js).
  'https://en.wikipedia.org': 'text',
  'https://commonmark.org': 'text',
  // The link in the message of a minified React error.
  'https://reactjs.org': 'text',
};

/** Absolute http(s) URLs in a text, with the origin not on the INERT_ORIGINS list. */
function externalUrls(text: string): string[] {
  const found = text.match(/https?:\/\/[a-z0-9.-]+(?::\d+)?/gi) ?? [];
  return [...new Set(found)].filter((origin) => !Object.hasOwn(INERT_ORIGINS, origin.toLowerCase()));
}

/** A Content-Security-Policy header as directive → sources. */
function csp(header: string | undefined): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

describe('GraphiQL served by the service (e2e)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  const page = () => t.http().get('/graphql').set('accept', 'text/html');

  it('answers a browser with a page whose every file is on this origin and answers 200 with its type', async () => {
    const res = await page().expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const origin = new URL(t.baseUrl).origin;
    const refs = referencesOf(res.text);
    // React, ReactDOM, GraphiQL, the start-up script; GraphiQL's styles and the page's.
    expect(refs.filter((r) => r.tag === 'script')).toHaveLength(4);
    expect(refs.filter((r) => r.tag === 'link')).toHaveLength(2);
    const elsewhere = refs.filter((r) => new URL(r.value, `${t.baseUrl}/graphql`).origin !== origin);
    expect(elsewhere).toEqual([]);
    expect(inlineCode(res.text)).toEqual([]);
    for (const ref of refs) {
      const url = new URL(ref.value, `${t.baseUrl}/graphql`);
      const asset = await fetch(url);
      expect([ref.value, asset.status]).toEqual([ref.value, 200]);
      const type = asset.headers.get('content-type') ?? '';
      expect([ref.value, type]).toEqual([
        ref.value,
        ref.tag === 'script' ? expect.stringMatching(/^(text|application)\/javascript/) : expect.stringMatching(/^text\/css/),
      ]);
      const body = await asset.text();
      expect(body.length).toBeGreaterThan(50);
      // Nothing that a browser would fetch from elsewhere: no CDN script, @import or url() of another origin.
      expect([ref.value, externalUrls(body)]).toEqual([ref.value, []]);
      if (ref.tag === 'link') expect([ref.value, body.match(/@import[^;]*|url\((?!["']?data:)[^)]*\)/g) ?? []]).toEqual([ref.value, []]);
    }
  });

  it('serves the page’s files and no other file of the packages', async () => {
    for (const name of ['package.json', 'graphiql.min.js.map', '..%2Fpackage.json', 'umd%2Freact.development.js']) {
      const res = await t.http().get(`/graphiql/assets/${name}`);
      expect([name, res.status]).toEqual([name, 404]);
    }
  });

  it('sends a Content-Security-Policy that allows only this origin’s scripts, on the pages and the API', async () => {
    const responses = {
      'GraphiQL page': await page().expect(200),
      'GraphQL POST': await t.http().post('/graphql').send({ query: '{ gpus { slug } }' }).expect(200),
      'OpenAPI UI': await t.http().get('/docs').expect(200),
      'OpenAPI UI script': await t.http().get('/docs/swagger-ui-init.js').expect(200),
      REST: await t.http().get('/v1/gpus').expect(200),
      'not found': await t.http().get('/no-such-page').expect(404),
    };
    for (const [name, res] of Object.entries(responses)) {
      const policy = csp(res.headers['content-security-policy']);
      expect([name, policy.get('default-src')]).toEqual([name, ["'self'"]]);
      expect([name, policy.get('script-src')]).toEqual([name, ["'self'"]]);
      expect([name, policy.get('connect-src')]).toEqual([name, ["'self'"]]);
      expect([name, policy.get('object-src')]).toEqual([name, ["'none'"]]);
      // No other origin for anything, and nothing run from a string.
      const everything = [...policy.values()].flat();
      expect([name, everything.filter((s) => /^https?:|^\*$|unsafe-eval/.test(s))]).toEqual([name, []]);
    }
  });

  it('the OpenAPI UI page loads only files of this origin and has no inline script', async () => {
    const res = await t.http().get('/docs').expect(200);
    const origin = new URL(t.baseUrl).origin;
    const refs = referencesOf(res.text).filter((r) => !r.value.startsWith('#'));
    expect(refs.filter((r) => r.tag === 'script').length).toBeGreaterThanOrEqual(3);
    expect(refs.filter((r) => new URL(r.value, `${t.baseUrl}/docs`).origin !== origin)).toEqual([]);
    expect(inlineCode(res.text)).toEqual([]);
    for (const ref of refs) {
      const asset = await fetch(new URL(ref.value, `${t.baseUrl}/docs`));
      expect([ref.value, asset.status]).toEqual([ref.value, 200]);
      await asset.arrayBuffer();
    }
  });

  it('still answers GraphQL queries by POST and by GET (cached), beside the page', async () => {
    const query = '{ gpus { slug } }';
    const post = await t.http().post('/graphql').send({ query }).expect(200);
    expect(post.body.data.gpus.length).toBeGreaterThan(0);
    const get = () => t.http().get('/graphql').query({ query }).set('apollo-require-preflight', 'true');
    const first = await get().expect(200);
    expect(first.body).toEqual(post.body);
    expect(first.headers['x-cache']).toBe('miss');
    expect((await get().expect(200)).headers['x-cache']).toBe('hit');
  });
});

describe('GraphiQL turned off: GRAPHQL_PLAYGROUND=false (e2e)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer({ env: { GRAPHQL_PLAYGROUND: 'false' } });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('gives a browser no page and serves none of its files', async () => {
    const res = await t.http().get('/graphql').set('accept', 'text/html');
    expect(res.headers['content-type']).not.toMatch(/text\/html/);
    expect(res.text).not.toMatch(/graphiql/i);
    expect((await t.http().get('/graphiql/assets/graphiql.min.js')).status).toBe(404);
    expect((await t.http().get('/graphiql/assets/graphiql-init.js')).status).toBe(404);
    expect((await t.http().post('/graphql').send({ query: '{ gpus { slug } }' }).expect(200)).body.data.gpus.length).toBeGreaterThan(0);
  });
});
