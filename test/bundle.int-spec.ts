// The built service bundle (dist/app/service.js, which dist/app/main.js imports, and the chunks
// service-*.js it loads; written by `npm run build`, which `npm test` runs first): Fastify is loaded from node_modules as published, not bundled. Bundled with keepNames,
// its hook runners' per-request functions were renamed on every request, which cost /health/live a
// third more CPU time per request (BENCHMARKS.md, "Per-request work"); a change to
// scripts/bundle.mjs that pulls Fastify back in would not fail any other test. And the running
// service loads no second copy of a bundled package (terminus once loaded @nestjs/swagger with
// Nest under it, 11 MiB), nor Fastify's schema compilers, nor Prisma's query compiler as text.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTestServer } from './setup/test-app.js';

const appDir = path.resolve('dist/app');
const entry = path.join(appDir, 'service.js');
/** The entry and every chunk it may load. */
const serviceFiles = async (): Promise<string[]> =>
  (await readdir(appDir)).filter((name) => /^service(-.+)?\.c?js$/.test(name)).map((name) => path.join(appDir, name));
/** The chunks a file imports statically (what Node reads before it runs the file), with the file. */
async function staticClosure(file: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = await readFile(file, 'utf8');
  for (const [, chunk] of text.matchAll(/(?:^|[;}\n])import\s*(?:[^'"]*?from\s*)?["']\.\/([^"']+)["']/g)) {
    await staticClosure(path.join(appDir, chunk ?? ''), seen);
  }
  return seen;
}
const sourcesOf = async (files: string[]): Promise<string[]> =>
  (await Promise.all(files.map(async (file) => (JSON.parse(await readFile(`${file}.map`, 'utf8')) as { sources: string[] }).sources))).flat();

describe('the service bundle', () => {
  let text: string;
  beforeAll(async () => {
    text = (await Promise.all((await serviceFiles()).map((file) => readFile(file, 'utf8')))).join('\n');
  });

  it('imports Fastify as a package', () => {
    expect(text).toMatch(/from\s*"fastify"/);
  });

  it("holds none of Fastify's own code (its hook-name error message is in lib/errors.js only)", async () => {
    const errors = await readFile(path.resolve('node_modules/fastify/lib/errors.js'), 'utf8');
    // The message is in Fastify's source, so its absence from the bundle means something.
    expect(errors).toContain('The hook name must be a string');
    expect(text).not.toContain('The hook name must be a string');
  });

  it('still bundles the rest (Nest is in it), so a start reads one file, not thousands', () => {
    expect(text).not.toMatch(/from\s*"@nestjs\/core"/);
    expect(text).toContain('NestFactory');
  });

  it('starts with the configuration and the database only: the application is in chunks loaded after the database is launched', async () => {
    const eager = [...(await staticClosure(entry))];
    const eagerSources = await sourcesOf(eager);
    expect(eagerSources).toEqual(expect.arrayContaining([expect.stringMatching(/src\/database\/embedded-postgres\.ts$/)]));
    expect(eagerSources.filter((s) => /node_modules\/@nestjs\/|src\/serve\.ts$|src\/app\.module\.ts$/.test(s))).toEqual([]);
    // And the application is in the service's files, so an empty list above means something.
    expect(await sourcesOf(await serviceFiles())).toEqual(expect.arrayContaining([expect.stringMatching(/src\/serve\.ts$/)]));
  });

  it("holds none of the catalog's write or price-feed code (catalog-admin, price-feeds, the file parsers): the admin bundle does", async () => {
    const adminOnly = (sources: string[]) =>
      sources.filter((s) => /src\/modules\/(catalog-admin|price-feeds)\/|src\/domain\/catalog\/(catalog-files|catalog-rows|import-guard)\.ts$/.test(s));
    expect(adminOnly(await sourcesOf(await serviceFiles()))).toEqual([]);
    // The same check finds them where they belong, so an empty list above means something.
    const admin = adminOnly(await sourcesOf([path.resolve('dist/app/catalog-script.js')]));
    expect(admin).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/catalog-admin\/catalog-writer\.repository\.ts$/),
        expect.stringMatching(/price-feeds\/catalog-sync\.service\.ts$/),
      ]),
    );
  });

  it("carries Prisma's query compiler as a file beside it, not as base64 text", async () => {
    // "AGFzbQ" is base64 for "\0asm", the start of every WebAssembly module.
    expect(text).not.toContain('AGFzbQ');
    const wasm = await readFile(path.resolve('dist/app/query-compiler.wasm'));
    expect([...wasm.subarray(0, 4)]).toEqual([0x00, 0x61, 0x73, 0x6d]);
  });

  it('loads from node_modules, while it starts and answers, only packages the bundle leaves out', async () => {
    const sources = await sourcesOf(await serviceFiles());
    const packageOf = (file: string): string | null => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? null;
    const bundled = new Set(sources.map(packageOf).filter((p): p is string => p !== null));
    expect(bundled).toContain('@nestjs/core');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'module-loads-'));
    const log = path.join(dir, 'loads.txt');
    const recorder = pathToFileURL(path.resolve('test/fixtures/module-loads/record.mjs')).href;
    const server = await createTestServer({ env: { NODE_OPTIONS: `--import ${recorder}`, MODULE_LOAD_LOG: log } });
    try {
      await server.http().get('/health/ready').expect(200);
      await server.http().get('/v1/offers/cheapest?gpu=h100-sxm-80gb&preset=GDPR_PERSONAL_DATA').expect(200);
      await server.http().post('/graphql').send({ query: '{ gpus { slug } }' }).expect(200);
      await server
        .http()
        .post('/v1/estimates')
        .send({ model: { preset: 'llama-3-8b' }, workload: { requestsPerSecond: 1, avgInputTokens: 500, avgOutputTokens: 200 } })
        .expect(200);
      await server.http().get('/docs').expect(200);
    } finally {
      await server.stop();
    }
    const loaded = new Set(
      (await readFile(log, 'utf8'))
        .split('\n')
        .map(packageOf)
        .filter((p): p is string => p !== null),
    );
    await rm(dir, { recursive: true, force: true });
    expect(loaded).toContain('fastify');
    expect([...loaded].filter((p) => bundled.has(p))).toEqual([]);
    // Fastify's schema compilers load only for a route with a schema, which this service has not.
    const unwanted = ['ajv', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', '@nestjs/swagger', '@nestjs/core'];
    expect([...loaded].filter((p) => unwanted.includes(p))).toEqual([]);
  });
});
