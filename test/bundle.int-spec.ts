// The built service bundle (dist/app/main.js, written by `npm run build`, which `npm test` runs
// first): Fastify is loaded from node_modules as published, not bundled. Bundled with keepNames,
// its hook runners' per-request functions were renamed on every request, which cost /health/live a
// third more CPU time per request (BENCHMARKS.md, "Per-request work"); a change to
// scripts/bundle.mjs that pulls Fastify back in would not fail any other test.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const bundle = path.resolve('dist/app/main.js');

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
});
