import pg from 'pg';
import { createTestDatabase, type TestDatabase } from './setup/test-database.js';

describe('test database', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('is a migrated clone of the template, recorded as prisma migrate deploy records it', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query('SELECT migration_name, finished_at FROM _prisma_migrations');
    await client.end();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
  });
});
