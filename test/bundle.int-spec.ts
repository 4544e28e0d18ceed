// The built service bundle (dist/app/service.js, which dist/app/main.js imports; written by `npm run build`, which `npm test` runs
// first): Fastify is loaded from node_modules as published, not bundled. Bundled with keepNames,
// its hook runners' per-request functions were renamed on every request, which cost /health/live a
// third more CPU time per request (BENCHMARKS.md, "Per-request work"); a change to
// scripts/bundle.mjs that pulls Fastify back in would not fail any other test. And the running
// service loads no second copy of a bundled package (terminus once loaded @nestjs/swagger with
// Nest under it, 11 MiB), nor Fastify's schema compilers, nor Prisma's query compiler as text.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTestServer } from './setup/test-app.js';

const bundle = path.resolve('dist/app/service.js');

describe('the service bundle', () => {
  let text: string;
  beforeAll(async () => {
    text = await readFile(bundle, 'utf8');
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

  it("holds none of the catalog's write or price-feed code (catalog-admin, price-feeds, the file parsers): the admin bundle does", async () => {
    const sourcesOf = async (file: string) => (JSON.parse(await readFile(`${file}.map`, 'utf8')) as { sources: string[] }).sources;
    const adminOnly = (sources: string[]) =>
      sources.filter((s) => /src\/modules\/(catalog-admin|price-feeds)\/|src\/domain\/catalog\/(catalog-files|catalog-rows|import-guard)\.ts$/.test(s));
    expect(adminOnly(await sourcesOf(bundle))).toEqual([]);
    // The same check finds them where they belong, so an empty list above means something.
    const admin = adminOnly(await sourcesOf(path.resolve('dist/app/catalog-script.js')));
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
    const map = JSON.parse(await readFile(`${bundle}.map`, 'utf8')) as { sources: string[] };
    const packageOf = (file: string): string | null => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? null;
    const bundled = new Set(map.sources.map(packageOf).filter((p): p is string => p !== null));
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
