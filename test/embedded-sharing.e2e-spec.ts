// The admin scripts beside a running `npm start` on the embedded PostgreSQL: they find the
// service's server through the record it keeps beside its data folder (src/database/embedded-owner.ts)
// instead of failing on its port, `npm run db:url` prints its connection string, and the record
// is gone once the service stops.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { serviceCommand } from '../scripts/service-command.js';
import { freePort, waitUntilReady } from './setup/test-app.js';

const run = promisify(execFile);

describe('admin scripts beside a running service on the embedded PostgreSQL (e2e)', () => {
  let work: string;
  let service: ChildProcess | undefined;
  let env: Record<string, string>;
  let baseUrl: string;
  let output = '';

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'embedded-sharing-'));
    // Run as root, the embedded server runs as the user postgres, who must be able to enter it.
    await chmod(work, 0o755);
    const port = await freePort();
    // No DATABASE_URL: the service starts its own embedded server, as the quick start does.
    env = {
      PATH: process.env.PATH ?? '',
      EMBEDDED_PG_PORT: String(await freePort()),
      EMBEDDED_PG_DATA_DIR: path.join(work, 'postgres'),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      SHUTDOWN_GRACE_MS: '0',
    };
    const command = serviceCommand();
    service = spawn(process.execPath, command.args, {
      env: { ...command.env, ...env, HOST: '127.0.0.1', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    service.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    baseUrl = `http://127.0.0.1:${port}`;
    await waitUntilReady(service, baseUrl, () => output, 150_000, 250);
  });

  afterAll(async () => {
    if (service && service.exitCode === null) {
      const exited = new Promise((r) => service?.once('exit', r));
      service.kill('SIGTERM');
      await exited;
    }
    await rm(work, { recursive: true, force: true });
  });

  const script = async (file: string, args: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, [file, ...args], { env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it('lists the versions and dry-runs a --merge import against the service’s database, and db:url names it', async () => {
    const versions = await script('dist/app/catalog.js', ['versions']);
    expect([versions.code, versions.stderr]).toEqual([0, '']);
    // The service seeded its empty database: the list marks the bundled catalog as current (*).
    expect(versions.stdout).toMatch(/^\*\s+\d{4}-\d{2}-\d{2}\s/m);
    const merge = await script('dist/app/catalog.js', ['import', 'data/catalog/offers/lambda.yaml', '--merge', '--dry-run']);
    expect(merge.code).toBe(0);
    expect(merge.stdout).toContain('Dry run: nothing was written.');
    const url = await script('dist/scripts/db-url.js', []);
    expect(url.code).toBe(0);
    expect(url.stdout.trim()).toBe(`postgresql://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/gpu_cost`);
    expect(url.stderr).toMatch(/the embedded PostgreSQL of the running service, pid \d+/);
    // The service still answers: the scripts did not stop its server.
    await request(baseUrl).get('/health/ready').expect(200);
  });

  it('removes its record when it stops', async () => {
    const record = `${env.EMBEDDED_PG_DATA_DIR}.owner.json`;
    expect(existsSync(record)).toBe(true);
    const exited = new Promise((r) => service?.once('exit', r));
    service?.kill('SIGTERM');
    await exited;
    expect(existsSync(record)).toBe(false);
  });
});
