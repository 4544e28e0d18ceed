// API keys: created, listed and revoked by an admin script, never over HTTP. A key is
// "gca_" + 32 random bytes (base64url); only its sha256 is stored. Verified keys are cached for
// API_KEY_CACHE_MS (default 5 s), so a revocation takes effect within that time on every instance.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { ApiKeyRepository, type ApiKeyRecord } from './api-key.repository.js';

export interface Caller {
  keyId: string;
  name: string;
}

const KEY_CACHE_ENTRIES = 10_000;

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

@Injectable()
export class ApiKeysService {
  /** Verified (and unknown) keys by hash, for API_KEY_CACHE_MS; at most 10,000, least recently used dropped first. */
  private readonly cache: LRUCache<string, { caller: Caller | null }>;

  constructor(
    private readonly repository: ApiKeyRepository,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'API_KEY_CACHE_MS'>,
  ) {
    this.cache = new LRUCache({ max: KEY_CACHE_ENTRIES, ttl: Math.max(1, config.API_KEY_CACHE_MS) });
  }

  async create(name: string): Promise<{ key: string; record: ApiKeyRecord }> {
    if (!/^[\w .@-]{1,100}$/.test(name)) throw new Error('name: 1–100 letters, digits, spaces or . _ @ -');
    const key = `gca_${randomBytes(32).toString('base64url')}`;
    const record = await this.repository.create({ id: randomUUID(), name, prefix: key.slice(0, 12), keyHash: sha256(key) });
    return { key, record };
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.repository.findAll();
  }

  revoke(ref: string): Promise<ApiKeyRecord[]> {
    return this.repository.revoke(ref);
  }

  /** The caller a key belongs to, or null for an unknown or revoked key. */
  async verify(key: string): Promise<Caller | null> {
    const hash = sha256(key);
    const hit = this.config.API_KEY_CACHE_MS > 0 ? this.cache.get(hash) : undefined;
    if (hit) return hit.caller;
    const record = await this.repository.findActiveByHash(hash);
    const caller = record ? { keyId: record.id, name: record.name } : null;
    if (this.config.API_KEY_CACHE_MS > 0) this.cache.set(hash, { caller });
    return caller;
  }
}
