// What catalog:sync writes of each attempt (table catalog_source_syncs): the service reads it back
// as freshness (catalog/source-freshness.service.ts).
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service.js';

export interface SyncOutcome {
  source: string;
  provider: string | null;
  ok: boolean;
  offers: number;
  error: string | null;
}

@Injectable()
export class SourceSyncRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** One attempt per source: a success moves lastSuccessAt and the offer count; any other outcome keeps them and says why. */
  async record(outcomes: readonly SyncOutcome[], at = new Date()): Promise<void> {
    await this.prisma.$transaction(
      outcomes.map((o) =>
        this.prisma.catalogSourceSync.upsert({
          where: { source: o.source },
          create: {
            source: o.source,
            provider: o.provider,
            lastAttemptAt: at,
            lastSuccessAt: o.ok ? at : null,
            offers: o.ok ? o.offers : 0,
            lastError: o.ok ? null : o.error,
          },
          update: o.ok
            ? { provider: o.provider, lastAttemptAt: at, lastSuccessAt: at, offers: o.offers, lastError: null }
            : { provider: o.provider, lastAttemptAt: at, lastError: o.error },
        }),
      ),
    );
  }
}
