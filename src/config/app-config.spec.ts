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
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL="mysql://x" must be a postgresql:// connection string'],
  ])('rejects %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });
});
