// The example clients in examples/clients/ are part of the contract: their generated types must be
// what the generators make of today's openapi.json and schema.gql (so `npm run typecheck` checks the
// examples against the real contract), and the REST example must call every operation.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

describe('example clients (examples/clients)', () => {
  it('has generated types equal to what npm run clients:generate writes now', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'clients-'));
    try {
      await run('npm', ['run', '-s', 'clients:generate'], { env: { ...process.env, CLIENTS_OUT: out, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' } });
      const files = ['openapi.d.ts', ...(await readdir(path.join(out, 'gql'))).map((f) => `gql/${f}`)];
      expect(files.length).toBeGreaterThan(2);
      for (const file of files) {
        const [fresh, committed] = await Promise.all([readFile(path.join(out, file), 'utf8'), readFile(path.join('examples/clients', file), 'utf8')]);
        if (fresh !== committed) throw new Error(`examples/clients/${file} is stale: run npm run clients:generate`);
      }
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 120_000);

  it('calls every REST operation in rest-client.ts', async () => {
    const doc = JSON.parse(await readFile('openapi.json', 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const example = await readFile('examples/clients/rest-client.ts', 'utf8');
    const operations = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()}('${p}'`));
    expect(operations.length).toBeGreaterThanOrEqual(13);
    expect(operations.filter((op) => !example.includes(`client.${op}`))).toEqual([]);
  });
});
