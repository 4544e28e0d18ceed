// CatalogRepository with a read replica, on in-memory databases (testing/fake-catalog-database.ts):
// a version's content comes whole from the replica when the replica has that version, else whole
// from the primary, so a lagging or silent replica never serves an older version's rows.
import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { APP_CONFIG, loadConfig, TRACK_CURRENT_VERSION } from '../../config/app-config.js';
import { PG_POOL } from '../../database/database.options.js';
import { PrismaService } from '../../database/prisma.service.js';
import { READ_REPLICA, ReadReplica } from '../../database/read-replica.js';
import type { Offer } from '../../domain/catalog/catalog.types.js';
import { makeOffer } from '../../domain/compliance/testing/factories.js';
import { Decimal } from '../../domain/money/money.js';
import { CatalogRepository } from './catalog.repository.js';
import { CatalogService } from './catalog.service.js';
import { FakeCatalogDatabase } from './testing/fake-catalog-database.js';

const kept = makeOffer({ instanceType: 'kept' });
const repriced = makeOffer({ instanceType: 'repriced', pricePerHour: new Decimal('4.00') });
const dropped = makeOffer({ instanceType: 'dropped' });
const V1_OFFERS = [kept, repriced, dropped];
const V2_OFFERS = [kept, { ...repriced, pricePerHour: new Decimal('5.00') }, makeOffer({ instanceType: 'added' })];

/** v1 published and replayed by the replica; v2 published since, not replayed yet. */
function setUp() {
  const primary = new FakeCatalogDatabase();
  const v1 = primary.commitVersion(V1_OFFERS);
  primary.publish(v1.id);
  const standby = primary.standby();
  const v2 = primary.commitVersion(V2_OFFERS);
  primary.publish(v2.id);
  const replica = new ReadReplica(standby.pool);
  const repository = new CatalogRepository(primary.prisma, primary.pool, replica);
  return { primary, standby, replica, repository, v1, v2 };
}

/** Reads of a version's content, not of which version it is. */
const contentReads = (db: FakeCatalogDatabase) => db.reads.filter((table) => !['catalog_versions', 'catalog_publications'].includes(table));
const byType = (offers: Offer[]) => [...offers].sort((a, b) => a.instanceType.localeCompare(b.instanceType));

describe(`${CatalogRepository.name} with a read replica`, () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('loads a version the replica has from the replica alone', async () => {
    const { primary, standby, repository, v1 } = setUp();
    const content = await repository.loadContent(v1);
    expect(byType(content.offers)).toEqual(byType(V1_OFFERS));
    expect(contentReads(standby)).toEqual(expect.arrayContaining(['offers', 'providers']));
    expect(primary.reads).toEqual([]);
  });

  it('loads a version the lagging replica has not replayed from the primary alone, never the replica’s older rows', async () => {
    const { primary, standby, repository, v2 } = setUp();
    expect(await standby.pool.query('SELECT 1 FROM catalog_versions WHERE id = $1', [v2.id])).toEqual({ rows: [] });
    standby.reads = [];
    const content = await repository.loadContent(v2);
    expect(byType(content.offers)).toEqual(byType(V2_OFFERS));
    expect(contentReads(primary)).toEqual(expect.arrayContaining(['offers', 'providers']));
    expect(standby.reads).toEqual(['catalog_versions']); // asked whether it has v2, nothing more
  });

  it('loads from the replica once it has replayed the version', async () => {
    const { primary, standby, repository, v2 } = setUp();
    standby.catchUp(primary);
    const content = await repository.loadContent(v2);
    expect(byType(content.offers)).toEqual(byType(V2_OFFERS));
    expect(contentReads(standby)).toEqual(expect.arrayContaining(['offers', 'providers']));
    expect(primary.reads).toEqual([]);
  });

  it('loads from the primary while the replica does not answer, and from the replica again once it does', async () => {
    const { primary, standby, repository, v1 } = setUp();
    standby.down = true;
    const content = await repository.loadContent(v1);
    expect(byType(content.offers)).toEqual(byType(V1_OFFERS));
    expect(contentReads(primary)).toEqual(expect.arrayContaining(['offers', 'providers']));
    standby.down = false;
    primary.reads = [];
    await repository.loadContent(v1);
    expect(primary.reads).toEqual([]);
    expect(contentReads(standby)).toEqual(expect.arrayContaining(['offers', 'providers']));
  });

  it('lets the service answer a publish the replica has not replayed with the new version, and older versions from the replica', async () => {
    const { primary, standby, replica, v1, v2 } = setUp();
    const moduleRef = await Test.createTestingModule({
      providers: [
        CatalogRepository,
        CatalogService,
        { provide: PrismaService, useValue: primary.prisma },
        { provide: PG_POOL, useValue: primary.pool },
        { provide: READ_REPLICA, useValue: replica },
        { provide: APP_CONFIG, useValue: loadConfig({}) },
        { provide: TRACK_CURRENT_VERSION, useValue: true },
      ],
    }).compile();
    const service = moduleRef.get(CatalogService);
    await service.refreshCurrent();
    const current = await service.snapshot();
    expect(current.version).toMatchObject({ id: v2.id, current: true });
    expect(byType(current.content.offers)).toEqual(byType(V2_OFFERS));
    primary.reads = [];
    const old = await service.snapshot({ version: v1.label });
    expect(old.version).toMatchObject({ id: v1.id, current: false });
    expect(byType(old.content.offers)).toEqual(byType(V1_OFFERS));
    expect(contentReads(primary)).toEqual([]);
    expect(contentReads(standby)).toEqual(expect.arrayContaining(['offers', 'providers']));
  });
});
