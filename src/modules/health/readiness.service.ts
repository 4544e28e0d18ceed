import { Inject, Injectable, Optional } from '@nestjs/common';
import { READ_REPLICA, type ReadReplica, type ReplicaLag } from '../../database/read-replica.js';
import { MigrationStatusRepository } from '../../database/migration-status.repository.js';
import { CatalogService } from '../catalog/index.js';

type Check = { ok: true } | { ok: false; message: string };

/** Readiness is probed often and by anyone: one database round trip per second at most. */
export const READINESS_CACHE_MS = 1_000;

@Injectable()
export class ReadinessService {
  private draining = false;
  private lastDatabaseCheck: { at: number; result: Promise<Check> } | null = null;

  /** From SIGTERM on, readiness answers 503 so load balancers stop sending new requests. */
  startDraining(): void {
    this.draining = true;
  }

  constructor(
    private readonly migrations: MigrationStatusRepository,
    private readonly catalogs: CatalogService,
    @Optional() @Inject(READ_REPLICA) private readonly replica: ReadReplica | null = null,
  ) {}

  /** The read replica's lag (null: no DATABASE_REPLICA_URL). Never makes the service unready: loads fall back to the primary. */
  async replicaLag(): Promise<ReplicaLag | null> {
    return this.replica ? this.replica.lag() : null;
  }

  /** The database answers and every migration in prisma/migrations is applied. */
  async database(): Promise<Check> {
    if (this.draining) return { ok: false, message: 'shutting down' };
    const now = Date.now();
    if (this.lastDatabaseCheck && now - this.lastDatabaseCheck.at < READINESS_CACHE_MS) return this.lastDatabaseCheck.result;
    const result = this.checkDatabase();
    this.lastDatabaseCheck = { at: now, result };
    return result;
  }

  private async checkDatabase(): Promise<Check> {
    try {
      const pending = await this.migrations.pending();
      return pending.length ? { ok: false, message: `pending migrations: ${pending.join(', ')}` } : { ok: true };
    } catch {
      return { ok: false, message: 'database unreachable or not migrated' };
    }
  }

  /** A current catalog version exists and its content is loaded. */
  async catalog(): Promise<{ ok: true; label: string; offers: number; pushed: boolean } | { ok: false; message: string }> {
    try {
      const { version, content } = await this.catalogs.snapshot();
      return { ok: true, label: version.label, offers: content.offers.length, pushed: this.catalogs.publishesPushed };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : 'catalog unavailable' };
    }
  }
}
