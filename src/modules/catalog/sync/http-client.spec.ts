import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, parseRetryAfter } from './http-client.js';

describe('parseRetryAfter (RFC 9110 10.2.3)', () => {
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter('0')).toBe(0);
    const now = Date.parse('2026-11-30T12:00:00Z');
    expect(parseRetryAfter('Mon, 30 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 30 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('HttpClient against a local server', () => {
  let server: http.Server;
  let base: string;
  let hits = 0;
  let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = () => undefined;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits += 1;
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => (hits = 0));

  it('gives up on a server that does not answer within the timeout, after its retries', async () => {
    handler = () => undefined; // never answers
    const client = new HttpClient({ timeoutMs: 100, retries: 1, backoffMs: 10 });
    await expect(client.text(`${base}/slow`)).rejects.toThrow(`GET ${base}/slow: no answer within 100 ms (gave up after 2 attempts)`);
    server.closeAllConnections();
  });

  it('does not retry a 404, and refuses a Retry-After longer than it will wait', async () => {
    handler = (_req, res) => res.writeHead(404).end('gone');
    await expect(new HttpClient({ retries: 3, backoffMs: 10 }).text(`${base}/gone`)).rejects.toThrow(`GET ${base}/gone answered 404`);
    expect(hits).toBe(1);
    hits = 0;
    handler = (_req, res) => res.writeHead(429, { 'retry-after': '3600' }).end();
    await expect(new HttpClient({ retries: 3, backoffMs: 10 }).text(`${base}/busy`)).rejects.toThrow(/answered 429 with Retry-After 3600 s, longer than 120 s/);
    expect(hits).toBe(1);
  });

  it('stream: a body that stalls is fetched again from the start; an error of the consumer is not retried', async () => {
    const read = async (body: NodeJS.ReadableStream) => {
      let text = '';
      for await (const chunk of body) text += String(chunk);
      if (!text.startsWith('{')) throw new Error(`not what the consumer expects: ${text.slice(0, 10)}`);
      return text;
    };
    // First answer: half a body, then nothing (longer than the 200 ms limit between chunks); second: the whole body.
    handler = (_req, res) => {
      res.writeHead(200);
      if (hits === 1) res.write('{"half":');
      else res.end('{"whole":true}');
    };
    const client = new HttpClient({ timeoutMs: 200, retries: 1, backoffMs: 10 });
    await expect(client.stream(`${base}/big`, read)).resolves.toBe('{"whole":true}');
    expect(hits).toBe(2);
    hits = 0;
    handler = (_req, res) => res.writeHead(200).end('<Error/>');
    await expect(client.stream(`${base}/xml`, read)).rejects.toThrow(/^not what the consumer expects: <Error\/>$/);
    expect(hits).toBe(1);
  });
});
