// Which PostgreSQL to use: DATABASE_URL's server when set, else an embedded one under
// EMBEDDED_PG_DATA_DIR (started here, stopped by the caller).
import type { AppConfig } from '../config/app-config.js';
import { forgetOwner, recordOwner, runningOwner } from './embedded-owner.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { checkDatabaseUrl, checkEmbeddedPostgres, StartupError } from './startup-checks.js';

export interface ResolvedDatabase {
  url: string;
  embedded: boolean;
  /** Where the data lives, for log lines (never includes a password). */
  description: string;
  stop(): Promise<void>;
}

/**
 * `share`: the caller is the service, which runs until stopped: it records itself as the owner of
 * the embedded server it starts (embedded-owner.ts), and a script run meanwhile uses that server.
 */
export async function resolveDatabase(
  config: Pick<AppConfig, 'DATABASE_URL' | 'DATABASE_CONNECT_TIMEOUT_MS' | 'EMBEDDED_PG_DATA_DIR' | 'EMBEDDED_PG_PORT' | 'EMBEDDED_PG_DATABASE'>,
  { share = false }: { share?: boolean } = {},
): Promise<ResolvedDatabase> {
  if (config.DATABASE_URL) {
    await checkDatabaseUrl(config.DATABASE_URL, config.DATABASE_CONNECT_TIMEOUT_MS);
    return {
      url: config.DATABASE_URL,
      embedded: false,
      description: `PostgreSQL at ${redactUrl(config.DATABASE_URL)} (DATABASE_URL)`,
      stop: async () => undefined,
    };
  }
  const owner = await runningOwner(config.EMBEDDED_PG_DATA_DIR);
  // A record whose server does not answer (its service is stopping) is passed over: this process
  // then starts its own, or says why it cannot.
  if (
    owner &&
    (await checkDatabaseUrl(owner.url, config.DATABASE_CONNECT_TIMEOUT_MS).then(
      () => true,
      () => false,
    ))
  ) {
    return {
      url: owner.url,
      embedded: false,
      description: `the embedded PostgreSQL of the running service (pid ${owner.pid}) on 127.0.0.1:${owner.port}, data in ${config.EMBEDDED_PG_DATA_DIR}`,
      stop: async () => undefined,
    };
  }
  await checkEmbeddedPostgres({ port: config.EMBEDDED_PG_PORT, dataDir: config.EMBEDDED_PG_DATA_DIR });
  const running = await startEmbeddedPostgres({
    dataDir: config.EMBEDDED_PG_DATA_DIR,
    port: config.EMBEDDED_PG_PORT,
    database: config.EMBEDDED_PG_DATABASE,
  }).catch((error: unknown) => {
    const reason = error instanceof Error && error.message ? error.message : String(error);
    throw new StartupError(
      `The embedded PostgreSQL did not start (port ${config.EMBEDDED_PG_PORT}, data in ${config.EMBEDDED_PG_DATA_DIR}): ${reason}.`,
      'Check EMBEDDED_PG_PORT and EMBEDDED_PG_DATA_DIR (LOG_LEVEL=debug shows its log), or set DATABASE_URL to use your own PostgreSQL.',
    );
  });
  if (share) await recordOwner(config.EMBEDDED_PG_DATA_DIR, { url: running.url, port: config.EMBEDDED_PG_PORT });
  return {
    url: running.url,
    embedded: true,
    description: `embedded PostgreSQL on 127.0.0.1:${config.EMBEDDED_PG_PORT}, data in ${config.EMBEDDED_PG_DATA_DIR} (DATABASE_URL is unset)`,
    stop: async () => {
      if (share) await forgetOwner(config.EMBEDDED_PG_DATA_DIR);
      await running.stop();
    },
  };
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparseable url>';
  }
}
