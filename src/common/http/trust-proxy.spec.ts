import Fastify from 'fastify';
import { request } from 'undici';
import { loadConfig } from '../../config/app-config.js';
import { trustProxyOf } from './trust-proxy.js';

describe('trustProxyOf: the client address under TRUST_PROXY', () => {
  /** request.ip of a request from 127.0.0.1 whose X-Forwarded-For a client began and a proxy ended with 203.0.113.7. */
  const ipBehind = async (trustProxy: string): Promise<string> => {
    const fastify = Fastify({ trustProxy: trustProxyOf(loadConfig({ TRUST_PROXY: trustProxy }).TRUST_PROXY) });
    fastify.get('/ip', (req) => ({ ip: req.ip }));
    try {
      const at = await fastify.listen({ host: '127.0.0.1', port: 0 });
      const res = await request(`${at}/ip`, { headers: { 'x-forwarded-for': '198.51.100.9, 203.0.113.7' } });
      return ((await res.body.json()) as { ip: string }).ip;
    } finally {
      await fastify.close();
    }
  };

  it.each([
    ['', '127.0.0.1'],
    // A hop count as Express reads it (Fastify alone believes no hop): the address the one proxy added.
    ['1', '203.0.113.7'],
    ['2', '198.51.100.9'],
    ['loopback', '203.0.113.7'],
    ['true', '198.51.100.9'],
  ])('TRUST_PROXY=%j: %s', async (trustProxy, ip) => {
    expect(await ipBehind(trustProxy)).toBe(ip);
  });
});
