// The two ways tests reach the application, both on a fresh database cloned from the run's
// migrated template:
// - createTestServer: the built service (node dist/app/main.js, what npm start runs) as its own process, reached over
//   HTTP with supertest, exactly as clients reach it. (Running it in-process under jest is not
//   possible with Nest 12: nestjs-pino is a CommonJS package that requires
//   the ESM @nestjs/common, which jest's module system cannot do on Node 20.)
// - createTestContext: the admin scripts' Nest context (catalog services, no HTTP), in-process,
//   for tests that drive imports and publishes directly.
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { CliModule } from '../../src/cli.module.js';
import { loadConfig } from '../../src/config/app-config.js';
import { seed } from '../../src/modules/catalog-admin/index.js';
import { serviceCommand } from '../../scripts/service-command.js';
import { OpenApiContract } from './openapi-contract.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export const BUNDLED_CATALOG = 'data/catalog';
export const SMALL_CATALOG = 'test/fixtures/catalog-small';

/** A copy of the small catalog in `workDir/name`, with its catalog.yaml and offers.yaml passed through `edit`. */
export async function copySmallCatalog(workDir: string, name: string, edit: (text: string) => string): Promise<string> {
  const dir = path.join(workDir, name);
  await cp(SMALL_CATALOG, dir, { recursive: true });
  for (const file of ['catalog.yaml', 'offers.yaml']) {
    const p = path.join(dir, file);
    await writeFile(p, edit(await readFile(p, 'utf8')));
  }
  return dir;
}

export interface GraphqlResult<T> {
  status: number;
  data: T;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

export interface TestServer {
  baseUrl: string;
  db: TestDatabase;
  process: ChildProcess;
  http: () => ReturnType<typeof request>;
  graphql: <T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>) => Promise<GraphqlResult<T>>;
  /** Output of the server so far, for failure messages. */
  output: () => string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts the built service on a new test database (seeded from `catalog`, default the bundled one). */
export async function createTestServer(options: { catalog?: string; env?: Record<string, string>; db?: TestDatabase } = {}): Promise<TestServer> {
  const db = options.db ?? (await createTestDatabase());
  // A service that fails to start must not leave its database behind.
  const server = await startServerProcess({ databaseUrl: db.url, catalog: options.catalog ?? BUNDLED_CATALOG, env: options.env }).catch(
    async (error: unknown) => {
      if (!options.db) await db.drop();
      throw error;
    },
  );
  return {
    ...server,
    db,
    stop: async () => {
      await server.stop();
      if (!options.db) await db.drop();
    },
  };
}

/**
 * Polls `/health/ready` until it answers 200. Fails (and kills the service) when the service exits
 * first or is not ready within `timeoutMs`, with what it wrote so far.
 */
export async function waitUntilReady(child: ChildProcess, baseUrl: string, output: () => string, timeoutMs: number, pollMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} during start-up:\n${output()}`);
    const ready = await request(baseUrl)
      .get('/health/ready')
      .then(
        (r) => r.status === 200,
        () => false,
      );
    if (ready) return;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service was not ready within ${timeoutMs / 1000} s:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export async function startServerProcess(options: { databaseUrl: string; catalog?: string; env?: Record<string, string> }): Promise<Omit<TestServer, 'db'>> {
  const port = await freePort();
  let output = '';
  const service = serviceCommand();
  const child = spawn(process.execPath, service.args, {
    env: {
      ...service.env,
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      CATALOG_DIR: options.catalog ?? BUNDLED_CATALOG,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      // Tests send far more than a caller would; auth.e2e-spec.ts tests the limit itself.
      RATE_LIMIT_PER_MINUTE: '0',
      // Stopping test servers need not wait for a load balancer; shutdown.e2e-spec.ts tests it.
      SHUTDOWN_GRACE_MS: '0',
      // A busy test machine can take seconds to open a connection; the default (5 s) is for services.
      DATABASE_CONNECT_TIMEOUT_MS: '20000',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(child, baseUrl, () => output, 30_000, 100);
  // Compiled before the first test's request, so that no timed request pays for it.
  contract ??= OpenApiContract.fromFile().warm();
  const http = () => heldToContract(request(baseUrl));
  return {
    baseUrl,
    process: child,
    http,
    output: () => output,
    graphql: async (query, variables) => {
      const res = await http().post('/graphql').send({ query, variables });
      return { status: res.status, data: res.body.data, errors: res.body.errors };
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 10_000)))]);
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

let contract: OpenApiContract | undefined;
const HTTP_METHODS = new Set(['get', 'head', 'post', 'put', 'patch', 'delete', 'options']);

/**
 * Every answer a test awaits is checked against openapi.json (test/setup/openapi-contract.ts): an
 * answer the document does not describe fails the test that received it.
 */
function heldToContract(agent: ReturnType<typeof request>): ReturnType<typeof request> {
  const checker = (contract ??= OpenApiContract.fromFile().warm());
  return new Proxy(agent, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string' || !HTTP_METHODS.has(prop) || typeof value !== 'function') return value;
      return (url: string, ...rest: unknown[]) => {
        const test = (value as (url: string, ...rest: unknown[]) => request.Test).call(target, url, ...rest);
        const then = test.then.bind(test);
        const checkedThen: typeof test.then = (onFulfilled, onRejected) =>
          then((res) => {
            const problems = checker.violations({
              method: prop,
              url,
              status: res.status,
              contentType: res.headers['content-type'],
              body: res.body as unknown,
              text: res.text,
            });
            if (problems.length) throw new Error(`the answer does not match openapi.json:\n${problems.join('\n')}`);
            return res;
          }).then(onFulfilled, onRejected);
        test.then = checkedThen;
        return test;
      };
    },
  });
}

export interface TestContext {
  app: INestApplicationContext;
  db: TestDatabase;
  close(): Promise<void>;
}

/** The catalog services in-process, on a new test database, seeded unless `catalog` is null. */
export async function createTestContext(options: { catalog?: string | null; db?: TestDatabase } = {}): Promise<TestContext> {
  const db = options.db ?? (await createTestDatabase());
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url });
  const moduleRef = await Test.createTestingModule({ imports: [CliModule.register({ config, databaseUrl: db.url })] }).compile();
  const app = await moduleRef.init();
  const catalog = options.catalog === undefined ? BUNDLED_CATALOG : options.catalog;
  if (catalog) await seed(app, catalog);
  return {
    app,
    db,
    close: async () => {
      await app.close();
      if (!options.db) await db.drop();
    },
  };
}
