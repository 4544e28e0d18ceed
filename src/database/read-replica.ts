// The optional read replica (DATABASE_REPLICA_URL): a PostgreSQL streaming standby that catalog
// content is loaded from, so that a publish's fan-out (every instance loading the new version at
// once) and cold reads of old versions do not land on the primary. A standby applies each
// transaction whole, and a version's rows are written in one transaction with its catalog_versions
// row, so a version the replica has is complete there; one it has not (yet) is loaded from the
// primary (catalog/catalog.repository.ts). Everything else, the small and the
// must-be-current reads, stays on the primary.
import { Logger } from '@nestjs/common';
import type pg from 'pg';

export const READ_REPLICA = Symbol('READ_REPLICA');

export type ReplicaLag = { ok: true; lagSeconds: number } | { ok: false; message: string };

export class ReadReplica {
  private readonly logger = new Logger(ReadReplica.name);
  private reachable = true;

  /** `pool`: tests pass a fake (modules/catalog/testing/fake-catalog-database.ts). */
  constructor(readonly pool: pg.Pool) {}

  /** Whether the replica holds version `id` (and so all of it); false, logged, when it does not answer. */
  async hasVersion(id: string): Promise<boolean> {
    try {
      const { rows } = await this.pool.query('SELECT 1 FROM catalog_versions WHERE id = $1', [id]);
      if (!this.reachable) this.logger.log('The read replica answers again');
      this.reachable = true;
      return rows.length > 0;
    } catch (error) {
      if (this.reachable) this.logger.warn(`The read replica does not answer (${(error as Error).message}); loading from the primary`);
      this.reachable = false;
      return false;
    }
  }

  /** Seconds since the last transaction the replica applied, 0 when it has applied all it received. */
  async lag(): Promise<ReplicaLag> {
    try {
      const { rows } = await this.pool.query<{ lag: number | null; standby: boolean }>(
        `SELECT pg_is_in_recovery() AS standby,
                CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                     ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float8 END AS lag`,
      );
      const row = rows[0];
      if (!row?.standby) return { ok: true, lagSeconds: 0 };
      return { ok: true, lagSeconds: Math.max(0, Math.round((row.lag ?? 0) * 1000) / 1000) };
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
