// Fetching a price feed: Node's fetch with a timeout per request, and p-retry for retries with
// exponential backoff on 429, 5xx, timeouts and network errors. A 429 or 503 with Retry-After is
// retried after the delay the server asked for (seconds or an HTTP date), on top of the backoff.
// Large files (AWS's Price List offer files) are read as a stream by a consumer, never held whole.
import { pipeline, Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import pRetry, { AbortError } from 'p-retry';

export interface HttpOptions {
  /** One request's time limit, headers and body (default 30 s); for a streamed body, the longest wait for its next chunk. */
  timeoutMs: number;
  /** Retries after the first attempt (default 4). */
  retries: number;
  /** The first backoff; each retry doubles it (default 1 s). */
  backoffMs: number;
  /** A Retry-After longer than this fails the fetch instead of waiting (default 120 s). */
  maxRetryAfterMs: number;
}

export const DEFAULT_HTTP_OPTIONS: HttpOptions = { timeoutMs: 30_000, retries: 4, backoffMs: 1_000, maxRetryAfterMs: 120_000 };

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

/** Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const RETRIED_STATUS = (status: number) => status === 429 || status >= 500;

export class HttpClient {
  readonly options: HttpOptions;
  /** Requests sent, retries included. */
  requests = 0;

  constructor(options: Partial<HttpOptions> = {}) {
    this.options = { ...DEFAULT_HTTP_OPTIONS, ...options };
  }

  /** Options from PRICE_SOURCE_TIMEOUT_MS, PRICE_SOURCE_RETRIES, PRICE_SOURCE_BACKOFF_MS. */
  static fromEnv(env: NodeJS.ProcessEnv): HttpClient {
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
    if (timeoutMs !== undefined) options.timeoutMs = timeoutMs;
    if (retries !== undefined) options.retries = retries;
    if (backoffMs !== undefined) options.backoffMs = backoffMs;
    return new HttpClient(options);
  }

  async text(url: string, headers: Record<string, string> = {}): Promise<string> {
    return this.request(url, headers, (res) => res.text());
  }

  async json(url: string, headers: Record<string, string> = {}): Promise<unknown> {
    return this.request(url, { accept: 'application/json', ...headers }, async (res) => {
      const body = await res.text();
      try {
        return JSON.parse(body) as unknown;
      } catch {
        throw new AbortError(`GET ${url}: the answer is not JSON (${body.slice(0, 80).replace(/\s+/g, ' ')}...)`);
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
        const timed = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            touch();
            done(null, chunk);
          },
        });
        pipeline(source, timed, () => undefined);
        try {
          return await consume(timed);
        } catch (error) {
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
  private async request<T>(url: string, headers: Record<string, string>, read: (res: Response, touch: () => void) => Promise<T>, idle = false): Promise<T> {
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
          try {
            res = await fetch(url, { headers, signal: controller.signal, redirect: 'follow' });
          } catch (error) {
            const e = error as Error;
            // Timeouts and network errors are retried.
            throw new Error(
              `GET ${url}: ${e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : ((e.cause as Error | undefined)?.message ?? e.message)}`,
              { cause: error },
            );
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
            return await read(res, touch);
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
