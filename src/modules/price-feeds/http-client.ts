// Fetching a price feed: undici's fetch with a timeout per request, and p-retry for retries with
// exponential backoff on 429, 5xx, timeouts and network errors. A 429 or 503 with Retry-After is
// retried after the delay the server asked for (seconds or an HTTP date), on top of the backoff.
// Large files (AWS's Price List offer files) are read as a stream by a consumer, never held whole.
//
// A feed is trusted with nothing (feed-guard.ts): every request, next-page link and redirect must
// stay on the origins the source was configured with; no private, link-local or (unless the
// configured endpoint is itself on loopback) loopback address is ever connected to, checked when
// the connection is made, so a DNS answer cannot change between the check and the connect; and
// answers are read only up to a byte cap.
import { pipeline, Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import pRetry, { AbortError } from 'p-retry';
import type { Agent, fetch as undiciFetch, Response } from 'undici';
import { checkedLookup, FeedGuardError, isLoopbackHost, refuseAddressLiteral } from './feed-guard.js';

export interface HttpOptions {
  /** One request's time limit, headers and body (default 30 s); for a streamed body, the longest wait for its next chunk. */
  timeoutMs: number;
  /** Retries after the first attempt (default 4). */
  retries: number;
  /** The first backoff; each retry doubles it (default 1 s). */
  backoffMs: number;
  /** A Retry-After longer than this fails the fetch instead of waiting (default 120 s). */
  maxRetryAfterMs: number;
  /** The largest answer read whole (a page, an index), in bytes (default 64 MiB; PRICE_SOURCE_MAX_BYTES). */
  maxBytes: number;
  /** The largest streamed file (AWS's offer files), in bytes (default 8 GiB; PRICE_SOURCE_MAX_STREAM_BYTES). */
  maxStreamBytes: number;
  /**
   * The endpoints the source was configured with: requests may reach only their origins. Empty:
   * the first URL requested is the configured endpoint.
   */
  endpoints: string[];
}

export const DEFAULT_HTTP_OPTIONS: HttpOptions = {
  timeoutMs: 30_000,
  retries: 4,
  backoffMs: 1_000,
  maxRetryAfterMs: 120_000,
  maxBytes: 64 * 1024 * 1024,
  maxStreamBytes: 8 * 1024 * 1024 * 1024,
  endpoints: [],
};

/** Redirects followed per request, each checked like the request itself. */
const MAX_REDIRECTS = 5;

export class HttpStatusError extends Error {
  constructor(
    readonly url: string,
    readonly status: number,
    readonly retryAfterMs: number | null,
  ) {
    super(`GET ${url} answered ${status}`);
    this.name = 'HttpStatusError';
  }
}

/** An answer larger than the cap: not retried, and what was read of it is dropped. */
export class ResponseTooLargeError extends Error {
  constructor(
    readonly url: string,
    readonly limitBytes: number,
    readonly variable: string,
  ) {
    super(`GET ${url}: the answer is larger than ${limitBytes} bytes (${variable})`);
    this.name = 'ResponseTooLargeError';
  }
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const RETRIED_STATUS = (status: number) => status === 429 || status >= 500;

/** Reads a body whole, refusing it past `limit` bytes (by its Content-Length, or while reading). */
async function readCapped(res: Response, url: string, limit: number): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel();
    throw new AbortError(new ResponseTooLargeError(url, limit, 'PRICE_SOURCE_MAX_BYTES'));
  }
  if (!res.body) return '';
  const reader = (res.body as WebReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new AbortError(new ResponseTooLargeError(url, limit, 'PRICE_SOURCE_MAX_BYTES'));
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class HttpClient {
  readonly options: HttpOptions;
  /** Requests sent, retries included. */
  requests = 0;
  /** Origins requests may reach (those of the configured endpoints). */
  private readonly origins = new Set<string>();
  private allowLoopback = false;
  /**
   * Connections whose address is checked as it is looked up (feed-guard.ts), one per client.
   * undici is loaded on the first request: only catalog:sync fetches feeds, and the service
   * process never should pay for it.
   */
  private undici: Promise<{ dispatcher: Agent; fetch: typeof undiciFetch }> | null = null;

  constructor(options: Partial<HttpOptions> = {}) {
    this.options = { ...DEFAULT_HTTP_OPTIONS, ...options };
    for (const endpoint of this.options.endpoints) this.configure(endpoint);
  }

  private connections(): Promise<{ dispatcher: Agent; fetch: typeof undiciFetch }> {
    this.undici ??= import('undici').then(({ Agent, fetch }) => ({
      dispatcher: new Agent({ connect: { lookup: checkedLookup(() => this.allowLoopback) } }),
      fetch,
    }));
    return this.undici;
  }

  private configure(endpoint: string): void {
    const url = new URL(endpoint);
    this.origins.add(url.origin);
    if (isLoopbackHost(url.hostname)) this.allowLoopback = true;
  }

  /** A URL the client may request: http(s), on a configured origin, not an address it must never reach. */
  private check(raw: string, why: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AbortError(new FeedGuardError('OFF_ORIGIN', `${why} is not a URL`));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AbortError(new FeedGuardError('OFF_ORIGIN', `${why} is not http(s)`));
    if (this.origins.size === 0) this.configure(url.href);
    if (!this.origins.has(url.origin)) {
      throw new AbortError(new FeedGuardError('OFF_ORIGIN', `${why} leaves the source's origin(s) ${[...this.origins].join(', ')} for ${url.origin}`));
    }
    const refused = refuseAddressLiteral(url.hostname, this.allowLoopback);
    if (refused) throw new AbortError(refused);
    return url;
  }

  /** Options from PRICE_SOURCE_TIMEOUT_MS, PRICE_SOURCE_RETRIES, PRICE_SOURCE_BACKOFF_MS, PRICE_SOURCE_MAX_BYTES, PRICE_SOURCE_MAX_STREAM_BYTES. */
  static fromEnv(env: NodeJS.ProcessEnv, endpoints: string[] = []): HttpClient {
    const read = (name: string): number | undefined => {
      const raw = env[name];
      if (raw === undefined || raw === '') return undefined;
      if (!/^\d+$/.test(raw)) throw new Error(`${name}="${raw}" must be a whole number`);
      return Number(raw);
    };
    const options: Partial<HttpOptions> = {};
    const timeoutMs = read('PRICE_SOURCE_TIMEOUT_MS');
    const retries = read('PRICE_SOURCE_RETRIES');
    const backoffMs = read('PRICE_SOURCE_BACKOFF_MS');
    const maxBytes = read('PRICE_SOURCE_MAX_BYTES');
    const maxStreamBytes = read('PRICE_SOURCE_MAX_STREAM_BYTES');
    if (timeoutMs !== undefined) options.timeoutMs = timeoutMs;
    if (retries !== undefined) options.retries = retries;
    if (backoffMs !== undefined) options.backoffMs = backoffMs;
    if (maxBytes !== undefined) options.maxBytes = maxBytes;
    if (maxStreamBytes !== undefined) options.maxStreamBytes = maxStreamBytes;
    return new HttpClient({ ...options, endpoints });
  }

  /** Closes the client's connections. */
  async close(): Promise<void> {
    if (this.undici) await (await this.undici).dispatcher.close();
  }

  async text(url: string, headers: Record<string, string> = {}): Promise<string> {
    return this.request(url, headers, (res, _touch, finalUrl) => readCapped(res, finalUrl, this.options.maxBytes));
  }

  async json(url: string, headers: Record<string, string> = {}): Promise<unknown> {
    return this.request(url, { accept: 'application/json', ...headers }, async (res, _touch, finalUrl) => {
      const body = await readCapped(res, finalUrl, this.options.maxBytes);
      try {
        return JSON.parse(body) as unknown;
      } catch {
        // Nothing of the body in the message: it is the feed's text, not ours.
        throw new AbortError(`GET ${url}: the answer is not JSON (${body.length} characters)`);
      }
    });
  }

  /**
   * A body too large to hold (hundreds of MB), read as a stream: `consume` gets it as a Node stream
   * and returns what it made of it. The time limit applies to the headers and then to every wait
   * for the next chunk, so a large file may take minutes while a stalled one still fails. A body
   * that is cut off or stalls is fetched again from the start (consume is called again, on the new
   * body, so it must start from nothing); an error of consume's own (the content is not what it
   * expects) is not retried and keeps its message.
   */
  async stream<T>(url: string, consume: (body: Readable) => Promise<T>, headers: Record<string, string> = {}): Promise<T> {
    return this.request(
      url,
      headers,
      async (res, touch) => {
        if (!res.body) throw new AbortError(`GET ${url}: the answer has no body`);
        const source = Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
        const body: { cut: Error | null } = { cut: null };
        // Registered before pipeline's own listeners, so it is set before consume sees the error.
        source.once('error', (error: Error) => (body.cut = error));
        const limit = this.options.maxStreamBytes;
        let size = 0;
        const timed = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            touch();
            size += chunk.length;
            if (size > limit) done(new ResponseTooLargeError(url, limit, 'PRICE_SOURCE_MAX_STREAM_BYTES'));
            else done(null, chunk);
          },
        });
        pipeline(source, timed, () => undefined);
        const tooLarge: { error: ResponseTooLargeError | null } = { error: null };
        timed.once('error', (error) => {
          if (error instanceof ResponseTooLargeError) tooLarge.error = error;
        });
        try {
          return await consume(timed);
        } catch (error) {
          if (tooLarge.error) throw new AbortError(tooLarge.error);
          const { cut } = body;
          if (cut === null) throw new AbortError(error as Error);
          throw new Error(
            cut.name === 'TimeoutError' ? `no data for ${this.options.timeoutMs} ms` : ((cut.cause as Error | undefined)?.message ?? cut.message),
            {
              cause: error,
            },
          );
        } finally {
          source.destroy();
        }
      },
      true,
    );
  }

  /**
   * One GET with retries. `read` turns the answer into the result; `touch` restarts the time limit
   * (idle: each chunk of a streamed body does, otherwise the limit covers the whole request).
   */
  private async request<T>(
    url: string,
    headers: Record<string, string>,
    read: (res: Response, touch: () => void, finalUrl: string) => Promise<T>,
    idle = false,
  ): Promise<T> {
    const { timeoutMs, retries, backoffMs, maxRetryAfterMs } = this.options;
    let attempts = 0;
    return pRetry(
      async () => {
        attempts += 1;
        this.requests += 1;
        const controller = new AbortController();
        const expire = () => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
        let timer = setTimeout(expire, timeoutMs);
        const touch = () => {
          if (!idle) return;
          clearTimeout(timer);
          timer = setTimeout(expire, timeoutMs);
        };
        try {
          let res: Response;
          let current = this.check(url, 'the URL').href;
          const { dispatcher, fetch } = await this.connections();
          for (let hops = 0; ; hops++) {
            try {
              res = await fetch(current, { headers, signal: controller.signal, redirect: 'manual', dispatcher });
            } catch (error) {
              const e = error as Error;
              const guard = [e, e.cause].find((c): c is FeedGuardError => c instanceof FeedGuardError);
              if (guard) throw new AbortError(guard);
              // Timeouts and network errors are retried.
              throw new Error(
                `GET ${current}: ${e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : ((e.cause as Error | undefined)?.message ?? e.message)}`,
                { cause: error },
              );
            }
            const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
            if (location === null) break;
            await res.body?.cancel();
            if (hops >= MAX_REDIRECTS) throw new AbortError(new FeedGuardError('OFF_ORIGIN', `more than ${MAX_REDIRECTS} redirects from ${url}`));
            // Each redirect is checked like the request itself: same origin, no forbidden address.
            current = this.check(new URL(location, current).href, `a redirect from ${current}`).href;
          }
          if (!res.ok) {
            await res.body?.cancel();
            const error = new HttpStatusError(url, res.status, parseRetryAfter(res.headers.get('retry-after')));
            if (!RETRIED_STATUS(res.status)) throw new AbortError(error);
            if (error.retryAfterMs !== null && error.retryAfterMs > maxRetryAfterMs) {
              throw new AbortError(`${error.message} with Retry-After ${error.retryAfterMs / 1000} s, longer than ${maxRetryAfterMs / 1000} s`);
            }
            throw error;
          }
          touch();
          try {
            return await read(res, touch, current);
          } catch (error) {
            if (error instanceof AbortError) throw error;
            throw new Error(`GET ${url}: the body was cut off (${(error as Error).message})`, { cause: error });
          }
        } finally {
          clearTimeout(timer);
        }
      },
      {
        retries,
        minTimeout: backoffMs,
        factor: 2,
        randomize: false,
        onFailedAttempt: async ({ error }) => {
          if (error instanceof HttpStatusError && error.retryAfterMs !== null) await new Promise((r) => setTimeout(r, error.retryAfterMs ?? 0));
        },
      },
    ).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}${attempts > 1 ? ` (gave up after ${attempts} attempts)` : ''}`, { cause: error });
    });
  }
}
