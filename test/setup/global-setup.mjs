// Jest global setup for the integration and e2e tiers: a real PostgreSQL (DATABASE_URL's server
// when set, else an embedded one in a temporary folder), one template database per run with the
// migrations applied. Test files clone it (see test-database.ts); the teardown drops it.
// Plain JavaScript over the compiled build (npm test builds first): jest loads global setup
// with Node's own loader, outside the ts-jest module mapping.
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../dist/src/database/embedded-postgres.js';
import { execFileSync } from 'node:child_process';

const TEMPLATE_URL_ENV = 'GPU_COST_TEST_TEMPLATE_URL';

export default async function globalSetup() {
  const name = `gpu_cost_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  let serverUrl;
  let stopServer = async () => undefined;
  if (process.env.DATABASE_URL) {
    serverUrl = process.env.DATABASE_URL;
  } else {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'gpu-cost-test-pg-'));
    // Run as root, embedded-postgres runs the server as a `postgres` user, who must reach it.
    await chmod(dataDir, 0o755);
    const port = await freePort();
    const server = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'data'), port, database: 'postgres' });
    serverUrl = server.adminUrl;
    // Embedded tests may stop and restart this server; they need to know where it lives.
    process.env.GPU_COST_TEST_EMBEDDED_DATA_DIR = path.join(dataDir, 'data');
    process.env.GPU_COST_TEST_EMBEDDED_PORT = String(port);
    stopServer = async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  const templateUrl = withDatabase(serverUrl, name);
  assertTestDatabase(templateUrl);
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  // In a child process, as `npm run db:migrate` does: the schema engine would otherwise keep
  // jest's main process alive for ~10 s after the run.
  execFileSync(process.execPath, ['dist/scripts/db-migrate.js'], { env: { ...process.env, DATABASE_URL: templateUrl }, stdio: 'pipe' });
  process.env[TEMPLATE_URL_ENV] = templateUrl;
  globalThis.__GPU_COST_TEST_SERVER__ = {
    templateUrl,
    cleanup: async () => {
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await stopServer();
    },
  };
}

function withDatabase(url, database) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function assertTestDatabase(url) {
  const name = new URL(url).pathname.slice(1);
  if (!/test/i.test(name)) throw new Error(`Refusing to touch database "${name}": its name must say "test".`);
}

async function adminQuery(serverUrl, sql) {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}
