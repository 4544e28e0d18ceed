// applyMigrations (what every start runs) loads Prisma's schema engine only when a migration is
// pending: on an up-to-date database the engine's WebAssembly, which a process would keep for
// its whole life, stays unloaded. A pending or failed migration still goes to the engine, which
// applies it, or refuses as `prisma migrate deploy` does.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { applyMigrations, readMigrationList, schemaEngineLoaded, DEFAULT_MIGRATION_PATHS } from '../src/database/schema-engine.js';
import { last } from '../src/domain/checked.js';
import { adminQuery, createTestDatabase, databaseName, withDatabase, type TestDatabase } from './setup/test-database.js';

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

describe(applyMigrations.name, () => {
  let migrated: TestDatabase;
  let empty: string;
  let expected: string[];

  beforeAll(async () => {
    expected = (await readMigrationList(DEFAULT_MIGRATION_PATHS.migrationsDir)).migrationDirectories.map((d) => d.path);
    migrated = await createTestDatabase();
    empty = withDatabase(migrated.url, `${databaseName(migrated.url)}_empty_${randomBytes(3).toString('hex')}`);
    await adminQuery(migrated.url, `CREATE DATABASE "${databaseName(empty)}"`);
  });

  afterAll(async () => {
    await adminQuery(migrated.url, `DROP DATABASE IF EXISTS "${databaseName(empty)}" WITH (FORCE)`);
    await migrated.drop();
  });

  // The first test of the file: nothing before it has loaded the engine in this module registry.
  it('applies nothing to an up-to-date database and does not load the schema engine', async () => {
    expect(expected.length).toBeGreaterThan(0);
    expect(await applyMigrations(migrated.url)).toEqual([]);
    expect(schemaEngineLoaded()).toBe(false);
  });

  it('applies every migration to an empty database through the engine, recorded as deploy records it', async () => {
    expect(await applyMigrations(empty)).toEqual(expected);
    expect(schemaEngineLoaded()).toBe(true);
    const rows = await query<{ migration_name: string; finished_at: Date | null }>(
      empty,
      'SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(expected);
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
    // A second run finds nothing to do.
    expect(await applyMigrations(empty)).toEqual([]);
  });

  it('hands a database whose last migration failed to the engine, which refuses it as deploy does', async () => {
    const failed = last(expected);
    await query(migrated.url, 'UPDATE _prisma_migrations SET finished_at = NULL, logs = $2 WHERE migration_name = $1', [failed, 'failed on purpose']);
    await expect(applyMigrations(migrated.url)).rejects.toThrow(new RegExp(`${failed}.*failed|failed.*${failed}`, 's'));
  });
});
