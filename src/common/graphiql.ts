// The GraphiQL page at GET /graphql (for a browser, Accept: text/html), served entirely from this
// service: React 18 and GraphiQL 3 from their packages' browser builds (UMD files, installed as
// dependencies), the page's own start-up script and styles from the strings below. Nothing is
// loaded from another origin, and nothing is inline, so the page works without a network and
// under the Content-Security-Policy set in app.setup.ts (script-src 'self').
// @nestjs/apollo's own page (its `graphiql` option) loads React and GraphiQL from a CDN with an
// inline script; app.module.ts turns it off and installs graphiqlLandingPage instead.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ApolloServerPlugin } from '@apollo/server';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

export const GRAPHIQL_ASSETS = '/graphiql/assets/';

/** The packages' browser builds, by the name the page asks for. */
const VENDOR_FILES: Record<string, { pkg: string; entry: string; file: string }> = {
  'react.production.min.js': { pkg: 'react', entry: 'react', file: 'umd/react.production.min.js' },
  'react-dom.production.min.js': { pkg: 'react-dom', entry: 'react-dom', file: 'umd/react-dom.production.min.js' },
  'graphiql.min.js': { pkg: 'graphiql', entry: 'graphiql/package.json', file: 'graphiql.min.js' },
  'graphiql.min.css': { pkg: 'graphiql', entry: 'graphiql/package.json', file: 'graphiql.min.css' },
};

/** Starts GraphiQL on the page; a file of its own, not an inline script, for the CSP. */
const INIT_JS = `// GraphiQL for the GPU Cost API: queries go to /graphql on this origin.
(function () {
  'use strict';
  var fetcher = GraphiQL.createFetcher({ url: '/graphql' });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultEditorToolsVisibility: true,
      isHeadersEditorEnabled: true,
      shouldPersistHeaders: true,
    }),
  );
})();
`;

const PAGE_CSS = `html, body { height: 100%; margin: 0; overflow: hidden; }
#graphiql { height: 100vh; }
`;

const OWN_FILES: Record<string, { type: string; body: string }> = {
  'graphiql-init.js': { type: 'text/javascript; charset=utf-8', body: INIT_JS },
  'graphiql-page.css': { type: 'text/css; charset=utf-8', body: PAGE_CSS },
};

export const GRAPHIQL_HTML = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>GraphiQL · GPU Cost API</title>
    <link rel="stylesheet" href="${GRAPHIQL_ASSETS}graphiql.min.css" />
    <link rel="stylesheet" href="${GRAPHIQL_ASSETS}graphiql-page.css" />
  </head>
  <body>
    <div id="graphiql">Loading GraphiQL…</div>
    <script src="${GRAPHIQL_ASSETS}react.production.min.js"></script>
    <script src="${GRAPHIQL_ASSETS}react-dom.production.min.js"></script>
    <script src="${GRAPHIQL_ASSETS}graphiql.min.js"></script>
    <script src="${GRAPHIQL_ASSETS}graphiql-init.js"></script>
  </body>
</html>
`;

/** Apollo's landing page (what GET /graphql answers a browser): the page above. */
export function graphiqlLandingPage(): ApolloServerPlugin {
  return {
    serverWillStart() {
      return Promise.resolve({ renderLandingPage: () => Promise.resolve({ html: GRAPHIQL_HTML }) });
    },
  };
}

/**
 * GET /graphiql/assets/<name>: the page's files, and no others. The vendor files are found through
 * Node's resolution from this module, which, bundled, is dist/app/service.js: the service's
 * node_modules, as in the Docker image (production dependencies).
 */
export function installGraphiqlAssets(app: NestFastifyApplication): void {
  const require = createRequire(import.meta.url);
  const roots = new Map<string, string>();
  for (const { pkg, entry } of Object.values(VENDOR_FILES)) {
    if (!roots.has(pkg)) roots.set(pkg, path.dirname(require.resolve(entry)));
  }
  const fastify = app.getHttpAdapter().getInstance();
  // In a plugin of its own, so that reply.sendFile does not clash with another @fastify/static.
  void fastify.register(async (instance) => {
    await instance.register(fastifyStatic, { serve: false });
    instance.get<{ Params: { name: string } }>(`${GRAPHIQL_ASSETS}:name`, (request, reply) => {
      const { name } = request.params;
      const own = Object.hasOwn(OWN_FILES, name) ? OWN_FILES[name] : undefined;
      if (own) return reply.type(own.type).send(own.body);
      const vendor = Object.hasOwn(VENDOR_FILES, name) ? VENDOR_FILES[name] : undefined;
      if (!vendor) return reply.callNotFound();
      return reply.sendFile(vendor.file, roots.get(vendor.pkg));
    });
  });
}
