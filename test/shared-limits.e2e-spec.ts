// AUTH_MODE=required on two instances sharing a real redis-server (REDIS_URL), with nginx
// (deploy/nginx/gpu-cost-api.conf) in front: a key's rate limit and an address's failed
// authentications are counted for both instances together, and nginx keeps no answer that
// needed a key. (test/fleet.e2e-spec.ts covers the limits by address, Redis outages and more.)
import { ApiKeysService } from '../src/modules/auth/index.js';
import { defined } from '../src/domain/checked.js';
import { cleanupSteps } from './setup/cleanup.js';
import { startNginx, startRedis, type Nginx, type RedisServer } from './setup/fleet-processes.js';
import { createTestContext, SMALL_CATALOG, startServerProcess, type TestContext, type TestServer } from './setup/test-app.js';
import { createTestDatabase, type TestDatabase } from './setup/test-database.js';

type Instance = Omit<TestServer, 'db'>;
const LIMIT = 4;

describe('shared limits with AUTH_MODE=required (e2e, two instances, Redis, nginx)', () => {
  let db: TestDatabase | undefined;
  let redis: RedisServer | undefined;
  let nginx: Nginx | undefined;
  let ctx: TestContext | undefined;
  const instances: Instance[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await startRedis();
    const env = { AUTH_MODE: 'required', RATE_LIMIT_PER_MINUTE: String(LIMIT), REDIS_URL: redis.url };
    instances.push(await startServerProcess({ databaseUrl: db.url, catalog: SMALL_CATALOG, env }));
    instances.push(await startServerProcess({ databaseUrl: db.url, catalog: SMALL_CATALOG, env: { ...env, MIGRATE_ON_START: 'false' } }));
    nginx = await startNginx(instances.map((i) => Number(new URL(i.baseUrl).port)));
    ctx = await createTestContext({ db, catalog: null });
  }, 90_000);

  afterAll(async () => {
    const step = cleanupSteps('shared-limits');
    await step('close the admin context', async () => ctx?.close());
    await step('stop nginx', async () => nginx?.stop());
    for (const [i, instance] of instances.entries()) await step(`stop instance ${i + 1}`, async () => instance.stop());
    await step('stop redis', async () => redis?.stop());
    await step('drop the database', async () => db?.drop());
  }, 30_000);

  const a = () => defined(instances[0], 'instance a');
  const b = () => defined(instances[1], 'instance b');
  const newKey = async (name: string) => (await defined(ctx, 'the admin context').app.get(ApiKeysService).create(name)).key;

  it(`limits a key to ${LIMIT} a minute across both instances`, async () => {
    const key = await newKey('shared');
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push((await (i % 2 ? b() : a()).http().get('/v1/gpus').set('x-api-key', key)).status);
    // Per instance, each would allow LIMIT: all six would pass.
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429, 429]);
  });

  it('nginx neither serves nor keeps an answer that needed a key (private)', async () => {
    const key = await newKey('through-nginx');
    const url = `${defined(nginx, 'nginx').url}/v1/gpus`;
    const first = await fetch(url, { headers: { 'x-api-key': key } });
    const second = await fetch(url, { headers: { 'x-api-key': key } });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.headers.get('cache-control')).toMatch(/^private/);
    expect([first.headers.get('x-cache-status'), second.headers.get('x-cache-status')]).toEqual(['BYPASS', 'BYPASS']);
  });

  it('counts failed authentications of an address across both instances: 10 on each, then 429 on either, but a valid key is served', async () => {
    for (let i = 0; i < 10; i++) {
      await a().http().get('/v1/gpus').set('x-api-key', `gca_wrong_a${i}`).expect(401);
      await b().http().get('/v1/gpus').set('x-api-key', `gca_wrong_b${i}`).expect(401);
    }
    const refused = await a().http().get('/v1/gpus').set('x-api-key', 'gca_wrong_more').expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The lock is fleet-wide, and refuses only failing tries: a key neither instance has seen yet
    // is served from the locked address by both, and a wrong key after it is still refused.
    const valid = await newKey('locked-address');
    await b().http().get('/v1/gpus').set('x-api-key', valid).expect(200);
    await a().http().get('/v1/gpus').set('x-api-key', valid).expect(200);
    const still = await b().http().get('/v1/gpus').set('x-api-key', 'gca_wrong_after').expect(429);
    expect(Number(still.headers['retry-after'])).toBeGreaterThan(0);
  });
});
