// Configuration is read and validated once, at boot, into a typed object. A bad value stops the
// boot with a message that names the variable.
import { z } from 'zod';
import { DEFAULT_STALE_PRICE_DAYS } from '../domain/compliance/price-quality.js';
import { DEFAULT_STALE_FX_DAYS } from '../domain/money/exchange-rate.js';

/** A secret still holding the shipped placeholder (deploy/k8s/base/secret.yaml: change-me): refused, so it is never deployed as it is. */
const PLACEHOLDER = /change[-_]?me|replace[-_]?me/i;
const noPlaceholder = [(v: string) => !PLACEHOLDER.test(v), 'holds a placeholder (change-me): set the real secret'] as const;
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' }).transform((v) => v === 'true' || v === '1' || v === 'yes');
const port = z.coerce
  .number({ error: 'must be a port number' })
  .int('must be an integer')
  .min(0, 'must be between 0 and 65535')
  .max(65535, 'must be between 0 and 65535');

/** Where the embedded PostgreSQL keeps its data unless EMBEDDED_PG_DATA_DIR says otherwise. */
export const DEFAULT_EMBEDDED_DATA_DIR = '.data/postgres';
/** Root's shared folder for the embedded PostgreSQL's binaries and data when the project's folder is closed to other users. */
export const DEFAULT_EMBEDDED_SHARED_DIR = '/var/tmp/gpu-cost-api';

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: port.default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// connection string')
    .refine(...noPlaceholder)
    .optional(),
  /** A streaming read replica of DATABASE_URL that catalog content is loaded from (src/database/read-replica.ts). */
  DATABASE_REPLICA_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// connection string')
    .refine(...noPlaceholder)
    .optional(),
  /** How long to wait for a new database connection (the start-up check and the pool). */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number')
    .min(100, 'must be between 100 and 120000')
    .max(120_000, 'must be between 100 and 120000')
    .default(5_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number')
    .min(100, 'must be between 100 and 600000')
    .max(600_000, 'must be between 100 and 600000')
    .default(15_000),
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 200')
    .max(200, 'must be between 1 and 200')
    .default(10),
  EMBEDDED_PG_PORT: port.default(54329),
  EMBEDDED_PG_DATA_DIR: z.string().min(1).default(DEFAULT_EMBEDDED_DATA_DIR),
  /** Started as root in a folder the postgres user cannot enter: where the binaries and the default data go. */
  EMBEDDED_PG_SHARED_DIR: z.string().min(1).default(DEFAULT_EMBEDDED_SHARED_DIR),
  EMBEDDED_PG_DATABASE: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case identifier')
    .default('gpu_cost'),
  MIGRATE_ON_START: bool.default(true),
  CATALOG_DIR: z.string().min(1).default('data/catalog'),
  /** The built dashboard (npm run build writes it), served at /; empty: no dashboard. */
  DASHBOARD_DIR: z.string().default('dist/web'),
  CATALOG_CACHE_MB: z.coerce
    .number({ error: 'must be a number of megabytes' })
    .int('must be a whole number')
    .min(16, 'must be between 16 and 65536')
    .max(65_536, 'must be between 16 and 65536')
    .default(512),
  CATALOG_REFRESH_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number')
    .min(100, 'must be between 100 and 60000')
    .max(60_000, 'must be between 100 and 60000')
    .default(1000),
  RESPONSE_CACHE_MB: z.coerce
    .number({ error: 'must be a number of megabytes' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 4096')
    .max(4096, 'must be between 0 and 4096')
    .default(32),
  STALE_PRICE_DAYS: z.coerce
    .number({ error: 'must be a number of days' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 10000')
    .max(10_000, 'must be between 1 and 10000')
    .default(DEFAULT_STALE_PRICE_DAYS),
  /** An FX rate older than this many days is flagged in the answers that convert with it. */
  STALE_FX_DAYS: z.coerce
    .number({ error: 'must be a number of days' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 10000')
    .max(10_000, 'must be between 1 and 10000')
    .default(DEFAULT_STALE_FX_DAYS),
  CATALOG_SOURCE_STALE_HOURS: z.coerce
    .number({ error: 'must be a number of hours' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 8760')
    .max(8_760, 'must be between 1 and 8760')
    .default(48),
  ESTIMATE_WORKERS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 (one per core but one) or more')
    .max(64, 'must be at most 64')
    .default(0),
  ESTIMATE_TIME_BUDGET_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number')
    .min(100, 'must be between 100 and 60000')
    .max(60_000, 'must be between 100 and 60000')
    .default(20_000),
  ESTIMATE_QUEUE: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 10000')
    .max(10_000, 'must be between 1 and 10000')
    .default(64),
  // Measurements in an estimate (docs/measurements.md): samples per request, counted before any work.
  MEASUREMENT_MAX_SAMPLES: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1_000, 'must be between 1000 and 250000')
    .max(250_000, 'must be between 1000 and 250000 (the estimate body holds at most 8 MiB of measurements)')
    .default(200_000),
  // A Prometheus the service may query for an estimate's measurements (read-only); none: queries are refused.
  PROMETHEUS_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://prometheus:9090' }).optional(),
  PROMETHEUS_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number')
    .min(100, 'must be between 100 and 60000')
    .max(60_000, 'must be between 100 and 60000')
    .default(10_000),
  PROMETHEUS_MAX_BYTES: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int('must be a whole number')
    .min(1024, 'must be between 1024 and 268435456')
    .max(256 * 1024 * 1024, 'must be between 1024 and 268435456')
    .default(32 * 1024 * 1024),
  /**
   * Who may have the service query PROMETHEUS_URL (docs/measurements.md#queries-run-by-the-service):
   * authenticated callers only (AUTH_MODE=required; with AUTH_MODE=off nobody), or anyone (a trusted network).
   */
  PROMETHEUS_QUERIES: z.enum(['authenticated', 'anyone'], { error: 'must be authenticated or anyone' }).default('authenticated'),
  // The metrics a query may select, by name (comma-separated): the DCGM and traffic metrics the feature reads.
  PROMETHEUS_METRICS: z
    .string()
    .default('DCGM_FI_DEV_GPU_UTIL,DCGM_FI_DEV_FB_USED,vllm:request_success_total,vllm:generation_tokens_total,http_requests_total')
    .transform((v) =>
      v
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
    )
    .refine((list) => list.length > 0 && list.every((m) => /^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(m)), 'must be a comma-separated list of metric names'),
  PROMETHEUS_QUERIES_PER_MINUTE: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 10000')
    .max(10_000, 'must be between 1 and 10000')
    .default(30),
  SHUTDOWN_GRACE_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(120_000, 'must be at most 120000')
    .default(1000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  /**
   * The HMAC-SHA256 key that signs offer cursors (offers.service.ts). Unset: a random key per
   * process, so cursors do not survive a restart and are refused by other instances; a deployment
   * of several instances must set the same key on each.
   */
  CURSOR_SIGNING_KEY: z
    .string()
    .min(32, 'must be at least 32 characters')
    .refine(...noPlaceholder)
    .optional(),
  AUTH_MODE: z.enum(['off', 'required'], { error: 'must be off or required' }).default('off'),
  API_KEY_CACHE_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int()
    .min(0, 'must be 0 or more')
    .max(300_000, 'must be at most 300000')
    .default(20_000),
  RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 (off) or more')
    .max(1_000_000, 'must be at most 1000000')
    .default(600),
  /**
   * Redis shared by all instances for the rate-limit and failed-authentication counters
   * (src/modules/auth/rate-limits.ts); unset: each instance counts in its own memory.
   */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .refine(...noPlaceholder)
    .optional(),
  /** How long a Redis connection attempt may take. */
  REDIS_CONNECT_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number')
    .min(10, 'must be between 10 and 60000')
    .max(60_000, 'must be between 10 and 60000')
    .default(1000),
  /** How long a request waits for Redis before it is counted in memory instead. */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number')
    .min(5, 'must be between 5 and 10000')
    .max(10_000, 'must be between 5 and 10000')
    .default(100),
  /** Fastify's `trustProxy`: which proxies' X-Forwarded-For to believe for the client address. */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v): boolean | number | string => (v === '' || v === 'false' ? false : v === 'true' ? true : /^\d+$/.test(v) ? Number(v) : v)),
  // Base URLs the OpenAPI document lists as `servers` (comma-separated); none: "/", this service.
  OPENAPI_SERVERS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ error: 'must be comma-separated absolute URLs' }))),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every((o) => o === '*' || /^https?:\/\/[^/\s]+$/.test(o)),
      'must be a comma-separated list of origins such as https://dash.example.com',
    ),
  GRAPHQL_MAX_DEPTH: z.coerce.number({ error: 'must be a number' }).int().min(2, 'must be at least 2').max(50, 'must be at most 50').default(12),
  GRAPHQL_MAX_COMPLEXITY: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(10, 'must be at least 10')
    .max(1_000_000, 'must be at most 1000000')
    .default(20_000),
  GRAPHQL_MAX_TOKENS: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(100, 'must be at least 100')
    .max(100_000, 'must be at most 100000')
    .default(2000),
  GRAPHQL_MAX_ALIASES: z.coerce.number({ error: 'must be a number' }).int().min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(30),
  GRAPHQL_MAX_DIRECTIVES: z.coerce.number({ error: 'must be a number' }).int().min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(50),
  GRAPHQL_INTROSPECTION: bool.default(true),
  GRAPHQL_PLAYGROUND: bool.default(true),
});

export type AppConfig = z.infer<typeof schema>;

/** Variables whose values a configuration error does not repeat. */
const SECRETS = new Set(['CURSOR_SIGNING_KEY', 'REDIS_URL', 'DATABASE_URL', 'DATABASE_REPLICA_URL']);

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError whose message names every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  // An empty variable means "unset": a blank DATABASE_URL= in a shell should not fail the boot.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(present);
  if (result.success) return result.data;
  const reasons = result.error.issues.map((issue) => {
    const name = issue.path.join('.');
    // A secret's value is not repeated in a message that ends up in a log.
    const shown = SECRETS.has(name) ? `(${(env[name] ?? '').length} characters)` : JSON.stringify(env[name] ?? '');
    return `${name}=${shown} ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration: ${reasons.join('; ')}`);
}

export const APP_CONFIG = Symbol('APP_CONFIG');
/** True in the API (poll the publication log, preload the current version); false in scripts. */
export const TRACK_CURRENT_VERSION = Symbol('TRACK_CURRENT_VERSION');
