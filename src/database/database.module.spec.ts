import { poolConfig } from './database.module.js';

describe(poolConfig.name, () => {
  const base = { url: 'postgresql://x@127.0.0.1/db', poolSize: 4, connectTimeoutMs: 3_000 };

  it('gives up on a query a second after the statement timeout, so a frozen server cannot hold a request', () => {
    expect(poolConfig({ ...base, statementTimeoutMs: 15_000 })).toMatchObject({ statement_timeout: 15_000, query_timeout: 16_000 });
  });

  it('sets no client-side query timeout when statements may run as long as they need (admin scripts: 0)', () => {
    const config = poolConfig({ ...base, statementTimeoutMs: 0 });
    expect(config.statement_timeout).toBe(0);
    // A 1-second query_timeout here broke every import over a second (the 100k benchmark catalog).
    expect(config.query_timeout).toBeUndefined();
  });
});
