// Node 20's code cache (scripts/code-cache.mjs, copied to dist/app/ by the build): written once the
// script it runs publishes that it listens, used by the next start, and ignored, never fatal, when
// it is corrupt or cannot be written. On Node 20, also the service's own (dist/app/service.cjs).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createTestServer } from './setup/test-app.js';

const launcher = pathToFileURL(path.resolve('dist/app/code-cache.mjs')).href;
const SCRIPT = `
const diagnostics = require('node:diagnostics_channel');
function square(n) { return n * n; }
module.exports = square(7);
__bundleImport('node:os').then((os) => {
  console.log('ran', module.exports, typeof os.cpus);
  diagnostics.channel('gpu-cost-api:listening').publish(undefined);
});
`;

/** Runs `file` through the launcher in a process of its own: its stdout and stderr (NODE_DEBUG=codecache). */
async function run(file: string): Promise<{ stdout: string; stderr: string }> {
  const code = `import { runWithCodeCache } from '${launcher}'; runWithCodeCache(${JSON.stringify(file)});`;
  return promisify(execFile)(process.execPath, ['--input-type=module', '-e', code], { env: { ...process.env, NODE_DEBUG: 'codecache', NODE_OPTIONS: '' } });
}

// Node 22.1+ runs the ES module bundle with Node's own compile cache instead.
const usesCodeCache = !('enableCompileCache' in module);

describe('the code cache of Node 20 (dist/app/code-cache.mjs)', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'code-cache-'));
    file = path.join(dir, 'script.cjs');
    await writeFile(file, SCRIPT);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('is written once the script listens, then used by the next start, which writes nothing', async () => {
    const first = await run(file);
    expect(first.stdout).toContain('ran 49 function');
    expect(first.stderr).toMatch(/CODECACHE \d+: none usable/);
    expect(first.stderr).toMatch(/CODECACHE \d+: written: \d+ bytes/);
    const written = await stat(`${file}.cache`);
    const second = await run(file);
    expect(second.stdout).toContain('ran 49 function');
    expect(second.stderr).toMatch(/CODECACHE \d+: used/);
    expect(second.stderr).not.toContain('written');
    expect((await stat(`${file}.cache`)).mtimeMs).toBe(written.mtimeMs);
  });

  it('ignores a corrupt cache, or one of another script, and writes a good one', async () => {
    await run(file);
    const good = await readFile(`${file}.cache`);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 10] = (flipped[flipped.length - 10] ?? 0) ^ 0xff;
    for (const bad of [flipped, good.subarray(0, good.length / 2), Buffer.from('not a cache')]) {
      await writeFile(`${file}.cache`, bad);
      const again = await run(file);
      expect(again.stdout).toContain('ran 49 function');
      expect(again.stderr).toMatch(/CODECACHE \d+: none usable/);
      expect(again.stderr).toMatch(/CODECACHE \d+: written/);
    }
    expect((await run(file)).stderr).toMatch(/CODECACHE \d+: used/);
    // The same length, other code: V8 would take the cache (it checks the length only); the header does not.
    await writeFile(file, SCRIPT.replace('square(7)', 'square(8)'));
    const other = await run(file);
    expect(other.stdout).toContain('ran 64 function');
    expect(other.stderr).toMatch(/CODECACHE \d+: none usable/);
  });

  it('runs the script when the cache can be neither read nor written', async () => {
    // A folder where the file would be (tests may run as root, whom permissions do not stop).
    await mkdir(`${file}.cache`);
    const result = await run(file);
    expect(result.stdout).toContain('ran 49 function');
    expect(result.stderr).toMatch(/CODECACHE \d+: not written/);
    expect((await stat(`${file}.cache`)).isDirectory()).toBe(true);
  });

  it("is the service's on Node 20 (written after a start, used by the next), and unused where Node has a compile cache", async () => {
    const cache = path.resolve('dist/app/service.cjs.cache');
    await rm(cache, { force: true });
    const seen: string[] = [];
    for (let start = 0; start < 2; start++) {
      const server = await createTestServer({ env: { NODE_DEBUG: 'codecache' } });
      try {
        await server.http().get('/health/ready').expect(200);
        seen.push(/CODECACHE \d+: (written|used)\b/.exec(server.output())?.[1] ?? 'no cache');
      } finally {
        await server.stop();
      }
    }
    expect(seen).toEqual(usesCodeCache ? ['written', 'used'] : ['no cache', 'no cache']);
    const size = await stat(cache).then(
      (s) => s.size,
      () => 0,
    );
    expect(size > 1_000_000).toBe(usesCodeCache);
  }, 60_000);
});
