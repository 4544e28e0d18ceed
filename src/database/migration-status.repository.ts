// Which migrations of prisma/migrations the database has applied: the one query readiness asks
// (the same rule as start-up's check, schema-engine.ts unappliedOf).
import { Injectable } from '@nestjs/common';
import { APPLIED_MIGRATIONS_SQL, DEFAULT_MIGRATION_PATHS, readMigrationList, unappliedOf } from './schema-engine.js';
import { PrismaService } from './prisma.service.js';

@Injectable()
export class MigrationStatusRepository {
  private expected: Promise<string[]> | undefined;

  constructor(private readonly prisma: PrismaService) {}

  /** The migrations of prisma/migrations without a finished record, oldest first; throws when the database does not answer. */
  async pending(): Promise<string[]> {
    this.expected ??= readMigrationList(DEFAULT_MIGRATION_PATHS.migrationsDir).then((l) => l.migrationDirectories.map((d) => d.path));
    const rows = await this.prisma.$queryRawUnsafe<{ migration_name: string }[]>(APPLIED_MIGRATIONS_SQL);
    return unappliedOf(await this.expected, rows);
  }
}
