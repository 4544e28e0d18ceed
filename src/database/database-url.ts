// Which PostgreSQL to use: DATABASE_URL's server when set, else an embedded one under
// EMBEDDED_PG_DATA_DIR (started here, stopped by the caller).
import { createHash } from 'node:crypto';
import path from 'node:path';
import { DEFAULT_EMBEDDED_DATA_DIR, type AppConfig } from '../config/app-config.js';
import { forgetOwner, recordOwner, runningOwner } from './embedded-owner.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { ensureSharedFolder } from './embedded-runtime.js';
import { checkDatabaseUrl, checkEmbeddedPostgres, firstClosedFolder, StartupError } from './startup-checks.js';

type EmbeddedConfig = Pick<AppConfig, 'EMBEDDED_PG_DATA_DIR' | 'EMBEDDED_PG_SHARED_DIR'>;

/**
 * The embedded PostgreSQL's data folder: EMBEDDED_PG_DATA_DIR, except when started as root with the
 * default folder behind one the postgres user cannot enter; then a folder of its own under
 * EMBEDDED_PG_SHARED_DIR, named after the default folder's absolute path (one per checkout), so
 * that the service and the admin scripts of a checkout find the same data.
 */
export function embeddedDataDir(
  config: EmbeddedConfig,
  { uid = process.getuid?.() ?? -1, cwd = process.cwd() }: { uid?: number; cwd?: string } = {},
): { dir: string; movedFrom: string | null } {
  const configured = path.resolve(cwd, config.EMBEDDED_PG_DATA_DIR);
  if (uid !== 0 || config.EMBEDDED_PG_DATA_DIR !== DEFAULT_EMBEDDED_DATA_DIR || !firstClosedFolder(configured)) return { dir: configured, movedFrom: null };
  const id = createHash('sha256').update(configured).digest('hex').slice(0, 12);
  return { dir: path.join(path.resolve(config.EMBEDDED_PG_SHARED_DIR), 'data', `postgres-${id}`), movedFrom: configured };
}

export interface ResolvedDatabase {
  url: string;
  embedded: boolean;
  /** Where the data lives, for log lines (never includes a password). */
  description: string;
  stop(): Promise<void>;
}

/**
 * `onLaunched`: called once the embedded server's process writes its first line, long before it
 * accepts connections (main.ts loads the application meanwhile); never called for DATABASE_URL.
 * `share`: the caller is the service, which runs until stopped: it records itself as the owner of
 * the embedded server it starts (embedded-owner.ts), and a script run meanwhile uses that server.
 */
export async function resolveDatabase(
  config: Pick<AppConfig, 'DATABASE_URL' | 'DATABASE_CONNECT_TIMEOUT_MS' | 'EMBEDDED_PG_PORT' | 'EMBEDDED_PG_DATABASE'> & EmbeddedConfig,
  { share = false, onLaunched }: { share?: boolean; onLaunched?: () => void } = {},
): Promise<ResolvedDatabase> {
  if (config.DATABASE_URL) {
    await checkDatabaseUrl(config.DATABASE_URL, config.DATABASE_CONNECT_TIMEOUT_MS);
    return {
      url: config.DATABASE_URL,
      embedded: false,
      description: `PostgreSQL at ${redactUrl(config.DATABASE_URL)} (DATABASE_URL)`,
      stop: async () => undefined,
    };
  }
  const data = embeddedDataDir(config);
  const dataDir = data.dir;
  const owner = await runningOwner(dataDir);
  // A record whose server does not answer (its service is stopping) is passed over: this process
  // then starts its own, or says why it cannot.
  if (
    owner &&
    (await checkDatabaseUrl(owner.url, config.DATABASE_CONNECT_TIMEOUT_MS).then(
      () => true,
      () => false,
    ))
  ) {
    return {
      url: owner.url,
      embedded: false,
      description: `the embedded PostgreSQL of the running service (pid ${owner.pid}) on 127.0.0.1:${owner.port}, data in ${dataDir}`,
      stop: async () => undefined,
    };
  }
  if (data.movedFrom) await ensureSharedFolder(config.EMBEDDED_PG_SHARED_DIR, 'data');
  await checkEmbeddedPostgres({ port: config.EMBEDDED_PG_PORT, dataDir });
  const running = await startEmbeddedPostgres({
    dataDir,
    port: config.EMBEDDED_PG_PORT,
    database: config.EMBEDDED_PG_DATABASE,
    sharedDir: config.EMBEDDED_PG_SHARED_DIR,
    ...(onLaunched && { onLog: once(onLaunched) }),
  }).catch((error: unknown) => {
    if (error instanceof StartupError) throw error;
    const reason = error instanceof Error && error.message ? error.message : String(error);
    throw new StartupError(
      `The embedded PostgreSQL did not start (port ${config.EMBEDDED_PG_PORT}, data in ${dataDir}): ${reason}.`,
      'Check EMBEDDED_PG_PORT and EMBEDDED_PG_DATA_DIR (LOG_LEVEL=debug shows its log), or set DATABASE_URL to use your own PostgreSQL.',
    );
  });
  if (share) await recordOwner(dataDir, { url: running.url, port: config.EMBEDDED_PG_PORT });
  const moves = [
    running.runtime.closedFolder && `its binaries run from a copy in ${running.runtime.binariesDir}`,
    data.movedFrom && `its data lives in ${dataDir} instead of ${data.movedFrom}`,
  ].filter(Boolean);
  const closed = running.runtime.closedFolder ?? (data.movedFrom ? firstClosedFolder(data.movedFrom) : null);
  const moved = moves.length
    ? `; started as root, and ${closed} is closed to the user postgres, so ${moves.join(' and ')} (kept there for the next start)`
    : '';
  return {
    url: running.url,
    embedded: true,
    description: `embedded PostgreSQL on 127.0.0.1:${config.EMBEDDED_PG_PORT}, data in ${dataDir} (DATABASE_URL is unset)${moved}`,
    stop: async () => {
      if (share) await forgetOwner(dataDir);
      await running.stop();
    },
  };
}

function once(call: () => void): () => void {
  let called = false;
  return () => {
    if (!called) call();
    called = true;
  };
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparseable url>';
  }
}
