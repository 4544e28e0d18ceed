import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';
import { DATABASE_OPTIONS, PG_POOL, type DatabaseOptions } from './database.options.js';
import { PrismaService } from './prisma.service.js';
import { MigrationStatusRepository } from './migration-status.repository.js';
import { READ_REPLICA, ReadReplica } from './read-replica.js';

/** The pool's settings: timeouts from the options, none for a statement timeout of 0. */
export function poolConfig(options: DatabaseOptions): pg.PoolConfig {
  return {
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    // A stuck query fails instead of holding a request forever (0: no limit; the admin scripts'
    // imports may take minutes).
    statement_timeout: options.statementTimeoutMs,
    // A frozen server (SIGSTOP, a dead network path) never answers the statement timeout: the
    // client gives up a second after the server should have. Without a statement timeout, never.
    ...(options.statementTimeoutMs > 0 ? { query_timeout: options.statementTimeoutMs + 1_000 } : {}),
  };
}

@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(READ_REPLICA) private readonly replica: ReadReplica | null) {}

  async onApplicationShutdown(): Promise<void> {
    await this.replica?.close();
  }

  static forRoot(options: DatabaseOptions): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE_OPTIONS, useValue: options },
        {
          provide: PG_POOL,
          useFactory: () => {
            const pool = new pg.Pool(poolConfig(options));
            // An idle client losing its server must not crash the process; the next query reconnects.
            pool.on('error', () => undefined);
            return pool;
          },
        },
        {
          provide: READ_REPLICA,
          useFactory: () => {
            if (!options.replicaUrl) return null;
            const pool = new pg.Pool(poolConfig({ ...options, url: options.replicaUrl }));
            pool.on('error', () => undefined);
            return new ReadReplica(pool);
          },
        },
        PrismaService,
        MigrationStatusRepository,
      ],
      exports: [PrismaService, MigrationStatusRepository, PG_POOL, DATABASE_OPTIONS, READ_REPLICA],
    };
  }
}
