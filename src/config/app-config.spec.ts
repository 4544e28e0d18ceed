import { ConfigError, loadConfig } from './app-config.js';

describe(loadConfig.name, () => {
  it('applies the defaults of the quick start', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, MIGRATE_ON_START: true, EMBEDDED_PG_DATA_DIR: '.data/postgres' });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT="abc" must be a port number'],
    [{ PORT: '70000' }, 'PORT="70000" must be between 0 and 65535'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE="0" must be between 1 and 200'],
    [{ MIGRATE_ON_START: 'maybe' }, 'MIGRATE_ON_START="maybe" must be true or false'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL=(9 characters) must be a postgresql:// connection string'],
  ])('rejects %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads TRUST_PROXY as Express reads its trust proxy setting', () => {
    expect([undefined, 'false', 'true', '2', 'loopback, 10.0.0.0/8'].map((v) => loadConfig(v === undefined ? {} : { TRUST_PROXY: v }).TRUST_PROXY)).toEqual([
      false,
      false,
      true,
      2,
      'loopback, 10.0.0.0/8',
    ]);
  });

  it.each([
    [{ ESTIMATE_TIME_BUDGET_MS: '50' }, 'ESTIMATE_TIME_BUDGET_MS="50" must be between 100 and 60000'],
    [{ CATALOG_CACHE_MB: '8' }, 'CATALOG_CACHE_MB="8" must be between 16 and 65536'],
    [{ STALE_PRICE_DAYS: '0' }, 'STALE_PRICE_DAYS="0" must be between 1 and 10000'],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '1' }, 'DATABASE_STATEMENT_TIMEOUT_MS="1" must be between 100 and 600000'],
  ])('rejects the new limits out of range: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('takes a cursor signing key of 32 characters or more, and refuses a shorter one without repeating it', () => {
    expect(loadConfig({}).CURSOR_SIGNING_KEY).toBeUndefined();
    const key = 'k'.repeat(32);
    expect(loadConfig({ CURSOR_SIGNING_KEY: key }).CURSOR_SIGNING_KEY).toBe(key);
    const short = 'secret-but-31-characters-long!!';
    expect(short).toHaveLength(31);
    expect(() => loadConfig({ CURSOR_SIGNING_KEY: short })).toThrow('CURSOR_SIGNING_KEY=(31 characters) must be at least 32 characters');
    expect(() => loadConfig({ CURSOR_SIGNING_KEY: short })).not.toThrow(short);
  });

  it("refuses to start with the shipped secrets' placeholders, without repeating them", () => {
    // The values of deploy/k8s/base/secret.yaml.
    const shipped = {
      DATABASE_URL: 'postgresql://gpu_cost:change-me@postgres-primary:5432/gpu_cost',
      DATABASE_REPLICA_URL: 'postgresql://gpu_cost:change-me@postgres-replica:5432/gpu_cost',
      CURSOR_SIGNING_KEY: 'change-me-to-32-or-more-random-characters',
      REDIS_URL: 'redis://:CHANGE_ME@redis:6379',
    };
    for (const [name, value] of Object.entries(shipped)) {
      expect(() => loadConfig({ [name]: value })).toThrow(`${name}=(${value.length} characters) holds a placeholder (change-me)`);
      expect(() => loadConfig({ [name]: value })).not.toThrow(value);
    }
    expect(loadConfig({ DATABASE_URL: 'postgresql://gpu_cost:s3cret-exchanged@db:5432/gpu_cost' }).DATABASE_URL).toContain('s3cret');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });
});
