// deploy/nginx/gpu-cost-api.conf's retries, with a real nginx in front of three stand-in instances
// that answer every request 503 (as the service answers ESTIMATE.BUSY or while it drains): a GET
// goes on to the next instance, a POST that reached one is never sent to another, so an estimate
// refused as busy is not replayed on the whole fleet. And a body over the service's largest is
// answered by nginx itself, as the service answers it (413 problem+json), and never sent on.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MEASUREMENT_BODY_LIMIT_BYTES } from '../src/common/http/limits.js';
import { startNginx, type Nginx } from './setup/fleet-processes.js';

interface StandIn {
  port: number;
  hits: { method: string; url: string }[];
  close(): Promise<void>;
}

async function busyInstance(): Promise<StandIn> {
  const hits: StandIn['hits'] = [];
  const server = http.createServer((req, res) => {
    hits.push({ method: req.method ?? '', url: req.url ?? '' });
    req.resume();
    req.on('end', () => {
      res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '1' });
      res.end(JSON.stringify({ status: 503, code: 'ESTIMATE.BUSY' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Three stand-ins behind a fresh nginx (max_fails=1: a 503 marks an instance down for 2 s, so each case gets its own). */
async function behindNginx(run: (url: string, hits: (method: string, url: string) => number) => Promise<void>): Promise<void> {
  const instances = await Promise.all([busyInstance(), busyInstance(), busyInstance()]);
  let nginx: Nginx | undefined;
  try {
    nginx = await startNginx(instances.map((i) => i.port));
    await run(nginx.url, (method, url) => instances.flatMap((i) => i.hits).filter((h) => h.method === method && h.url === url).length);
  } finally {
    await nginx?.stop();
    await Promise.all(instances.map((i) => i.close()));
  }
}

describe('nginx in front of instances that answer 503 (deploy/nginx, a real nginx)', () => {
  it('tries a GET on each instance (proxy_next_upstream), then answers the last 503', async () => {
    await behindNginx(async (url, hits) => {
      const res = await fetch(`${url}/v1/offers?gpu=h100-sxm-80gb`);
      expect(res.status).toBe(503);
      expect(hits('GET', '/v1/offers?gpu=h100-sxm-80gb')).toBe(3);
    });
  });

  it('sends a POST that reached an instance to no other: the busy estimate comes back, not replayed', async () => {
    await behindNginx(async (url, hits) => {
      const res = await fetch(`${url}/v1/estimates`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { code: string }).code).toBe('ESTIMATE.BUSY');
      expect(hits('POST', '/v1/estimates')).toBe(1);
    });
  });
});

/** One POST of `body` (its length declared); the answer, or the error that ended it. */
function postBody(url: string, body: Buffer): Promise<{ status: number; type?: string; text: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': String(body.length) } });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], text }));
    });
    req.on('error', (error) => resolve({ error: error.message }));
    req.end(body);
  });
}

describe("nginx and a body over the service's largest (deploy/nginx, a real nginx)", () => {
  it('answers a 9.5 MiB body 413 problem+json REQUEST.TOO_LARGE itself, every time, and sends none on', async () => {
    await behindNginx(async (url, hits) => {
      expect(MEASUREMENT_BODY_LIMIT_BYTES).toBe(9 * 1024 * 1024); // client_max_body_size 9m
      const body = Buffer.alloc(9.5 * 1024 * 1024, ' ');
      for (let i = 0; i < 12; i++) {
        const answer = await postBody(`${url}/v1/estimates`, body);
        expect(answer).toMatchObject({ status: 413, type: 'application/problem+json' });
        expect(JSON.parse('text' in answer ? answer.text : '')).toEqual({
          type: 'https://gpu-cost-api.dev/problems/request-too-large',
          title: 'Payload Too Large',
          status: 413,
          detail: 'body is larger than 9 MiB, the largest body the service reads',
          code: 'REQUEST.TOO_LARGE',
          errors: [{ field: 'body', message: 'is larger than 9 MiB, the largest body the service reads' }],
        });
      }
      expect(hits('POST', '/v1/estimates')).toBe(0);
      // At the limit, the body goes on to the service (here a stand-in answering 503).
      expect(await postBody(`${url}/v1/estimates`, Buffer.alloc(MEASUREMENT_BODY_LIMIT_BYTES, ' '))).toMatchObject({ status: 503 });
    });
  });
});
