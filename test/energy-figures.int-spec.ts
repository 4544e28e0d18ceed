// The catalog's energy figures in PostgreSQL: the seeded version holds data/catalog/energy.yaml as
// written, and a changed figure is a new row of a new version, the old one closed (integration).
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { catalogChecksum } from '../src/domain/catalog/catalog-hash.js';
import { parseCatalogFiles } from '../src/domain/catalog/catalog-files.js';
import { energyFigureKey, type CatalogContent, type CatalogVersionInfo } from '../src/domain/catalog/catalog.types.js';
import { Decimal } from '../src/domain/money/money.js';
import { CatalogRepository } from '../src/modules/catalog/index.js';
import { CatalogWriterRepository } from '../src/modules/catalog-admin/index.js';
import { createTestContext, type TestContext } from './setup/test-app.js';
import { at, defined } from '../src/domain/checked.js';

describe('energy figures (integration)', () => {
  let ctx: TestContext;
  let db: pg.Client;
  let repo: CatalogRepository;
  let version: CatalogVersionInfo;
  let content: CatalogContent;

  beforeAll(async () => {
    ctx = await createTestContext();
    db = new pg.Client({ connectionString: ctx.db.url });
    await db.connect();
    repo = ctx.app.get(CatalogRepository);
    version = defined(await repo.findLatestVersion(), 'the seeded version');
    content = await repo.loadContent(version);
  });
  afterAll(async () => {
    await db.end();
    await ctx.close();
  });

  it('stores every row of data/catalog/energy.yaml with its exact value, year and source', async () => {
    const file = defined(parseCatalogFiles([{ path: 'energy.yaml', text: readFileSync('data/catalog/energy.yaml', 'utf8') }]).energy, 'rows');
    const stored = new Map((content.energy ?? []).map((f) => [energyFigureKey(f), f]));
    expect(stored.size).toBe(file.length);
    for (const { item } of file) {
      const row = defined(stored.get(energyFigureKey(item)), energyFigureKey(item));
      expect([row.value.toString(), row.year, row.source, row.note, row.gridSource]).toEqual([
        item.value.toString(),
        item.year,
        item.source,
        item.note,
        item.gridSource,
      ]);
    }
    // Sweden's national figure, as read: 21 g CO2e/kWh (Electricity Maps 2025), and its method
    expect(stored.get('GRID_INTENSITY|SE')?.value.toString()).toBe('21');
    expect(stored.get('GRID_INTENSITY|SE')?.gridSource).toBe('ELECTRICITY_MAPS');
    expect(stored.get('GRID_INTENSITY|gcp:europe-west1')?.gridSource).toBe('PROVIDER');
    // Other kinds have no method, and are stored without one.
    expect(stored.get('PUE|aws')).not.toHaveProperty('gridSource');
    expect(
      Number(
        at((await db.query<{ n: string }>("SELECT count(*) AS n FROM energy_figures WHERE kind <> 'GRID_INTENSITY' AND grid_source IS NOT NULL")).rows, 0).n,
      ),
    ).toBe(0);
  });

  it('a changed figure writes one row and closes the old one', async () => {
    const target = defined(
      content.energy?.find((f) => f.kind === 'GRID_INTENSITY' && f.subject === 'DE'),
      'DE',
    );
    const changed = { ...content, energy: (content.energy ?? []).map((f) => (f === target ? { ...f, value: new Decimal('340') } : f)) };
    const count = async (): Promise<number> => Number(at((await db.query<{ n: string }>('SELECT count(*) AS n FROM energy_figures')).rows, 0).n);
    const before = await count();
    const outcome = await ctx.app.get(CatalogWriterRepository).writeVersion({
      label: 'de-340',
      source: 'test',
      notes: null,
      content: changed,
      checksum: catalogChecksum(changed),
      filesChecksum: null,
      publish: false,
      expectedCurrentId: version.id,
    });
    expect(outcome.status).toBe('created');
    expect(await count()).toBe(before + 1);
    if (outcome.status !== 'created') return;
    const reloaded = await repo.loadContent(outcome.version);
    expect(reloaded.energy?.find((f) => f.subject === 'DE')?.value.toString()).toBe('340');
    expect((await repo.loadContent(version)).energy?.find((f) => f.subject === 'DE')?.value.toString()).toBe('342');
  });
});
