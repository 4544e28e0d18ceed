import type { PrismaService } from '../../database/prisma.service.js';
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
});
