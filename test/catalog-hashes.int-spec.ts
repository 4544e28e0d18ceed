// Stored content hashes and checksums come from the hash function of the code that wrote them.
// After a change of that function (catalog-hash.ts), re-importing unchanged content must still
// write nothing: here the stored hashes of the bundled catalog are made "old" by hand, as a
// database written before the change would have them.
import pg from 'pg';
import { catalogChecksum, rowContentHash } from '../src/domain/catalog/catalog-hash.js';
import type { CatalogContent, CatalogVersionInfo } from '../src/domain/catalog/catalog.types.js';
import { Decimal } from '../src/domain/money/money.js';
import { CatalogRepository } from '../src/modules/catalog/index.js';
import { CatalogWriterRepository, type NewVersion } from '../src/modules/catalog-admin/index.js';
import { createTestContext, type TestContext } from './setup/test-app.js';
import { at, defined } from '../src/domain/checked.js';

describe('catalog writes across a change of the content hash function (integration)', () => {
  let ctx: TestContext;
  let db: pg.Client;
  let repo: CatalogRepository;
  let writer: CatalogWriterRepository;
  let version: CatalogVersionInfo;
  let content: CatalogContent;

  beforeAll(async () => {
    ctx = await createTestContext();
    db = new pg.Client({ connectionString: ctx.db.url });
    await db.connect();
    repo = ctx.app.get(CatalogRepository);
    writer = ctx.app.get(CatalogWriterRepository);
    version = defined(await repo.findLatestVersion(), 'the seeded version');
    content = await repo.loadContent(version);
  });
  afterAll(async () => {
    await db.end();
    await ctx.close();
  });

  const count = async (sql: string): Promise<number> => Number(at((await db.query<{ n: string }>(sql)).rows, 0).n);
  const write = (c: CatalogContent, label: string): Promise<Awaited<ReturnType<CatalogWriterRepository['writeVersion']>>> => {
    const input: NewVersion = {
      label,
      source: 'test',
      notes: null,
      content: c,
      checksum: catalogChecksum(c),
      filesChecksum: null,
      publish: false,
      expectedCurrentId: version.id,
    };
    return writer.writeVersion(input);
  };

  it('loads the seeded version back as it was imported: the checksum over what it reads is the one stored at import', async () => {
    // The import stored catalogChecksum of the content it parsed from data/catalog; the reads are SQL
    // of their own (catalog.repository.ts), so a column read wrong (a decimal, a date, an enum
    // array) changes the checksum of what comes back.
    expect(catalogChecksum(content)).toBe(version.checksum);
    expect([content.providers.length, content.availability.length, content.referenceFigures.length, content.energy?.length]).not.toContain(0);
  });

  it('finds unchanged content unchanged, writes nothing and stores the new hashes and checksum', async () => {
    for (const table of ['offers', 'providers', 'regions', 'gpu_models', 'reference_figures']) {
      await db.query(`UPDATE ${table} SET content_hash = md5('older hash function ' || content_hash) WHERE valid_to IS NULL`);
    }
    await db.query(`UPDATE catalog_versions SET checksum = repeat('0', 64) WHERE id = $1`, [version.id]);
    const rowsBefore = await count('SELECT count(*) AS n FROM offers');

    const outcome = await write(content, 'same-content');

    expect(outcome).toMatchObject({ status: 'unchanged', version: { id: version.id, checksum: catalogChecksum(content) } });
    expect(await count('SELECT count(*) AS n FROM catalog_versions')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM offers')).toBe(rowsBefore);
    const stored = new Map(
      (await db.query<{ key_hash: string; content_hash: string }>('SELECT key_hash, content_hash FROM offers WHERE valid_to IS NULL')).rows.map((r) => [
        r.key_hash,
        r.content_hash,
      ]),
    );
    expect(stored.size).toBe(content.offers.length);
    for (const offer of content.offers) expect([offer.keyHash, stored.get(offer.keyHash)]).toEqual([offer.keyHash, rowContentHash(offer)]);
  });

  it('writes one offer row when only the upfront payment of one offer changes', async () => {
    const target = defined(
      content.offers.find((o): o is typeof o & { upfront: Decimal } => o.upfront !== null),
      'an offer with an upfront payment',
    );
    const repriced = { ...target, upfront: target.upfront.plus(new Decimal('1')) };
    const changed = { ...content, offers: content.offers.map((o) => (o === target ? repriced : o)) };

    const outcome = await write(changed, 'upfront-changed');

    expect(outcome).toMatchObject({ status: 'created', rowsWritten: 1 });
    const seq = outcome.status === 'created' ? outcome.version.seq : -1;
    expect(await count(`SELECT count(*) AS n FROM offers WHERE valid_to = ${seq}`)).toBe(1);
    const row = await db.query<{ upfront: string }>('SELECT upfront::text FROM offers WHERE key_hash = $1 AND valid_to IS NULL', [target.keyHash]);
    expect(new Decimal(at(row.rows, 0).upfront).eq(repriced.upfront)).toBe(true);
  });
});
