// RateLimitCounters on the service's own Redis client (rateLimitRedis) and a real redis-server,
// through a TCP proxy that can drop Redis's answers: a connection that lost an answer is out of
// step for good (answers are matched to commands in order), so unless it is dropped and made
// again every later count times out and falls back to memory, long after Redis answers again.
import net from 'node:net';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { RateLimitCounters, rateLimitRedis, type Limit } from '../src/modules/auth/rate-limits.js';
import { defined } from '../src/domain/checked.js';
import { cleanupSteps } from './setup/cleanup.js';
import { eventually } from './setup/eventually.js';
import { startRedis, type RedisServer } from './setup/fleet-processes.js';

interface Proxy {
  url: string;
  /** Connections made through it so far. */
  connections(): number;
  /** While true, Redis's answers are dropped (its commands still reach it). */
  dropAnswers: boolean;
  stop(): Promise<void>;
}

async function startProxy(redisPort: number): Promise<Proxy> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const proxy: Proxy = {
    url: '',
    connections: () => connections,
    dropAnswers: false,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = net.createServer((client) => {
    connections += 1;
    const upstream = net.connect(redisPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (bytes: Buffer) => upstream.write(bytes));
    upstream.on('data', (bytes: Buffer) => {
      if (!proxy.dropAnswers) client.write(bytes);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return proxy;
}

const COMMAND_MS = 300;
const from = (caller: string) => ({ ip: '10.0.0.1', headers: { 'x-caller': caller }, routeOptions: { config: {} } }) as unknown as FastifyRequest;

describe('rate limits on a Redis connection that lost an answer (real redis-server)', () => {
  let redis: RedisServer | undefined;
  let proxy: Proxy | undefined;
  let counters: RateLimitCounters | undefined;
  let direct: Redis | undefined;
  let fastify: FastifyInstance | undefined;

  beforeAll(async () => {
    // The counters log each outage and recovery; this test makes both on purpose.
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    redis = await startRedis();
    proxy = await startProxy(redis.port);
    direct = new Redis(redis.url);
  }, 30_000);

  afterAll(async () => {
    const step = cleanupSteps('rate-limit-redis');
    await step('close the limiter', async () => fastify?.close());
    await step('close the counters', async () => counters?.close());
    await step('close the direct client', async () => void direct?.disconnect());
    await step('stop the proxy', async () => proxy?.stop());
    await step('stop redis', async () => redis?.stop());
    jest.restoreAllMocks();
  }, 30_000);

  it('drops the connection after a timeout and counts in Redis again once it answers, one reconnection later', async () => {
    const through = defined(proxy, 'the proxy');
    // The service's client and timeouts (a command limit above 100 ms: a loaded test machine).
    counters = new RateLimitCounters(rateLimitRedis(through.url, { connectMs: 1_000, commandMs: COMMAND_MS }));
    fastify = Fastify();
    const limit: Limit = await counters.limit(fastify, 100, (request) => `key:${String(request.headers['x-caller'])}`);
    const shared = defined(counters, 'the counters');
    const inRedis = async (caller: string) => Number(await defined(direct, 'the direct client').get(`gpu-cost-api:window:key:${caller}`));
    await eventually(async () => {
      await limit.hit(from('probe'));
      expect(shared.status().mode).toBe('shared');
    }, 10_000);
    expect(through.connections()).toBe(1);

    // Answers lost on the way: the count times out and goes to memory.
    through.dropAnswers = true;
    const started = performance.now();
    expect((await limit.hit(from('lost'))).blocked).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(COMMAND_MS - 5);
    expect(shared.status()).toMatchObject({ mode: 'per-instance', message: expect.stringContaining('Command timed out') });
    through.dropAnswers = false;

    // Redis answers again: after one reconnection (a second connection through the proxy) counts
    // are shared again and every one succeeds; none fails, times out or is counted in memory.
    await eventually(async () => {
      await limit.hit(from('probe'));
      expect(shared.status().mode).toBe('shared');
    }, 10_000);
    expect(through.connections()).toBe(2);
    const errorsBefore = shared.status().redisErrors;
    for (let i = 0; i < 5; i++) await limit.hit(from('after'));
    expect(shared.status()).toEqual({ mode: 'shared', redisConfigured: true, redisErrors: errorsBefore });
    expect(await inRedis('after')).toBe(5);
  });
});
