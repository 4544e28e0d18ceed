// CatalogService in a Nest testing module with the in-memory repository: which version answers a
// request (current, pinned, asOf), what a diff compares, which versions stay in memory, how loads
// are shared and bounded, what counts as an outage, and how a publish arrives when its NOTIFY is lost.
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { makeCatalog, makeOffer, makeReferenceFigure } from '../../domain/compliance/testing/factories.js';
import { Decimal } from '../../domain/money/money.js';
import { CatalogService } from './catalog.service.js';
import { LISTEN_CLIENTS, PUBLISH_CHANNEL } from './publication-listener.js';
import { catalogTestingModule } from './testing/catalog-testing-module.js';
import { FakeListenServer } from './testing/fake-listen-server.js';
import { InMemoryCatalogRepository } from './testing/in-memory-catalog.repository.js';
import { at as elementAt } from '../../domain/checked.js';

async function setUp({ tracking = false, cacheMb = 16 } = {}) {
  const repo = new InMemoryCatalogRepository();
  const moduleRef = await catalogTestingModule({ repository: repo, tracking, config: { CATALOG_CACHE_MB: cacheMb } }).compile();
  return { repo, service: moduleRef.get(CatalogService) };
}

const at = (iso: string): Date => new Date(`${iso}T00:00:00Z`);

describe(CatalogService.name, () => {
  beforeAll(() => Logger.overrideLogger(false));

  describe('which version answers', () => {
    it('answers the version published last when no version is asked for', async () => {
      const { repo, service } = await setUp();
      const v1 = repo.addVersion();
      const v2 = repo.addVersion();
      repo.publishAt(v2.id, at('2026-02-01'));
      repo.publishAt(v1.id, at('2026-03-01')); // a rollback: v1 is current again
      await expect(service.resolveVersion()).resolves.toMatchObject({ id: v1.id, label: 'v1', current: true });
    });

    it('follows a publish once the publication log is read again, when it tracks the current version', async () => {
      const { repo, service } = await setUp({ tracking: true });
      const v1 = repo.addVersion();
      await repo.publish(v1.id);
      expect((await service.resolveVersion()).id).toBe(v1.id);
      const v2 = repo.addVersion();
      await repo.publish(v2.id);
      expect((await service.resolveVersion()).id).toBe(v1.id); // not read yet
      await service.refreshCurrent();
      expect((await service.resolveVersion()).id).toBe(v2.id);
    });

    it('pins an older version by label or by id, and serves that version’s content', async () => {
      const { repo, service } = await setUp();
      const oldContent = makeCatalog({ offers: [makeOffer({ instanceType: 'old-box' })] });
      const v1 = repo.addVersion({ content: oldContent });
      const v2 = repo.addVersion({ content: makeCatalog({ offers: [makeOffer({ instanceType: 'new-box' })] }) });
      await repo.publish(v1.id);
      await repo.publish(v2.id);
      expect((await service.resolveVersion({ version: 'v1' })).id).toBe(v1.id);
      expect((await service.resolveVersion({ version: v1.id })).label).toBe('v1');
      const { version, content } = await service.snapshot({ version: 'v1' });
      expect(version.current).toBe(false);
      expect(content.offers.map((o) => o.instanceType)).toEqual(['old-box']);
    });

    it('answers 404 CATALOG.VERSION_NOT_FOUND for a version that does not exist, naming it', async () => {
      const { repo, service } = await setUp();
      await repo.publish(repo.addVersion().id);
      await expect(service.resolveVersion({ version: 'v9' })).rejects.toMatchObject({
        code: 'CATALOG.VERSION_NOT_FOUND',
        kind: 'NOT_FOUND',
        message: expect.stringContaining('"v9"'),
      });
    });

    it('answers asOf with the version that was current at that instant, rollbacks included', async () => {
      const { repo, service } = await setUp();
      const v1 = repo.addVersion();
      const v2 = repo.addVersion();
      repo.publishAt(v1.id, at('2026-01-01'));
      repo.publishAt(v2.id, at('2026-02-01'));
      repo.publishAt(v1.id, at('2026-03-01'));
      const label = async (day: string) => (await service.resolveVersion({ asOf: new Date(day) })).label;
      expect(await label('2026-01-15T12:00:00Z')).toBe('v1');
      expect(await label('2026-02-01T00:00:00Z')).toBe('v2'); // published at that very instant
      expect(await label('2026-01-31T23:59:59.999Z')).toBe('v1');
      expect(await label('2026-02-28T00:00:00Z')).toBe('v2');
      expect(await label('2026-03-02T00:00:00Z')).toBe('v1');
      await expect(service.resolveVersion({ asOf: at('2025-12-31') })).rejects.toMatchObject({
        code: 'CATALOG.VERSION_NOT_FOUND',
        message: expect.stringContaining('2025-12-31T00:00:00.000Z'),
      });
    });

    it('refuses an asOf outside 1970–9999 (or not a date) with 400 on the asOf field, before asking the database', async () => {
      const { repo, service } = await setUp();
      await repo.publish(repo.addVersion().id);
      repo.lookups = 0;
      for (const asOf of [new Date('1969-12-31T23:59:59.999Z'), new Date('+010000-01-01T00:00:00Z'), new Date('not a date')]) {
        await expect(service.resolveVersion({ asOf })).rejects.toMatchObject({
          code: 'REQUEST.INVALID',
          kind: 'BAD_INPUT',
          errors: [{ field: 'asOf', message: expect.any(String) }],
        });
      }
      expect(repo.lookups).toBe(0);
    });

    it('refuses a version and an asOf together: they could name two versions', async () => {
      const { repo, service } = await setUp();
      await repo.publish(repo.addVersion().id);
      await expect(service.resolveVersion({ version: 'v1', asOf: at('2026-01-01') })).rejects.toMatchObject({
        code: 'CATALOG.AMBIGUOUS_VERSION',
        kind: 'BAD_INPUT',
        errors: [{ field: 'asOf', message: expect.any(String) }],
      });
    });

    it('answers 503 CATALOG.EMPTY before anything is published, and DATABASE.UNAVAILABLE when nothing is in memory and PostgreSQL is gone', async () => {
      const script = await setUp();
      script.repo.addVersion(); // imported, never published
      await expect(script.service.resolveVersion()).rejects.toMatchObject({ code: 'CATALOG.EMPTY', kind: 'UNAVAILABLE' });

      const api = await setUp({ tracking: true });
      await expect(api.service.resolveVersion()).rejects.toMatchObject({ code: 'CATALOG.EMPTY', kind: 'UNAVAILABLE' });
      api.repo.failPointerReads = true;
      api.repo.reachable = false;
      await expect(api.service.resolveVersion()).rejects.toMatchObject({ code: 'DATABASE.UNAVAILABLE', kind: 'UNAVAILABLE' });
    });

    it('answers the current version by id or label from memory, without the database', async () => {
      const { repo, service } = await setUp({ tracking: true });
      const current = repo.addVersion();
      await repo.publish(current.id);
      await service.refreshCurrent();
      repo.lookups = 0;
      expect((await service.resolveVersion({ version: 'v1' })).id).toBe(current.id);
      expect((await service.resolveVersion({ version: current.id })).id).toBe(current.id);
      expect(repo.lookups).toBe(0);
    });
  });

  describe('diff', () => {
    it('names the offers added, removed and re-priced between two versions given by label or id', async () => {
      const { repo, service } = await setUp();
      const kept = makeOffer({ instanceType: 'kept', pricePerHour: new Decimal('2.00') });
      const repriced = makeOffer({ instanceType: 'repriced', pricePerHour: new Decimal('4.00') });
      const dropped = makeOffer({ instanceType: 'dropped' });
      const v1 = repo.addVersion({ content: makeCatalog({ offers: [kept, repriced, dropped] }) });
      const v2 = repo.addVersion({
        content: makeCatalog({ offers: [kept, { ...repriced, pricePerHour: new Decimal('5.00') }, makeOffer({ instanceType: 'added' })] }),
      });
      await repo.publish(v2.id);

      const { from, to, diff } = await service.diff('v1', v2.id);
      expect([from.id, to.id]).toEqual([v1.id, v2.id]);
      expect(diff.added.map((o) => o.instanceType)).toEqual(['added']);
      expect(diff.removed.map((o) => o.instanceType)).toEqual(['dropped']);
      expect(diff.changed).toHaveLength(1);
      // 4.00 -> 5.00 is +25 %.
      expect(diff.changed[0]).toMatchObject({ offer: { instanceType: 'repriced' }, oldCurrency: 'USD', otherChanges: [] });
      expect(elementAt(diff.changed, 0).changePct?.toNumber()).toBe(25);
      expect(diff.unchangedOffers).toBe(1);
    });

    it('answers 404 when either side of a diff does not exist', async () => {
      const { repo, service } = await setUp();
      await repo.publish(repo.addVersion().id);
      await expect(service.diff('v1', 'nope')).rejects.toMatchObject({ code: 'CATALOG.VERSION_NOT_FOUND', message: expect.stringContaining('"nope"') });
      await expect(service.diff('nope', 'v1')).rejects.toMatchObject({ code: 'CATALOG.VERSION_NOT_FOUND' });
    });
  });

  describe('reference figures', () => {
    it('compares a version’s figures with its list prices once, however often they are asked for', async () => {
      const { repo, service } = await setUp();
      // One H100 on-demand list offer at 6.00 per GPU-hour against a quoted 4.00: +50 %.
      const content = makeCatalog({
        offers: [makeOffer({ pricePerHour: new Decimal('6.00') })],
        referenceFigures: [makeReferenceFigure({ value: new Decimal('4.00') })],
      });
      await repo.publish(repo.addVersion({ content }).id);
      const first = await service.referenceFigures();
      const second = await service.referenceFigures({ version: 'v1' });
      expect(first.comparisons[0]).toMatchObject({ status: 'COMPARED', matches: 1 });
      expect(elementAt(first.comparisons, 0).deviation?.toNumber()).toBe(50);
      expect(second.comparisons).toBe(first.comparisons);
    });
  });

  describe('versions in memory', () => {
    it('loads a version once for concurrent readers, and tries again after a failed load', async () => {
      const { repo, service } = await setUp();
      const v = repo.addVersion();
      await Promise.all([service.content(v), service.content(v), service.content(v)]);
      expect(repo.loads).toEqual(['v1']);
      const w = repo.addVersion();
      repo.failNextLoad = true;
      await expect(service.content(w)).rejects.toThrow('boom');
      await service.content(w);
      expect(repo.loads).toEqual(['v1', 'v2', 'v2']);
    });

    it('keeps old versions within CATALOG_CACHE_MB, dropping the least recently used, and never drops the current one', async () => {
      const { repo, service } = await setUp({ tracking: true, cacheMb: 48 });
      // Contents get a third of 48 MiB (1 kB of the 3 kB per offer): 16 MiB holds four 4,000-offer
      // contents (4 MB each), not five.
      const current = repo.addVersion({ offerCount: 4_000 });
      await repo.publish(current.id);
      await service.refreshCurrent();
      const old = [2, 3, 4, 5, 6].map(() => repo.addVersion({ offerCount: 4_000 }));
      for (const v of old) await service.content(v);
      repo.loads = [];
      await service.content(current);
      await service.content(elementAt(old, 4));
      expect(repo.loads).toEqual([]);
      await service.content(elementAt(old, 0)); // the least recently used old version was dropped
      expect(repo.loads).toEqual(['v2']);
    });

    it('refuses a third concurrent cold load of old versions with 503 CATALOG.BUSY, but never the version becoming current', async () => {
      const { repo, service } = await setUp({ tracking: true });
      const current = repo.addVersion();
      await repo.publish(current.id);
      await service.refreshCurrent();
      let open!: () => void;
      repo.gate = new Promise((resolve) => (open = resolve));
      const [a, b, c] = [repo.addVersion(), repo.addVersion(), repo.addVersion()];
      const first = service.content(a);
      const second = service.content(b);
      await expect(service.content(c)).rejects.toMatchObject({ code: 'CATALOG.BUSY', kind: 'UNAVAILABLE' });
      // A publish while both cold slots are taken: the new current version still loads.
      const next = repo.addVersion();
      await repo.publish(next.id);
      const refreshed = service.refreshCurrent();
      open();
      await Promise.all([first, second, refreshed]);
      expect((await service.resolveVersion()).id).toBe(next.id);
      expect(repo.loads).toEqual(['v1', 'v2', 'v3', 'v5']);
      await expect(service.content(c)).resolves.toBeDefined();
    });

    it('loads each version once across a publish, even when the old one is read during the switch', async () => {
      const { repo, service } = await setUp({ tracking: true });
      const v1 = repo.addVersion();
      await repo.publish(v1.id);
      await service.refreshCurrent();
      let open!: () => void;
      repo.gate = new Promise((resolve) => (open = resolve));
      const v2 = repo.addVersion();
      await repo.publish(v2.id);
      const switching = service.refreshCurrent();
      const oldRead = service.content(v1); // v1 is still current while v2 loads
      open();
      await Promise.all([switching, oldRead]);
      await Promise.all([service.content(v1), service.content(v2), service.index(v1), service.index(v2)]);
      expect(repo.loads).toEqual(['v1', 'v2']);
    });
  });

  describe('publishes whose NOTIFY is lost', () => {
    const started: CatalogService[] = [];
    beforeEach(() => jest.useFakeTimers());
    afterEach(async () => {
      for (const service of started.splice(0)) await service.onModuleDestroy();
      jest.useRealTimers();
    });

    /** The API's service, started on v1, LISTENing on a fake connection and polling every `refreshMs`. */
    async function startListening(refreshMs: number) {
      const repo = new InMemoryCatalogRepository();
      repo.listenAt = { connectionString: 'postgres://fake/catalog', connectTimeoutMs: 2_000 };
      const server = new FakeListenServer();
      const moduleRef = await catalogTestingModule({
        repository: repo,
        tracking: true,
        config: { CATALOG_REFRESH_MS: refreshMs },
        providers: [{ provide: LISTEN_CLIENTS, useValue: server.open }],
      }).compile();
      const service = moduleRef.get(CatalogService);
      const v1 = repo.addVersion();
      await repo.publish(v1.id);
      await service.onModuleInit();
      started.push(service);
      await settle();
      expect(service.publishesPushed).toBe(true);
      return { repo, server, service, v1 };
    }
    /** Runs what is due now (promise callbacks included), without moving the clock. */
    const settle = () => jest.advanceTimersByTimeAsync(0);

    it('picks up a publish whose NOTIFY never arrives at the next poll of the publication log (CATALOG_REFRESH_MS)', async () => {
      const { repo, server, service } = await startListening(1_000);
      const v2 = repo.addVersion();
      await repo.publish(v2.id);
      server.notify(PUBLISH_CHANNEL, v2.id);
      await settle();
      expect(service.currentVersionId).toBe(v2.id); // pushed, before any poll
      const v3 = repo.addVersion();
      await repo.publish(v3.id); // its NOTIFY is lost
      await jest.advanceTimersByTimeAsync(999);
      expect(service.currentVersionId).toBe(v2.id);
      await jest.advanceTimersByTimeAsync(1);
      expect(service.currentVersionId).toBe(v3.id);
      expect(service.publishesPushed).toBe(true);
    });

    it('catches up on re-opening a dropped LISTEN connection with a publish made meanwhile, long before the poll', async () => {
      const { repo, server, service, v1 } = await startListening(60_000);
      server.dropAll();
      expect(service.publishesPushed).toBe(false);
      const v2 = repo.addVersion();
      await repo.publish(v2.id);
      server.notify(PUBLISH_CHANNEL, v2.id); // no connection LISTENs: lost
      await settle();
      expect(service.currentVersionId).toBe(v1.id);
      await jest.advanceTimersByTimeAsync(1_000); // re-opened after a second (publication-listener.ts)
      expect(service.currentVersionId).toBe(v2.id);
      expect(service.publishesPushed).toBe(true);
      expect(server.clients).toHaveLength(2);
    });
  });

  it('declares an outage only when PostgreSQL does not answer a connection of its own, not when the pool is busy', async () => {
    const { repo, service } = await setUp({ tracking: true });
    await repo.publish(repo.addVersion().id);
    await service.refreshCurrent();
    repo.failPointerReads = true;
    await service.refreshCurrent();
    expect(service.servingFromCache).toBe(false);
    repo.reachable = false;
    await service.refreshCurrent();
    expect(service.servingFromCache).toBe(true);
    // Requests for the current version are still answered, from memory.
    await expect(service.snapshot()).resolves.toMatchObject({ version: { label: 'v1' } });
  });
});
