// Low-level HTTP probing for resilience tests (database outage, several instances): one request
// per fresh connection (no keep-alive, so a reset socket is the service's doing, never a stale
// pooled connection), a hard per-request deadline, and every outcome recorded: status, latency,
// headers, or the socket error (ECONNRESET, ECONNREFUSED, TIMEOUT, ...).
import http from 'node:http';
import { at } from '../../src/domain/checked.js';

export interface ProbeRequest {
  name: string;
  method?: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

export interface ProbeResult {
  name: string;
  path: string;
  /** HTTP status, or null when no response arrived (see `error`). */
  status: number | null;
  /** Socket-level failure: ECONNRESET, ECONNREFUSED, TIMEOUT, ... */
  error?: string;
  ms: number;
  /** When the request was sent (Date.now()). */
  at: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
}

/** Sends one request on its own connection; never throws, never waits longer than `timeoutMs`. */
export function probe(baseUrl: string, req: ProbeRequest, timeoutMs = 10_000): Promise<ProbeResult> {
  const url = new URL(req.path, baseUrl);
  const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
  const at = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: Omit<ProbeResult, 'name' | 'path' | 'ms' | 'at'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ name: req.name, path: req.path, ms: Date.now() - at, at, ...r });
    };
    const client = http.request(
      url,
      {
        method: req.method ?? 'GET',
        agent: false,
        headers: {
          accept: 'application/json',
          connection: 'close',
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e: NodeJS.ErrnoException) => done({ status: null, error: e.code ?? e.message, headers: res.headers, text: '', json: undefined }));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          done({ status: res.statusCode ?? null, headers: res.headers, text, json });
        });
      },
    );
    const timer = setTimeout(() => {
      done({ status: null, error: 'TIMEOUT', headers: {}, text: '', json: undefined });
      client.destroy();
    }, timeoutMs);
    client.on('error', (e: NodeJS.ErrnoException) => done({ status: null, error: e.code ?? e.message, headers: {}, text: '', json: undefined }));
    client.end(payload);
  });
}

export interface Traffic {
  readonly results: ProbeResult[];
  /** Stops sending and waits for the requests in flight. */
  stop(): Promise<void>;
}

/** Keeps `concurrency` loops cycling through `requests` until stopped. */
export function startTraffic(baseUrl: string, requests: ProbeRequest[], options: { concurrency?: number; pauseMs?: number; timeoutMs?: number } = {}): Traffic {
  const results: ProbeResult[] = [];
  let running = true;
  const loop = async (offset: number) => {
    for (let i = offset; running; i++) {
      results.push(await probe(baseUrl, at(requests, i % requests.length), options.timeoutMs ?? 10_000));
      await sleep(options.pauseMs ?? 20);
    }
  };
  const loops = Array.from({ length: options.concurrency ?? 3 }, (_, k) => loop(k));
  return {
    results,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Calls `check` every `intervalMs` until it returns true or `timeoutMs` passed since `since`.
 * Returns the elapsed time since `since` at the first success, or null on timeout.
 */
export async function pollUntil(check: () => Promise<boolean>, options: { timeoutMs: number; intervalMs?: number; since?: number }): Promise<number | null> {
  const since = options.since ?? Date.now();
  for (;;) {
    if (await check().catch(() => false)) return Date.now() - since;
    if (Date.now() - since > options.timeoutMs) return null;
    await sleep(options.intervalMs ?? 100);
  }
}

/** A one-line description of a result, for failure messages. */
export function describeResult(r: ProbeResult): string {
  const cache = r.headers['x-served-from-cache'] ? ' (cache)' : '';
  const body = r.status && r.status >= 500 ? ` ${r.text.slice(0, 200)}` : '';
  return `${r.name} ${r.path} -> ${r.status ?? r.error} in ${r.ms} ms${cache}${body}`;
}
