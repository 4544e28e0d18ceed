export const DATABASE_OPTIONS = Symbol('DATABASE_OPTIONS');
export const PG_POOL = Symbol('PG_POOL');

export interface DatabaseOptions {
  url: string;
  poolSize: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  /** A streaming replica that catalog content is loaded from (read-replica.ts). */
  replicaUrl?: string;
}
