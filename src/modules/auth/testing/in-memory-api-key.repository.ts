// ApiKeyRepository held in memory, for unit tests of ApiKeysService: keys stored by hash as in
// the api_keys table, revoked by id or prefix, with a count of hash look-ups (database round trips).
import type { ApiKeyRecord, ApiKeyRepository } from '../api-key.repository.js';

export interface StoredApiKey extends ApiKeyRecord {
  keyHash: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class InMemoryApiKeyRepository implements Pick<ApiKeyRepository, 'create' | 'findAll' | 'findActiveByHash' | 'revoke'> {
  /** Rows as stored, hashes included. */
  readonly rows: StoredApiKey[] = [];
  /** findActiveByHash calls. */
  lookups = 0;

  async create(input: { id: string; name: string; prefix: string; keyHash: string }): Promise<ApiKeyRecord> {
    const row: StoredApiKey = { ...input, createdAt: new Date(), revokedAt: null };
    this.rows.push(row);
    return record(row);
  }

  async findAll(): Promise<ApiKeyRecord[]> {
    return [...this.rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map(record);
  }

  async findActiveByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    this.lookups += 1;
    const row = this.rows.find((r) => r.keyHash === keyHash && r.revokedAt === null);
    return row ? record(row) : null;
  }

  async revoke(ref: string): Promise<ApiKeyRecord[]> {
    const found = this.rows.filter((r) => r.revokedAt === null && (UUID.test(ref) ? r.id === ref : r.prefix === ref));
    const before = found.map(record);
    for (const row of found) row.revokedAt = new Date();
    return before;
  }
}

const record = ({ keyHash: _hash, ...rest }: StoredApiKey): ApiKeyRecord => ({ ...rest });
