// Issue 41, "no body holds the event loop": ten 8 MiB estimate bodies at once, with defaults
// (no key, within the rate limit), while /health/live is probed. Each body once cost the request
// thread 150-250 ms (JSON.parse of 8 MiB, counting its samples twice, copying its text to the
// estimate worker) and the ten held /health/live for 1.3-1.5 s; they are now read in a worker
// thread (src/modules/estimates/estimate-bodies.ts). So are GraphQL queries over 256 KiB (ten of
// 1.9 MiB held /health/live for 0.9-1.0 s), whose answers must be the small query's; /graphql
// refuses a body over 2 MiB on its declared length.
//
// How it is measured, on two shared cores: /health/live is probed from a thread of its own every
// 20 ms, whether or not the probe before has answered, so that a stall of the event loop is
// sampled for as long as it lasts (a probe that waits its turn would count a one-second stall
// once); the p99 of some hundreds of probes then allows a few slow ones. The bound is the issue's
// 100 ms over what the machine itself adds: the p99 of the same probes for 3 s before the bodies
// are sent (a few ms on a quiet machine; tens when other processes hold the cores). A held event
// loop costs seconds (before this change: p99 2.9-3.1 s on a quiet machine, 6.3 s on a busy one),
// far beyond either. The service's own measure of its event-loop delay (/metrics) is printed beside it.
import http from 'node:http';
import { loadavg } from 'node:os';
import { percentile, sampleHealth } from './setup/health-during.js';
import { createTestServer, type TestServer } from './setup/test-app.js';

const MiB = 1024 * 1024;
const BODIES = 10;
const HEALTH_P99_MS = 100;

/** An estimate with a week and a half of one GPU's utilization every 5 s as CSV: 8 MiB, 199,000 samples (MEASUREMENT_MAX_SAMPLES is 200,000). */
function eightMiBody(): Buffer {
  const lines: string[] = [];
  for (let n = 0; n < 199_000; n++) lines.push(`${1_780_000_000 + n * 5},${(50 + 40 * Math.sin(n / 100)).toFixed(26)}\n`);
  const body = Buffer.from(
    JSON.stringify({
      model: { preset: 'llama-3-8b' },
      gpus: ['l4-24gb', 'h100-sxm-80gb'],
      workload: { avgInputTokens: 500, avgOutputTokens: 200, requestsPerSecond: 5 },
      measurements: { utilization: { csv: lines.join('') } },
    }),
  );
  expect(body.length).toBeGreaterThan(7.9 * MiB);
  expect(body.length).toBeLessThanOrEqual(8 * MiB);
  return body;
}

/** Samples of each of the two texts (traffic, utilization) of the GraphQL query: five minutes apart, 24 days. */
const GRAPHQL_SAMPLES = 7_000;
/** Zeros after each value of the large query: ~1.9 MiB, each sample read as the same number as the small query's. */
const GRAPHQL_PADDING = 125;
const GRAPHQL_QUERY = `query E($input: EstimateInput!) { estimate(input: $input) {
  gpu precision gpusPerReplica monthlyCost { amount currency } gpuCost { amount } tiers { pricingModel offerId gpuHours cost { amount } }
  measured { timezone percentile traffic { samples stepSeconds days coveragePct gaps kind profile filledHours }
    utilization { series samples meanPct p95Pct byHourOfWeek days coveragePct } } } }`;

/** A GraphQL estimate with measured traffic and utilization as CSV in its variables; each value followed by `padding` zeros. */
function graphqlBody(padding: number, line = (n: number, value: string) => `${1_780_000_000 + n * 300},${value}`): Buffer {
  const csv = (value: (n: number) => number) =>
    Array.from({ length: GRAPHQL_SAMPLES }, (_, n) => `${line(n, value(n).toFixed(2) + '0'.repeat(padding))}\n`).join('');
  const input = {
    model: { preset: 'llama-3-8b' },
    gpus: ['l4-24gb', 'h100-sxm-80gb'],
    workload: { avgInputTokens: 500, avgOutputTokens: 200 },
    measurements: { traffic: { csv: csv((n) => 3 + 2 * Math.sin(n / 40)) }, utilization: { csv: csv((n) => 50 + 40 * Math.cos(n / 90)) } },
  };
  return Buffer.from(JSON.stringify({ query: GRAPHQL_QUERY, variables: { input } }));
}

interface Answer {
  status: number;
  body: {
    code?: string;
    measured?: { utilization?: { samples: number } };
    data?: { estimate: { measured: { traffic: { samples: number } } } };
    errors?: { extensions?: { code?: string; errorCode?: string; errors?: { field: string; message: string }[] } }[];
  };
}

function post(baseUrl: string, path: string, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer['body'] }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function eventLoopDelay(baseUrl: string): Promise<string> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const ms = (name: string) => (Number(new RegExp(`^nodejs_eventloop_lag_${name}_seconds (\\S+)`, 'm').exec(text)?.[1]) * 1000).toFixed(0);
  return `p99 ${ms('p99')} ms, max ${ms('max')} ms`;
}

/**
 * /health/live probed for 3 s (the machine's own p99, `floor`), then while `burst` sends its
 * requests; the service's event-loop delay read around the burst. `summary` is the failure message.
 */
async function healthDuring(baseUrl: string, burst: () => Promise<Answer[]>) {
  const probe = () => sampleHealth(baseUrl, { everyMs: 20, timeoutMs: 10_000 });
  const quiet = probe();
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const floor = percentile(
    (await quiet.stop()).map((s) => s.ms),
    99,
  );

  await eventLoopDelay(baseUrl); // the service's histogram restarts at each read
  const during = probe();
  const answers = await burst();
  const samples = await during.stop();
  const loop = await eventLoopDelay(baseUrl);
  const ms = samples.map((s) => s.ms);
  const p99 = percentile(ms, 99);
  const summary =
    `/health/live: ${samples.length} probes, p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms ` +
    `(p99 before the burst ${floor.toFixed(1)} ms); ` +
    `the service's event-loop delay ${loop}; answers ${answers.map((a) => a.status).join(',')}; load average ${loadavg()[0]?.toFixed(1)}`;
  console.log(summary);
  return { answers, samples, floor, p99, summary };
}

describe('large bodies (e2e, bundled catalog, default limits)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  it(`ten 8 MiB estimate bodies at once: each answered, /health/live p99 under ${HEALTH_P99_MS} ms (over the machine's own) throughout`, async () => {
    const body = eightMiBody();
    // The first large body starts the worker that reads them; not what is measured.
    const first = await post(t.baseUrl, '/v1/estimates', body);
    expect(first.status).toBe(200);
    expect(first.body.measured?.utilization?.samples).toBe(199_000);

    const { answers, samples, floor, p99, summary } = await healthDuring(t.baseUrl, () =>
      Promise.all(Array.from({ length: BODIES }, () => post(t.baseUrl, '/v1/estimates', body))),
    );

    // Each body is answered: planned, or refused as the estimate workers' queue does under a burst (503 with Retry-After).
    for (const a of answers) expect(a.status === 200 ? 'ok' : a.body.code).toMatch(/^(ok|ESTIMATE\.BUSY)$/);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    expect(samples.every((s) => s.ok)).toBe(true);
    expect(samples.length).toBeGreaterThan(100);
    // The summary is the failure message: the probes' p99 and the service's own event-loop delay.
    expect(p99 < HEALTH_P99_MS + floor ? 'under the bound' : summary).toBe('under the bound');
  }, 240_000);

  it(`ten ~1.9 MiB GraphQL estimate queries at once (measurements in variables): the small query's answer, /health/live p99 under ${HEALTH_P99_MS} ms (over the machine's own)`, async () => {
    const small = graphqlBody(0);
    const large = graphqlBody(GRAPHQL_PADDING);
    expect(small.length).toBeLessThan(256 * 1024); // the request thread's path (BODY_LIMIT_BYTES)
    expect(large.length).toBeGreaterThan(1.85 * MiB);
    expect(large.length).toBeLessThan(2 * MiB);
    const expected = await post(t.baseUrl, '/graphql', small);
    expect(expected.body.errors).toBeUndefined();
    expect(expected.body.data?.estimate.measured.traffic.samples).toBe(GRAPHQL_SAMPLES);
    // The first large body may start a worker; not what is measured. The same answer as the small query.
    expect((await post(t.baseUrl, '/graphql', large)).body).toEqual(expected.body);

    const { answers, samples, floor, p99, summary } = await healthDuring(t.baseUrl, () =>
      Promise.all(Array.from({ length: BODIES }, () => post(t.baseUrl, '/graphql', large))),
    );

    // Each is the small query's answer, or the estimate workers' refusal under a burst (SERVICE_UNAVAILABLE, ESTIMATE.BUSY).
    const busy = answers.filter((a) => a.body.errors?.[0]?.extensions?.errorCode === 'ESTIMATE.BUSY');
    for (const a of answers) if (!busy.includes(a)) expect(a.body).toEqual(expected.body);
    expect(busy.length).toBeLessThan(BODIES);
    expect(samples.every((s) => s.ok)).toBe(true);
    expect(samples.length).toBeGreaterThan(50);
    expect(p99 < HEALTH_P99_MS + floor ? 'under the bound' : summary).toBe('under the bound');
  }, 240_000);

  it('a large GraphQL query is refused as the small one: a text the estimate refuses (BAD_USER_INPUT naming it), malformed JSON', async () => {
    const bad = (padding: number) =>
      graphqlBody(padding, (n, value) => (n === 4_000 ? `${1_780_000_000 + n * 300};${value}` : `${1_780_000_000 + n * 300},${value}`));
    const [small, large] = await Promise.all([post(t.baseUrl, '/graphql', bad(0)), post(t.baseUrl, '/graphql', bad(GRAPHQL_PADDING))]);
    expect(small.body.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: [{ field: 'measurements.traffic.csv', message: expect.stringMatching(/^line 4001: /) }],
    });
    expect(large).toEqual(small);
    const cut = (body: Buffer) => body.subarray(0, body.length - 2);
    const [smallCut, largeCut] = await Promise.all([
      post(t.baseUrl, '/graphql', cut(graphqlBody(0))),
      post(t.baseUrl, '/graphql', cut(graphqlBody(GRAPHQL_PADDING))),
    ]);
    expect(smallCut.status).toBe(400);
    expect(largeCut).toEqual(smallCut);
  });

  it('/graphql refuses a body over 2 MiB on its declared length, before reading it (8 MB of whitespace once cost 150-250 ms)', async () => {
    // Only the headers of the 8 MB body are sent: the answer (GraphQL's error shape) comes on the length alone.
    const refused = await new Promise<{ status: number; code?: string }>((resolve, reject) => {
      const req = http.request(`${t.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(8_000_000) },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          const answer = JSON.parse(text) as { errors?: { extensions?: { errorCode?: string } }[] };
          resolve({ status: res.statusCode ?? 0, code: answer.errors?.[0]?.extensions?.errorCode });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(refused).toEqual({ status: 413, code: 'REQUEST.TOO_LARGE' });
    // Just under the limit, a document padded with whitespace is read and answered.
    const under = await post(t.baseUrl, '/graphql', Buffer.from(`{"query":"{ __typename }"${' '.repeat(2 * MiB - 100)}}`));
    expect(under.status).toBe(200);
  });
});
