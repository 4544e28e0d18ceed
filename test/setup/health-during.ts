// How responsive the service stays while a test sends it something heavy: /health/live is polled
// until the work is done, and the slowest answer is what the test bounds.
import { Worker } from 'node:worker_threads';
import request from 'supertest';

/** Runs `work` while polling `${baseUrl}/health/live`; the slowest health answer in ms. */
export async function slowestHealthDuring(baseUrl: string, work: () => Promise<unknown>): Promise<number> {
  let done = false;
  let slowest = 0;
  const poll = (async () => {
    while (!done) {
      const start = performance.now();
      await request(baseUrl).get('/health/live').expect(200);
      slowest = Math.max(slowest, performance.now() - start);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  await work().finally(() => (done = true));
  await poll;
  return slowest;
}

// A thread of its own, so that the latency measured is the service's, not the test's event loop
// busy sending requests. One probe every `everyMs`, each on a fresh connection, whether or not the
// previous one has answered (a stall is then sampled as it happens, not skipped).
const SAMPLER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const samples = [];
let inFlight = 0;
const probe = () => {
  inFlight++;
  const t0 = performance.now();
  const at = Date.now();
  const done = (ok) => { samples.push({ at, ms: performance.now() - t0, ok }); inFlight--; };
  const req = http.get(workerData.url, { agent: false, timeout: workerData.timeoutMs }, (res) => { res.resume(); res.on('end', () => done(res.statusCode === 200)); });
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', () => done(false));
};
const timer = setInterval(probe, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  const wait = () => (inFlight ? setTimeout(wait, 10) : parentPort.postMessage(samples));
  wait();
});
`;

/** One probe: when it was sent (Date.now()), how long the answer took, whether it was a 200. */
export interface HealthSample {
  at: number;
  ms: number;
  ok: boolean;
}

/** Probes `${baseUrl}/health/live` from a worker thread until stopped; stop() waits for the probes in flight. */
export function sampleHealth(baseUrl: string, { everyMs, timeoutMs }: { everyMs: number; timeoutMs: number }): { stop: () => Promise<HealthSample[]> } {
  const worker = new Worker(SAMPLER, { eval: true, workerData: { url: `${baseUrl}/health/live`, everyMs, timeoutMs } });
  return {
    stop: async () => {
      const samples = new Promise<HealthSample[]>((resolve) => worker.once('message', resolve));
      worker.postMessage('stop');
      const result = await samples;
      await worker.terminate();
      return result;
    },
  };
}

/** The nearest-rank percentile (p in 0..100]; NaN for no values. */
export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
