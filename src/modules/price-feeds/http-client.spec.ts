import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkedLookup, FeedGuardError, forbiddenAddress, refuseAddressLiteral } from './feed-guard.js';
import { HttpClient, parseRetryAfter, ResponseTooLargeError } from './http-client.js';

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
    // First answer: half a body, then nothing (longer than the 1 s limit between chunks, which a busy machine does not reach by chance); second: the whole body.
    handler = (_req, res) => {
      res.writeHead(200);
      if (hits === 1) res.write('{"half":');
      else res.end('{"whole":true}');
    };
    const client = new HttpClient({ timeoutMs: 1_000, retries: 1, backoffMs: 10 });
    await expect(client.stream(`${base}/big`, read)).resolves.toBe('{"whole":true}');
    expect(hits).toBe(2);
    hits = 0;
    handler = (_req, res) => res.writeHead(200).end('<Error/>');
    await expect(client.stream(`${base}/xml`, read)).rejects.toThrow(/^not what the consumer expects: <Error\/>$/);
    expect(hits).toBe(1);
  });

  it('stays on the configured origin: a next-page link or a redirect to another origin is refused before any connection', async () => {
    handler = (req, res) => {
      if (req.url === '/to-metadata') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      else if (req.url === '/to-other-port') res.writeHead(301, { location: 'http://127.0.0.2:9/steal' }).end();
      else if (req.url === '/hop') res.writeHead(307, { location: '/page?n=2' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"page":2}');
    };
    const client = new HttpClient({ retries: 2, backoffMs: 10, endpoints: [`${base}/prices`] });
    // A redirect on the same origin is followed.
    await expect(client.json(`${base}/hop`)).resolves.toEqual({ page: 2 });
    hits = 0;
    const metadata = client.text(`${base}/to-metadata`);
    await expect(metadata).rejects.toThrow(
      /a redirect from .*\/to-metadata leaves the source's origin\(s\) http:\/\/127\.0\.0\.1:\d+ for http:\/\/169\.254\.169\.254/,
    );
    await expect(metadata).rejects.toMatchObject({ cause: expect.any(FeedGuardError) });
    await expect(client.text(`${base}/to-other-port`)).rejects.toThrow(/leaves the source's origin/);
    // A next-page link the feed wrote, to another host: refused without a request; no retry either.
    await expect(client.json('http://169.254.169.254/latest/meta-data/')).rejects.toThrow(/the URL leaves the source's origin/);
    expect(hits).toBe(2);
    await client.close();
  });

  it('refuses a larger answer than PRICE_SOURCE_MAX_BYTES after reading at most about the cap, and does not retry it', async () => {
    let written = 0;
    // An endless body: 64 KiB chunks until the client goes away.
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(65_536, 0x20);
      const pump = (): void => {
        while (!res.destroyed && written < 512 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      res.on('close', () => undefined);
      pump();
    };
    const client = new HttpClient({ retries: 3, backoffMs: 10, maxBytes: 1024 * 1024, endpoints: [base] });
    const before = process.memoryUsage().rss;
    await expect(client.json(`${base}/huge`)).rejects.toMatchObject({ cause: expect.any(ResponseTooLargeError) });
    expect(hits).toBe(1);
    // The client stopped reading: the server got rid of far less than the 512 MiB it would have sent.
    expect(written).toBeLessThan(64 * 1024 * 1024);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
    // A declared Content-Length over the cap is refused before the body is read.
    handler = (_req, res) => res.writeHead(200, { 'content-length': String(2 * 1024 * 1024) }).end(Buffer.alloc(2 * 1024 * 1024));
    await expect(client.text(`${base}/declared`)).rejects.toThrow(/larger than 1048576 bytes \(PRICE_SOURCE_MAX_BYTES\)/);
    server.closeAllConnections();
    await client.close();
  });

  it('stops a streamed file at PRICE_SOURCE_MAX_STREAM_BYTES', async () => {
    handler = (_req, res) => res.writeHead(200).end(Buffer.alloc(300_000, 0x61));
    const client = new HttpClient({ retries: 1, backoffMs: 10, maxStreamBytes: 100_000, endpoints: [base] });
    const read = async (body: NodeJS.ReadableStream) => {
      let n = 0;
      for await (const chunk of body) n += (chunk as Buffer).length;
      return n;
    };
    await expect(client.stream(`${base}/file`, read)).rejects.toMatchObject({ cause: expect.any(ResponseTooLargeError) });
    expect(hits).toBe(1);
    await client.close();
  });
});

describe('feed guard (addresses a price feed may make the sync connect to)', () => {
  it('refuses link-local, private, shared and reserved addresses, loopback unless allowed, and IPv4 written as IPv6', () => {
    for (const a of [
      '169.254.169.254',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '100.100.100.200',
      '0.0.0.0',
      'fe80::1',
      'fd00::1',
      '::ffff:169.254.169.254',
    ]) {
      expect([a, forbiddenAddress(a, true)]).toEqual([a, 'a private, link-local or reserved address']);
    }
    expect(forbiddenAddress('127.0.0.1', false)).toBe('a loopback address (the configured endpoint is not on loopback)');
    expect(forbiddenAddress('::1', true)).toBeNull();
    expect(forbiddenAddress('151.101.1.140', false)).toBeNull();
    expect(refuseAddressLiteral('[::ffff:a9fe:a9fe]', true)?.rule).toBe('FORBIDDEN_ADDRESS');
    expect(refuseAddressLiteral('localhost', false)?.rule).toBe('FORBIDDEN_ADDRESS');
    expect(refuseAddressLiteral('prices.azure.com', false)).toBeNull();
  });

  it('checks every address a name resolves to when the connection is made', async () => {
    const lookup = (allow: boolean) =>
      new Promise<unknown>((resolve) => checkedLookup(() => allow)('localhost', {}, (error, address) => resolve(error ?? address)));
    expect(await lookup(false)).toMatchObject({
      rule: 'FORBIDDEN_ADDRESS',
      message: expect.stringMatching(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address/),
    });
    expect(await lookup(true)).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});
