// How responsive the service stays while a test sends it something heavy: /health/live is polled
// until the work is done, and the slowest answer is what the test bounds.
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
