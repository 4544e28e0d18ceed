import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { PG_POOL } from './database.options.js';

/**
 * The one Prisma client of the process. It runs on the shared pg pool (PG_POOL), which the
 * catalog repository also uses for bulk COPY during imports. It connects on its first query: the
 * service's start-up reads through pg alone, and serve.ts warms Prisma once the service answers.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(@Inject(PG_POOL) readonly pool: pg.Pool) {
    super({ adapter: new PrismaPg(pool) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
    await this.pool.end();
  }
}
