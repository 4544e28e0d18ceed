// CatalogService with an in-memory fake of its repository: which versions stay in memory, how
// loads are shared and bounded, and what counts as an outage.
import { Logger } from '@nestjs/common';
import type { CatalogContent, CatalogVersionInfo } from '../../domain/catalog/catalog.types.js';
import { makeCatalog } from '../../domain/compliance/testing/factories.js';
import { AppError } from '../../common/errors/app-error.js';
import type { CatalogRepository } from './catalog.repository.js';
import { CatalogService } from './catalog.service.js';

const version = (n: number, offerCount = 4_000): CatalogVersionInfo => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  seq: n,
  label: `v${n}`,
  source: 'test',
  notes: null,
  checksum: String(n),
  createdAt: new Date(0),
  publishedAt: null,
  current: false,
  offerCount,
  rowsWritten: 0,
  fxRates: { base: 'USD', rates: { EUR: '0.8650' }, date: '2026-11-27', source: 'test' },
  providerObservations: null,
});

class FakeRepository {
  loads: string[] = [];
  currentId: string | null = null;
  failCurrentLookup = false;
  reachable = true;
  gate: Promise<void> | null = null;
  failNextLoad = false;
  readonly versions = new Map<string, CatalogVersionInfo>();

  add(v: CatalogVersionInfo): CatalogVersionInfo {
    this.versions.set(v.id, v);
    return v;
  }
  async findCurrentVersionId(): Promise<string | null> {
    if (this.failCurrentLookup) throw new Error('timeout exceeded when trying to connect');
    return this.currentId;
  }
  async findVersion(ref: string): Promise<CatalogVersionInfo | null> {
    this.lookups += 1;
    return [...this.versions.values()].find((v) => v.id === ref || v.label === ref) ?? null;
  }
  lookups = 0;
  async loadContent(v: CatalogVersionInfo): Promise<CatalogContent> {
    this.loads.push(v.label);
    if (this.gate) await this.gate;
    if (this.failNextLoad) {
      this.failNextLoad = false;
      throw new Error('boom');
    }
    return makeCatalog();
  }
  async ping(): Promise<boolean> {
    return this.reachable;
  }
}

const service = (repo: FakeRepository, { tracking = false, cacheMb = 16 } = {}) =>
  new CatalogService(repo as unknown as CatalogRepository, { CATALOG_REFRESH_MS: 1_000, CATALOG_CACHE_MB: cacheMb }, tracking);

describe(CatalogService.name, () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('loads a version once for concurrent readers, and tries again after a failed load', async () => {
    const repo = new FakeRepository();
    const s = service(repo);
    const v = repo.add(version(1));
    await Promise.all([s.content(v), s.content(v), s.content(v)]);
    expect(repo.loads).toEqual(['v1']);
    const w = repo.add(version(2));
    repo.failNextLoad = true;
    await expect(s.content(w)).rejects.toThrow('boom');
    await s.content(w);
    expect(repo.loads).toEqual(['v1', 'v2', 'v2']);
  });

  it('keeps old versions within CATALOG_CACHE_MB, dropping the least recently used, and never drops the current one', async () => {
    const repo = new FakeRepository();
    const s = service(repo, { tracking: true, cacheMb: 48 });
    // Contents get a third of 48 MiB (1 kB of the 3 kB per offer): 16 MiB holds four 4,000-offer
    // contents (4 MB each), not five.
    const current = repo.add(version(1));
    repo.currentId = current.id;
    await s.refreshCurrent();
    const old = [2, 3, 4, 5, 6].map((n) => repo.add(version(n)));
    for (const v of old) await s.content(v);
    repo.loads = [];
    await s.content(current);
    await s.content(old[4]!);
    expect(repo.loads).toEqual([]);
    await s.content(old[0]!); // the least recently used old version was dropped
    expect(repo.loads).toEqual(['v2']);
  });

  it('refuses a third concurrent cold load of old versions with 503 CATALOG.BUSY, but never the version becoming current', async () => {
    const repo = new FakeRepository();
    const s = service(repo, { tracking: true });
    const current = repo.add(version(1));
    repo.currentId = current.id;
    await s.refreshCurrent();
    let open!: () => void;
    repo.gate = new Promise((resolve) => (open = resolve));
    const [a, b, c] = [2, 3, 4].map((n) => repo.add(version(n)));
    const first = s.content(a!);
    const second = s.content(b!);
    await expect(s.content(c!)).rejects.toMatchObject({ code: 'CATALOG.BUSY', kind: 'UNAVAILABLE' });
    // A publish while both cold slots are taken: the new current version still loads.
    const next = repo.add(version(5));
    repo.currentId = next.id;
    const refreshed = s.refreshCurrent();
    open();
    await Promise.all([first, second, refreshed]);
    expect((await s.resolveVersion()).id).toBe(next.id);
    expect(repo.loads).toEqual(['v1', 'v2', 'v3', 'v5']);
    await expect(s.content(c!)).resolves.toBeDefined();
  });

  it('loads each version once across a publish, even when the old one is read during the switch', async () => {
    const repo = new FakeRepository();
    const s = service(repo, { tracking: true });
    const v1 = repo.add(version(1));
    repo.currentId = v1.id;
    await s.refreshCurrent();
    let open!: () => void;
    repo.gate = new Promise((resolve) => (open = resolve));
    const v2 = repo.add(version(2));
    repo.currentId = v2.id;
    const switching = s.refreshCurrent();
    const oldRead = s.content(v1); // v1 is still current while v2 loads
    open();
    await Promise.all([switching, oldRead]);
    await Promise.all([s.content(v1), s.content(v2), s.index(v1), s.index(v2)]);
    expect(repo.loads).toEqual(['v1', 'v2']);
  });

  it('answers the current version by id or label from memory, without the database', async () => {
    const repo = new FakeRepository();
    const s = service(repo, { tracking: true });
    const current = repo.add(version(1));
    repo.currentId = current.id;
    await s.refreshCurrent();
    repo.lookups = 0;
    expect((await s.resolveVersion({ version: 'v1' })).id).toBe(current.id);
    expect((await s.resolveVersion({ version: current.id })).id).toBe(current.id);
    expect(repo.lookups).toBe(0);
  });

  it('declares an outage only when PostgreSQL does not answer a connection of its own, not when the pool is busy', async () => {
    const repo = new FakeRepository();
    const s = service(repo, { tracking: true });
    const current = repo.add(version(1));
    repo.currentId = current.id;
    await s.refreshCurrent();
    repo.failCurrentLookup = true;
    await s.refreshCurrent();
    expect(s.servingFromCache).toBe(false);
    repo.reachable = false;
    await s.refreshCurrent();
    expect(s.servingFromCache).toBe(true);
  });
});
