// A database that stops answering without closing anything (a SIGSTOP'd server, a dead network
// path) is the hardest outage: no error ever arrives. Between the service and PostgreSQL sits a
// TCP proxy the test can freeze: it keeps every connection open and forwards nothing. Requests
// that need the database must fail within seconds (client-side query and connect timeouts), the
// current catalog keeps being served from memory, and the service recovers when it thaws.
import net from 'node:net';
import { probe, pollUntil, type ProbeRequest } from './setup/http-probe.js';
import { SMALL_CATALOG, startServerProcess, type TestServer } from './setup/test-app.js';
import { createTestDatabase, type TestDatabase } from './setup/test-database.js';

class FreezableProxy {
  private readonly server: net.Server;
  private readonly pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  private readonly waiting = new Set<net.Socket>();
  frozen = false;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => this.accept(client));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  private accept(client: net.Socket): void {
    client.on('error', () => undefined);
    if (this.frozen) {
      // Accepted, never answered: what a stopped server's listen backlog does.
      this.waiting.add(client);
      client.on('close', () => this.waiting.delete(client));
      return;
    }
    const upstream = net.connect(this.target);
    upstream.on('error', () => client.destroy());
    const pair = { client, upstream };
    this.pairs.add(pair);
    const drop = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', drop);
    upstream.on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  freeze(): void {
    this.frozen = true;
    for (const { client, upstream } of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  }

  thaw(): void {
    this.frozen = false;
    for (const { client, upstream } of this.pairs) {
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
      upstream.resume();
    }
    for (const client of this.waiting) client.destroy();
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    for (const client of this.waiting) client.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('frozen database (e2e, through a TCP proxy)', () => {
  let db: TestDatabase;
  let proxy: FreezableProxy;
  let service: Omit<TestServer, 'db'>;

  beforeAll(async () => {
    db = await createTestDatabase();
    const url = new URL(db.url);
    proxy = new FreezableProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(await proxy.listen());
    service = await startServerProcess({
      databaseUrl: url.toString(),
      catalog: SMALL_CATALOG,
      env: { DATABASE_STATEMENT_TIMEOUT_MS: '2000', DATABASE_CONNECT_TIMEOUT_MS: '3000' },
    });
  }, 60_000);

  afterAll(async () => {
    proxy.thaw();
    await service?.stop();
    await proxy.close();
    await db.drop();
  });

  const call = (req: ProbeRequest) => probe(service.baseUrl, req, 15_000);
  const VERSIONS: ProbeRequest = { name: 'versions', path: '/v1/catalog/versions' };

  it('fails database reads within seconds while it is frozen, serves the current catalog from memory, and recovers', async () => {
    expect((await call(VERSIONS)).status).toBe(200);
    proxy.freeze();
    const frozenAt = Date.now();

    // 2 s statement timeout + 1 s client margin, or the 3 s connect timeout for a new connection.
    const versions = await call(VERSIONS);
    expect({ status: versions.status, code: (versions.json as { code?: string }).code }).toEqual({ status: 503, code: 'DATABASE.UNAVAILABLE' });
    expect(versions.ms).toBeLessThan(5_000);
    expect(versions.headers['retry-after']).toBeDefined();

    const offers = await call({ name: 'offers', path: '/v1/offers?limit=3' });
    expect(offers.status).toBe(200);
    const live = await call({ name: 'live', path: '/health/live' });
    expect(live.status).toBe(200);
    const readyDown = await pollUntil(async () => (await call({ name: 'ready', path: '/health/ready' })).status === 503, {
      timeoutMs: 10_000,
      since: frozenAt,
    });
    expect(readyDown).not.toBeNull();

    proxy.thaw();
    const thawedAt = Date.now();
    const recovered = await pollUntil(async () => (await call(VERSIONS)).status === 200, { timeoutMs: 15_000, since: thawedAt });
    expect(recovered).not.toBeNull();
  }, 60_000);
});
