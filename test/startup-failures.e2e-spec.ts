// Every way the service (and an admin script) can fail to start ends with the cause and the fix
// in one or two lines, exit code 1, no stack trace, and no PostgreSQL of ours left running.
// Real processes: the built service and scripts, real ports held by other sockets, real folders.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './setup/test-app.js';
import { adminQuery, createTestDatabase, databaseName, TEMPLATE_URL_ENV, withDatabase, type TestDatabase } from './setup/test-database.js';
import { defined } from '../src/domain/checked.js';

interface Outcome {
  code: number | null;
  out: string;
}

/** Runs a built entry point to its end (at most 120 s) with only the given environment. */
function run(script: string, args: string[], env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { env: { PATH: process.env.PATH ?? '', LOG_FORMAT: 'json', ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, out: `${stdout}${stderr}` });
      },
    );
  });
}

/** Holds a TCP port the way another program would. */
async function holdPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, release: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** PostgreSQL server processes whose command line names `dataDir`. */
function postgresProcessesFor(dataDir: string): string[] {
  const ps = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return ps.split('\n').filter((line) => line.includes(dataDir) && /postgres/.test(line));
}

/** The failure contract: exit 1, the lines, no stack trace. */
function expectFailure(outcome: Outcome, ...expected: (string | RegExp)[]): void {
  expect({ code: outcome.code, out: outcome.out }).toMatchObject({ code: 1 });
  for (const e of expected) expect(outcome.out).toMatch(e);
  expect(outcome.out).not.toMatch(/^\s+at .+\(.+:\d+:\d+\)$/m);
  expect(outcome.out).not.toMatch(/Start-up failed: undefined/);
}

describe('start-up failures (e2e, real processes)', () => {
  let work: string;
  const serverUrl = () => defined(process.env[TEMPLATE_URL_ENV], TEMPLATE_URL_ENV);
  const service = (env: Record<string, string>) => run('dist/app/main.js', [], { LOG_LEVEL: 'info', ...env });

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'gpu-cost-startup-'));
    // As root, the embedded PostgreSQL runs as "postgres", who must be able to enter this folder.
    await chmod(work, 0o755);
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('names the embedded PostgreSQL port in use and EMBEDDED_PG_PORT', async () => {
    const held = await holdPort();
    const dataDir = path.join(work, 'port-data');
    try {
      const outcome = await service({ EMBEDDED_PG_PORT: String(held.port), EMBEDDED_PG_DATA_DIR: dataDir, PORT: String(await freePort()) });
      expectFailure(outcome, `Start-up failed: The embedded PostgreSQL cannot start: port ${held.port} is in use`, /Fix: .*EMBEDDED_PG_PORT/);
    } finally {
      await held.release();
    }
    expect(postgresProcessesFor(dataDir)).toEqual([]);
  });

  it('names the HTTP port in use and PORT, and stops the embedded PostgreSQL it started', async () => {
    const held = await holdPort();
    const dataDir = path.join(work, 'http-data');
    try {
      const outcome = await service({ PORT: String(held.port), HOST: '127.0.0.1', EMBEDDED_PG_PORT: String(await freePort()), EMBEDDED_PG_DATA_DIR: dataDir });
      expectFailure(outcome, `Start-up failed: Port ${held.port} on 127.0.0.1 is in use by another program.`, /Fix: .*set PORT/);
    } finally {
      await held.release();
    }
    expect(postgresProcessesFor(dataDir)).toEqual([]);
  }, 120_000);

  it('refuses a data folder of another PostgreSQL major version, naming EMBEDDED_PG_DATA_DIR', async () => {
    const dataDir = path.join(work, 'old-major');
    await mkdir(dataDir);
    await writeFile(path.join(dataDir, 'PG_VERSION'), '15\n');
    const outcome = await service({ EMBEDDED_PG_PORT: String(await freePort()), EMBEDDED_PG_DATA_DIR: dataDir });
    expectFailure(outcome, /belongs to PostgreSQL 15; the embedded server is PostgreSQL \d+/, /Fix: .*EMBEDDED_PG_DATA_DIR/);
    expect(postgresProcessesFor(dataDir)).toEqual([]);
  });

  it('says so when the embedded PostgreSQL exits during start-up (a broken data folder), and leaves nothing running', async () => {
    const dataDir = path.join(work, 'broken');
    await mkdir(dataDir);
    await chmod(dataDir, 0o777);
    const major = (await import('../src/database/startup-checks.js')).embeddedMajorVersion();
    await writeFile(path.join(dataDir, 'PG_VERSION'), `${major}\n`);
    const port = await freePort();
    const outcome = await service({ EMBEDDED_PG_PORT: String(port), EMBEDDED_PG_DATA_DIR: dataDir });
    expectFailure(outcome, `Start-up failed: The embedded PostgreSQL did not start (port ${port}, data in ${dataDir})`, /Fix: .*EMBEDDED_PG_DATA_DIR/);
    expect(postgresProcessesFor(dataDir)).toEqual([]);
  });

  it('refuses a data folder that cannot be created or written', async () => {
    const file = path.join(work, 'a-file');
    await writeFile(file, 'not a folder');
    const under = await service({ EMBEDDED_PG_PORT: String(await freePort()), EMBEDDED_PG_DATA_DIR: path.join(file, 'data') });
    expectFailure(under, /data folder .* \(EMBEDDED_PG_DATA_DIR\) cannot be created or written/, /Fix: .*EMBEDDED_PG_DATA_DIR/);
    const itself = await service({ EMBEDDED_PG_PORT: String(await freePort()), EMBEDDED_PG_DATA_DIR: file });
    expectFailure(itself, /\(EMBEDDED_PG_DATA_DIR\) is a file, not a folder/);
  });

  // The case exists only when started as root: the embedded PostgreSQL then runs as the user postgres.
  const itAsRoot = process.getuid?.() === 0 ? it : it.skip;
  itAsRoot('as root: says that the postgres user cannot reach a data folder in a private folder, and what to do', async () => {
    const closed = path.join(work, 'private');
    await mkdir(closed, { mode: 0o700 });
    await chmod(closed, 0o700);
    const dataDir = path.join(closed, 'data');
    const outcome = await service({ EMBEDDED_PG_PORT: String(await freePort()), EMBEDDED_PG_DATA_DIR: dataDir });
    expectFailure(
      outcome,
      `runs as the unprivileged user "postgres", who cannot reach its data folder in ${dataDir}: ${closed} may not be entered by other users`,
      /Fix: Leave EMBEDDED_PG_DATA_DIR unset.*EMBEDDED_PG_SHARED_DIR.*DATABASE_URL/,
    );
    expect(postgresProcessesFor(dataDir)).toEqual([]);
  });

  it('names an unreachable or refusing DATABASE_URL by host, port and database, never its password', async () => {
    const port = await freePort();
    const unreachable = await service({ DATABASE_URL: `postgresql://gpu:s3cretPassw0rd@127.0.0.1:${port}/gpu_cost` });
    expectFailure(unreachable, `Cannot connect to PostgreSQL at 127.0.0.1:${port}/gpu_cost (DATABASE_URL): connect ECONNREFUSED`, /Fix: /);
    expect(unreachable.out).not.toContain('s3cretPassw0rd');
    const missing = `no_such_database_test_${randomBytes(3).toString('hex')}`;
    const refusing = await service({ DATABASE_URL: withDatabase(serverUrl(), missing) });
    expectFailure(refusing, `/${missing} (DATABASE_URL): database "${missing}" does not exist`);
  });

  it('refuses to serve with pending migrations when MIGRATE_ON_START=false, naming db:migrate', async () => {
    const name = `gpu_cost_unmigrated_test_${randomBytes(3).toString('hex')}`;
    await adminQuery(serverUrl(), `CREATE DATABASE "${name}"`);
    try {
      const outcome = await service({ DATABASE_URL: withDatabase(serverUrl(), name), MIGRATE_ON_START: 'false', PORT: String(await freePort()) });
      expectFailure(
        outcome,
        /Start-up failed: \d+ migration\(s\) are not applied to the database and MIGRATE_ON_START=false: 2026\d+_init/,
        /Fix: Run npm run db:migrate/,
      );
    } finally {
      await adminQuery(serverUrl(), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });

  it('names a CATALOG_DIR that does not import, and writes nothing', async () => {
    let db: TestDatabase | undefined;
    try {
      db = await createTestDatabase();
      const outcome = await service({ DATABASE_URL: db.url, CATALOG_DIR: path.join(work, 'no-such-catalog'), PORT: String(await freePort()) });
      expectFailure(
        outcome,
        `The catalog in CATALOG_DIR=${path.join(work, 'no-such-catalog')} could not be imported into the empty database: no such file or folder`,
        /Fix: Point CATALOG_DIR/,
      );
      const check = await run('dist/app/catalog.js', ['versions'], { DATABASE_URL: db.url });
      expect(check.out).toContain('No catalog versions yet');
      expect(databaseName(db.url)).toMatch(/test/);
    } finally {
      await db?.drop();
    }
  });

  it('gives the admin scripts the same lines', async () => {
    const port = await freePort();
    const script = await run('dist/app/catalog.js', ['versions'], { DATABASE_URL: `postgresql://gpu:pw@127.0.0.1:${port}/gpu_cost` });
    expectFailure(script, `Failed: Cannot connect to PostgreSQL at 127.0.0.1:${port}/gpu_cost (DATABASE_URL)`, /Fix: /);
    const held = await holdPort();
    try {
      const embedded = await run('dist/app/catalog.js', ['versions'], {
        EMBEDDED_PG_PORT: String(held.port),
        EMBEDDED_PG_DATA_DIR: path.join(work, 'script-data'),
      });
      expectFailure(embedded, `port ${held.port} is in use`, /Fix: .*EMBEDDED_PG_PORT/);
    } finally {
      await held.release();
    }
  });
});
