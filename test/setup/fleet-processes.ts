// The fleet test's real processes, each in a temporary folder on free ports, each stopped by its
// own stop(): a PostgreSQL primary and a streaming replica made from it with pg_basebackup (the
// machine's PostgreSQL binaries, run as the postgres user when the test runs as root, since
// PostgreSQL refuses root), a redis-server without persistence, and nginx with the configuration
// of deploy/nginx/gpu-cost-api.conf, its upstreams, port and cache folder replaced.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { postgresServerBinDir } from '../../scripts/test-prerequisites.mjs';
import { freePort } from './test-app.js';

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

/** The machine's PostgreSQL binaries (PG_BIN, else the newest /usr/lib/postgresql/<n>/bin), or a clear error. */
function postgresBin(): string {
  const found = postgresServerBinDir();
  if (!found) throw new Error('the fleet test needs PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup): apt-get install postgresql, or set PG_BIN');
  return found;
}

/** The binary's path, or a clear error naming the Debian package. */
export function requireBinary(name: string, debianPackage: string, candidates: string[] = []): string {
  for (const candidate of candidates) if (existsSync(candidate)) return candidate;
  const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const found = which.stdout.trim();
  if (which.status !== 0 || !found) throw new Error(`the fleet test needs ${name}: apt-get install ${debianPackage}`);
  return found;
}

/** Runs a PostgreSQL binary, as the postgres user when we are root. */
async function pgRun(bin: string, args: string[]): Promise<void> {
  const [cmd, full] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  await run(cmd, full, { timeout: 60_000 });
}

export interface PostgresServer {
  url(database: string): string;
  port: number;
  stop(): Promise<void>;
}

async function startPostgres(bin: string, dataDir: string, port: number, socketDir: string, extra: string[]): Promise<PostgresServer> {
  const options = ['-p', String(port), '-k', socketDir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', ...extra].join(' ');
  await pgRun(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-l', `${dataDir}.log`, '-w', '-t', '60', '-o', options, 'start']);
  return {
    port,
    url: (database) => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    stop: () => pgRun(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined),
  };
}

export interface PostgresPair {
  primary: PostgresServer;
  replica: PostgresServer;
  dir: string;
  stop(): Promise<void>;
}

/** A primary (initdb, trust auth) with `database` created, and a hot standby streaming from it. */
export async function startPrimaryAndReplica(database: string): Promise<PostgresPair> {
  const bin = postgresBin();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fleet-pg-'));
  const started: PostgresServer[] = [];
  const stop = async () => {
    for (const server of started.reverse()) await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    if (asRoot) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const uid = Number(stdout.trim());
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      await chown(dir, uid, Number(gid.trim()));
    }
    const primaryDir = path.join(dir, 'primary');
    const replicaDir = path.join(dir, 'replica');
    await pgRun(path.join(bin, 'initdb'), ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    const primary = await startPostgres(bin, primaryDir, await freePort(), dir, ['-c', 'wal_level=replica', '-c', 'max_wal_senders=4']);
    started.push(primary);
    const admin = new pg.Client({ connectionString: primary.url('postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`).finally(() => admin.end());
    await pgRun(path.join(bin, 'pg_basebackup'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    const replica = await startPostgres(bin, replicaDir, await freePort(), dir, ['-c', 'hot_standby=on']);
    started.push(replica);
    return { primary, replica, dir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One SQL statement on its own connection. */
export async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Sends SIGTERM (then SIGKILL after 5 s) and waits for the exit. */
export async function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export interface RedisServer {
  port: number;
  url: string;
  process: ChildProcess;
  /** Kills it (SIGKILL): a crash, not a shutdown. */
  kill(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open, nothing answers. */
  freeze(): void;
  /** Lets it run again (SIGCONT). */
  thaw(): void;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const net = await import('node:net');
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startRedis(): Promise<RedisServer> {
  const bin = requireBinary('redis-server', 'redis-server');
  const port = await freePort();
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    process: undefined as unknown as ChildProcess,
    kill: async () => stopChild(server.process, 'SIGKILL'),
    freeze: () => void server.process.kill('SIGSTOP'),
    thaw: () => void server.process.kill('SIGCONT'),
    restart: async () => {
      server.process = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      await waitForPort(port, 10_000);
    },
    stop: async () => {
      server.thaw();
      await stopChild(server.process);
    },
  };
  await server.restart();
  return server;
}

export interface Nginx {
  url: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** The repository's nginx configuration with the instances' addresses, a free port and a temporary cache. */
export async function startNginx(upstreamPorts: number[]): Promise<Nginx> {
  const bin = requireBinary('nginx', 'nginx', ['/usr/sbin/nginx']);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fleet-nginx-'));
  const port = await freePort();
  const source = await readFile('deploy/nginx/gpu-cost-api.conf', 'utf8');
  const servers = upstreamPorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n');
  const conf = source
    .replace(/(upstream gpu_cost_api \{\n\s*least_conn;\n)(?:\s*server [^\n]+\n)+/, `$1${servers}\n`)
    .replace(/listen 8080;/, `listen 127.0.0.1:${port};`)
    .replace(/proxy_cache_path \/var\/cache\/nginx\/gpu-cost-api/, `proxy_cache_path ${dir}/cache`);
  if (conf === source || !conf.includes(`127.0.0.1:${port}`) || !conf.includes(`${dir}/cache`) || !conf.includes(`127.0.0.1:${upstreamPorts[0]}`))
    throw new Error('deploy/nginx/gpu-cost-api.conf no longer has the upstream block, listen 8080 and proxy_cache_path this test rewrites');
  await writeFile(path.join(dir, 'gpu-cost-api.conf'), conf);
  await mkdir(path.join(dir, 'temp'));
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/temp/${t};`).join(' ');
  await writeFile(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      // As root, nginx's workers would switch to nobody, who cannot enter the temporary folder.
      asRoot ? 'user root;' : '',
      'worker_processes 2;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 2048; }',
      `http { access_log off; ${temps} include ${dir}/gpu-cost-api.conf; }`,
    ].join('\n'),
  );
  let output = '';
  const child = spawn(bin, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const stop = async () => {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, 10_000);
  } catch (error) {
    const log = await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');
    await stop();
    throw new Error(`nginx did not start: ${(error as Error).message}\n${output}\n${log}`, { cause: error });
  }
  return { url: `http://127.0.0.1:${port}`, process: child, output: () => output, stop };
}
