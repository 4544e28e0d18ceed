import { createTestServer, type TestServer } from './setup/test-app.js';

// A right-sizing estimate over every GPU and precision: a few ms of work each, so 40 at once
// keep the service busy for a while.
const heavyEstimate = {
  model: { preset: 'llama-3-8b' },
  workload: { hourlyProfile: Array.from({ length: 24 }, (_, h) => 20 + 10 * h), avgInputTokens: 500, avgOutputTokens: 200, batchShare: 0.15 },
  precisions: ['FP16', 'FP8', 'INT8', 'INT4'],
  policy: { tolerance: 'RECOVERABLE' },
};

describe('graceful shutdown (e2e)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer({ env: { SHUTDOWN_GRACE_MS: '1500' } });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('answers every request in flight when SIGTERM arrives, then exits 0', async () => {
    const inFlight = Array.from({ length: 40 }, () =>
      t
        .http()
        .post('/v1/estimates')
        .send(heavyEstimate)
        .then(
          (r) => r.status,
          (e: Error) => e.message,
        ),
    );
    await new Promise((r) => setTimeout(r, 30));
    const exited = new Promise<number | null>((resolve) => t.process.once('exit', (code) => resolve(code)));
    t.process.kill('SIGTERM');
    // Not ready any more (load balancers stop sending), while still answering.
    await new Promise((r) => setTimeout(r, 100));
    expect((await t.http().get('/health/ready')).status).toBe(503);
    const statuses = await Promise.all(inFlight);
    expect(statuses).toEqual(Array(40).fill(200));
    expect(await exited).toBe(0);
  });
});
