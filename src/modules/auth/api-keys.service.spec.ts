// ApiKeysService with an in-memory key store: what a key looks like and what is kept of it, who
// a key belongs to, and how long a verified (or unknown) key is remembered (API_KEY_CACHE_MS).
import { createHash } from 'node:crypto';
import { Test } from '@nestjs/testing';
import { APP_CONFIG } from '../../config/app-config.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { ApiKeysService } from './api-keys.service.js';
import { InMemoryApiKeyRepository } from './testing/in-memory-api-key.repository.js';
import { at } from '../../domain/checked.js';

async function setUp({ cacheMs = 5_000 } = {}) {
  const repo = new InMemoryApiKeyRepository();
  const moduleRef = await Test.createTestingModule({
    providers: [ApiKeyRepository, ApiKeysService, { provide: APP_CONFIG, useValue: { API_KEY_CACHE_MS: cacheMs } }],
  })
    .overrideProvider(ApiKeyRepository)
    .useValue(repo)
    .compile();
  return { repo, keys: moduleRef.get(ApiKeysService) };
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(ApiKeysService.name, () => {
  describe('create', () => {
    it('makes a gca_ key of 32 random bytes and stores only its sha256 and its first 12 characters', async () => {
      const { repo, keys } = await setUp();
      const { key, record } = await keys.create('dashboard');
      // 32 bytes in base64url without padding are 43 characters.
      expect(key).toMatch(/^gca_[A-Za-z0-9_-]{43}$/);
      expect(record).toMatchObject({ name: 'dashboard', prefix: key.slice(0, 12), revokedAt: null });
      expect(repo.rows).toHaveLength(1);
      expect(at(repo.rows, 0).keyHash).toBe(sha256(key));
      expect(Object.values(at(repo.rows, 0))).not.toContain(key);
      expect((await keys.create('dashboard')).key).not.toBe(key);
    });

    it('accepts names of 1–100 letters, digits, spaces and . _ @ -, and nothing else', async () => {
      const { repo, keys } = await setUp();
      await expect(keys.create('ci-bot_2 ops@example.com')).resolves.toBeDefined();
      await expect(keys.create('x'.repeat(100))).resolves.toBeDefined();
      for (const name of ['', 'x'.repeat(101), 'a/b', '<script>', 'line\nbreak']) {
        await expect(keys.create(name)).rejects.toThrow(/^name: /);
      }
      expect(repo.rows).toHaveLength(2);
    });
  });

  describe('verify', () => {
    it('knows the caller of a key, and nobody for an unknown or revoked one', async () => {
      const { keys } = await setUp({ cacheMs: 0 });
      const { key, record } = await keys.create('dashboard');
      await expect(keys.verify(key)).resolves.toEqual({ keyId: record.id, name: 'dashboard' });
      await expect(keys.verify('gca_unknown')).resolves.toBeNull();
      await expect(keys.revoke(record.id)).resolves.toEqual([expect.objectContaining({ id: record.id })]);
      await expect(keys.verify(key)).resolves.toBeNull();
    });

    it('remembers a verified key and an unknown one for API_KEY_CACHE_MS, so repeated requests do not reach the database', async () => {
      const { repo, keys } = await setUp({ cacheMs: 5_000 });
      const { key, record } = await keys.create('dashboard');
      await keys.verify(key);
      await keys.verify('gca_unknown');
      await sleep(20); // well within 5 s, but longer than a cache that forgot at once
      await keys.verify(key);
      await keys.verify('gca_unknown');
      expect(repo.lookups).toBe(2);
      // Within the window a revoked key still passes: the documented price of the cache.
      await keys.revoke(record.prefix);
      await expect(keys.verify(key)).resolves.toEqual({ keyId: record.id, name: 'dashboard' });
    });

    it('asks again once API_KEY_CACHE_MS has passed, and then sees a revocation', async () => {
      const { repo, keys } = await setUp({ cacheMs: 30 });
      const { key, record } = await keys.create('dashboard');
      await keys.verify(key);
      await keys.revoke(record.prefix);
      await sleep(60);
      await expect(keys.verify(key)).resolves.toBeNull();
      expect(repo.lookups).toBe(2);
    });

    it('asks the database every time with API_KEY_CACHE_MS=0', async () => {
      const { repo, keys } = await setUp({ cacheMs: 0 });
      const { key } = await keys.create('dashboard');
      for (let i = 0; i < 3; i++) await keys.verify(key);
      expect(repo.lookups).toBe(3);
    });
  });

  it('revokes by prefix once, and lists revoked keys with the time', async () => {
    const { keys } = await setUp();
    const { record } = await keys.create('dashboard');
    await keys.create('ci');
    await expect(keys.revoke(record.prefix)).resolves.toEqual([expect.objectContaining({ id: record.id, revokedAt: null })]);
    await expect(keys.revoke(record.prefix)).resolves.toEqual([]);
    const listed = await keys.list();
    expect(listed.map((k) => [k.name, k.revokedAt instanceof Date])).toEqual([
      ['dashboard', true],
      ['ci', false],
    ]);
  });
});
