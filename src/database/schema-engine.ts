// Prisma's own schema engine, WebAssembly build: applies and creates migrations with no native
// binary and no internet (docs/development.md). The package's entry imports its
// .wasm as an ES module, which Node 22 only allows behind a flag (--experimental-wasm-modules), so we instantiate the
// WebAssembly module ourselves and hand it to the wasm-bindgen glue.
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as glue from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';

const require = createRequire(import.meta.url);
// Node has WebAssembly globally; TypeScript only types it in the DOM lib, which we do not load.
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: unknown } }>;
};
const NO_FILTERS = { externalTables: [], externalEnums: [] };

let wasmReady: Promise<void> | undefined;

function loadWasm(): Promise<void> {
  wasmReady ??= (async () => {
    const glueFile = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(path.join(path.dirname(glueFile), 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': glue });
    const exports = instance.exports as { __wbindgen_start?: () => void };
    glue.__wbg_set_wasm(exports);
    exports.__wbindgen_start?.();
  })();
  return wasmReady;
}

export interface MigrationPaths {
  schemaFile: string;
  migrationsDir: string;
}

export const DEFAULT_MIGRATION_PATHS: MigrationPaths = {
  schemaFile: path.resolve('prisma/schema.prisma'),
  migrationsDir: path.resolve('prisma/migrations'),
};

/** Runs `work` with an engine on its own small pool, and closes both afterwards. */
async function withEngine<T>(connectionString: string, schemaFile: string, work: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  await loadWasm();
  const schema = await readFile(schemaFile, 'utf8');
  const pool = new pg.Pool({ connectionString, max: 2 });
  try {
    const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg(pool));
    const engine = await glue.SchemaEngine.new({ datamodels: [[schemaFile, schema]] }, () => undefined, adapter);
    try {
      return await work(engine);
    } finally {
      engine.free();
    }
  } finally {
    await pool.end();
  }
}

export async function readMigrationList(migrationsDir: string): Promise<MigrationList> {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch(() => []);
  const dirs = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  const lockContent = await readFile(lockPath, 'utf8').catch(() => null);
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: lockContent },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      dirs.map(async (dir) => ({
        path: dir,
        migrationFile: {
          path: 'migration.sql',
          content: { tag: 'ok' as const, value: await readFile(path.join(migrationsDir, dir, 'migration.sql'), 'utf8') },
        },
      })),
    ),
  };
}

/** Whether this process has loaded the schema engine's WebAssembly (a test asks). */
export function schemaEngineLoaded(): boolean {
  return wasmReady !== undefined;
}

/**
 * Applies pending migrations exactly as `prisma migrate deploy` does; returns their names. When
 * every migration is applied (every start but the first after a new one), the engine is not
 * loaded: it is 5 MB of WebAssembly whose compiled code and memory a process keeps for the rest
 * of its life, about 10 MiB of a running service's memory (BENCHMARKS.md, "Memory"). A migration
 * that failed counts as pending, so the engine reports it as deploy would.
 */
export async function applyMigrations(connectionString: string, paths: MigrationPaths = DEFAULT_MIGRATION_PATHS): Promise<string[]> {
  const migrationsList = await readMigrationList(paths.migrationsDir);
  if ((await unapplied(connectionString, migrationsList)).length === 0) return [];
  return withEngine(connectionString, paths.schemaFile, async (engine) => {
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
    return appliedMigrationNames;
  });
}

/**
 * The SQL that takes a database from the schema `fromSchema` (null: an empty database) to
 * `toSchema`, or null when they agree. Both are schema texts; no database schema is read, because the
 * WebAssembly engine cannot describe a live PostgreSQL through the pg adapter ("Column type
 * 'char' could not be deserialized"). db:migration keeps the schema that the migrations build in
 * prisma/migrations/schema.snapshot.prisma for this purpose. `connectionString` is any reachable
 * PostgreSQL: the engine asks its version and nothing else.
 */
export async function diffSchemas(connectionString: string, fromSchema: string | null, toSchema: string, schemaFile: string): Promise<string | null> {
  // The engine connects (it asks the server's version) but reads and writes nothing.
  return withEngine(connectionString, schemaFile, async (engine) => {
    const to = { tag: 'schemaDatamodel' as const, files: [{ path: schemaFile, content: toSchema }] };
    const from = fromSchema === null ? { tag: 'empty' as const } : { ...to, files: [{ path: schemaFile, content: fromSchema }] };
    const result = await engine.diff({ from, to, script: true, exitCode: null, filters: NO_FILTERS });
    const sql = result.stdout?.trim() ?? '';
    return sql === '' || sql.startsWith('-- This is an empty migration') ? null : `${sql}\n`;
  });
}

/** Migrations in prisma/migrations that the database has not applied (all of them on an empty one). */
export async function pendingMigrations(databaseUrl: string, migrationsDir = DEFAULT_MIGRATION_PATHS.migrationsDir): Promise<string[]> {
  return unapplied(databaseUrl, await readMigrationList(migrationsDir));
}

/**
 * The migrations a database has applied: finished and not rolled back. One whose run failed is not
 * among them, so it counts as pending (start-up then hands it to the engine, readiness says so).
 */
export const APPLIED_MIGRATIONS_SQL = 'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL';

/** The names in `expected` that are not among the rows of APPLIED_MIGRATIONS_SQL. */
export function unappliedOf(expected: readonly string[], applied: readonly { migration_name: string }[]): string[] {
  const names = new Set(applied.map((r) => r.migration_name));
  return expected.filter((m) => !names.has(m));
}

/** The migrations of `list` that the database has not applied, or whose application failed. */
async function unapplied(databaseUrl: string, list: MigrationList): Promise<string[]> {
  const expected = list.migrationDirectories.map((d) => d.path);
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000, query_timeout: 10_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const table = await client.query<{ exists: string | null }>("SELECT to_regclass('_prisma_migrations')::text AS exists");
    if (!table.rows[0]?.exists) return expected;
    const { rows } = await client.query<{ migration_name: string }>(APPLIED_MIGRATIONS_SQL);
    return unappliedOf(expected, rows);
  } finally {
    await client.end().catch(() => undefined);
  }
}
