import type { PrismaService } from '../../database/prisma.service.js';
import { DEFAULT_MIGRATION_PATHS, readMigrationList } from '../../database/schema-engine.js';
import { last } from '../../domain/checked.js';
import type { CatalogService } from '../catalog/catalog.service.js';
import { READINESS_CACHE_MS, ReadinessService } from './readiness.service.js';

describe(ReadinessService.name, () => {
  it('asks the database at most once per READINESS_CACHE_MS, however often readiness is probed', async () => {
    let queries = 0;
    const prisma = {
      $queryRawUnsafe: async () => {
        queries += 1;
        throw new Error('connect ECONNREFUSED');
      },
    } as unknown as PrismaService;
    const readiness = new ReadinessService(prisma, {} as CatalogService);
    const results = await Promise.all(Array.from({ length: 50 }, () => readiness.database()));
    expect(queries).toBe(1);
    expect(results.every((r) => !r.ok)).toBe(true);
    await new Promise((r) => setTimeout(r, READINESS_CACHE_MS + 50));
    await readiness.database();
    expect(queries).toBe(2);
  });

  it('is not ready while a migration of prisma/migrations has no finished record, and names it', async () => {
    const expected = (await readMigrationList(DEFAULT_MIGRATION_PATHS.migrationsDir)).migrationDirectories.map((d) => d.path);
    const missing = last(expected);
    const rowsOf = (names: string[]) =>
      ({ $queryRawUnsafe: async () => Promise.resolve(names.map((migration_name) => ({ migration_name }))) }) as unknown as PrismaService;
    const all = await new ReadinessService(rowsOf(expected), {} as CatalogService).database();
    expect(all).toEqual({ ok: true });
    const behind = await new ReadinessService(rowsOf(expected.filter((m) => m !== missing)), {} as CatalogService).database();
    expect(behind).toEqual({ ok: false, message: `pending migrations: ${missing}` });
  });
});
