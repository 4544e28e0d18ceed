import { jest } from '@jest/globals';
import type { PrismaService } from '../../database/prisma.service.js';
import { MigrationStatusRepository } from '../../database/migration-status.repository.js';
import { DEFAULT_MIGRATION_PATHS, readMigrationList } from '../../database/schema-engine.js';
import { last } from '../../domain/checked.js';
import type { CatalogService } from '../catalog/index.js';
import { READINESS_CACHE_MS, ReadinessService } from './readiness.service.js';

/** The repository over a Prisma stand-in that answers the applied-migrations query with `answer`. */
const migrationsAnswering = (answer: () => Promise<{ migration_name: string }[]>) =>
  new MigrationStatusRepository({ $queryRawUnsafe: answer } as unknown as PrismaService);

describe(ReadinessService.name, () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('asks the database at most once per READINESS_CACHE_MS, however often readiness is probed', async () => {
    // Only the clock is fake: Date.now() moves when the test says, whatever the machine's load.
    jest.useFakeTimers({ now: new Date('2026-12-02T00:00:00Z'), doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate', 'setTimeout', 'clearTimeout'] });
    let queries = 0;
    const readiness = new ReadinessService(
      migrationsAnswering(async () => {
        queries += 1;
        throw new Error('connect ECONNREFUSED');
      }),
      {} as CatalogService,
    );
    const results = await Promise.all(Array.from({ length: 50 }, () => readiness.database()));
    expect(queries).toBe(1);
    expect(results.every((r) => !r.ok)).toBe(true);
    jest.setSystemTime(Date.now() + READINESS_CACHE_MS - 1);
    await readiness.database();
    expect(queries).toBe(1);
    jest.setSystemTime(Date.now() + 1);
    await readiness.database();
    expect(queries).toBe(2);
  });

  it('is not ready while a migration of prisma/migrations has no finished record, and names it', async () => {
    const expected = (await readMigrationList(DEFAULT_MIGRATION_PATHS.migrationsDir)).migrationDirectories.map((d) => d.path);
    const missing = last(expected);
    const rowsOf = (names: string[]) => migrationsAnswering(async () => names.map((migration_name) => ({ migration_name })));
    const all = await new ReadinessService(rowsOf(expected), {} as CatalogService).database();
    expect(all).toEqual({ ok: true });
    const behind = await new ReadinessService(rowsOf(expected.filter((m) => m !== missing)), {} as CatalogService).database();
    expect(behind).toEqual({ ok: false, message: `pending migrations: ${missing}` });
  });
});
