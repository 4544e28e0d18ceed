// Estimates from measurements against a real Prometheus (test/setup/prometheus.ts): a fortnight
// with a known weekday/weekend pattern and a known mean GPU utilization, read as a team would
// (the range answer pasted, over REST and GraphQL), by the service itself (PROMETHEUS_URL), and
// through the file `npm run measure` writes. Expected figures come from the generator's pattern
// and by hand, never from the service's answer.
import { execFile } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Decimal } from 'decimal.js';
import { UTILIZATION_MEAN_PCT } from '../src/domain/measurements/testing/synthetic-week.js';
import { startPrometheus, queryRange, TRAFFIC_METRIC, type TestPrometheus } from './setup/prometheus.js';
import { probe, type ProbeResult } from './setup/http-probe.js';
import { createTestServer, type TestServer } from './setup/test-app.js';

const STEP = 300;
const WORKLOAD = { avgInputTokens: 500, avgOutputTokens: 200 };
const BASE = { model: { preset: 'llama-3-8b', precision: 'FP16' }, gpus: ['l4-24gb', 'a10g-24gb', 'h100-sxm-80gb'] };
// By hand from data/catalog/offers/aws.yaml: p5.48xlarge, aws:eu-north-1, ON_DEMAND, 58.8928 USD/h for 8 GPUs.
const FLEET = { gpu: 'h100-sxm-80gb', count: 8, pricingModel: 'ON_DEMAND', provider: 'aws', region: 'eu-north-1' };
const FLEET_PRICE_PER_GPU_HOUR = new Decimal('58.8928').div(8);

const MEASURED_FIELDS = `measured { timezone percentile
  traffic { samples stepSeconds days coveragePct gaps kind profile filledHours }
  utilization { series samples meanPct p95Pct byHourOfWeek days coveragePct }
  memoryUsed { series maxGib }
  fleet { gpu count region pricePerGpuHour { amount } monthlyCost { amount } idleGpuHours waste { amount } saving { amount } savingPct kwhPerMonth kgCo2ePerMonth } }
  monthlyCost { amount currency } gpuCost { amount } tiers { pricingModel offerId gpuHours cost { amount } } warnings`;

/** The p95 (nearest rank) of each hour of the week over the samples a range query at STEP returns, by sorting. */
function truthProfile(p: TestPrometheus): number[] {
  const cells: number[][] = Array.from({ length: 168 }, () => []);
  for (const s of p.samples) if ((s.t - p.start) % STEP === 0 && s.t <= p.end - STEP) cells[s.hourOfWeek]?.push(s.requestsPerSecond);
  return cells.map((c) => c.sort((a, b) => a - b)[Math.ceil(0.95 * c.length) - 1] ?? NaN);
}

describe('estimates from measurements (e2e, real Prometheus)', () => {
  let prometheus: TestPrometheus;
  let t: TestServer;
  let traffic: string;
  let utilization: string;
  let memory: string;

  beforeAll(async () => {
    prometheus = await startPrometheus();
    // Queries open to callers without a key (AUTH_MODE is off here), for the test's own metrics.
    t = await createTestServer({
      env: { PROMETHEUS_URL: prometheus.url, PROMETHEUS_QUERIES: 'anyone', PROMETHEUS_METRICS: `${TRAFFIC_METRIC},DCGM_FI_DEV_GPU_UTIL,DCGM_FI_DEV_FB_USED` },
    });
    traffic = await queryRange(prometheus, TRAFFIC_METRIC, STEP);
    utilization = await queryRange(prometheus, 'DCGM_FI_DEV_GPU_UTIL', STEP);
    memory = await queryRange(prometheus, 'DCGM_FI_DEV_FB_USED', STEP);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    await prometheus?.stop();
  });

  const body = (measurements: Record<string, unknown>) => ({ ...BASE, workload: WORKLOAD, measurements: { fleet: FLEET, ...measurements } });

  function expectTruth(answer: {
    measured: {
      traffic: { profile: number[]; days: number; coveragePct: number };
      utilization: { meanPct: number; series: number };
      fleet: Record<string, unknown>;
    };
  }) {
    const m = answer.measured;
    expect(Math.abs(m.utilization.meanPct - UTILIZATION_MEAN_PCT)).toBeLessThan(1);
    expect(m.utilization.series).toBe(8);
    const truth = truthProfile(prometheus);
    m.traffic.profile.forEach((v, h) => expect(Math.abs(v - (truth[h] ?? NaN)) / (truth[h] ?? NaN)).toBeLessThan(0.01));
    expect(m.traffic.days).toBeCloseTo(14, 1);
    expect(m.traffic.coveragePct).toBeGreaterThan(99);
    // By hand: 8 GPUs × 730 h × (1 − 5,520/16,800) idle, at 58.8928 / 8 USD per GPU-hour.
    const idle = new Decimal(8 * 730).mul(new Decimal(16_800 - 5_520).div(16_800));
    expect(m.fleet.pricePerGpuHour).toMatchObject({ amount: FLEET_PRICE_PER_GPU_HOUR.toFixed(4) });
    expect(m.fleet.monthlyCost).toMatchObject({ amount: FLEET_PRICE_PER_GPU_HOUR.mul(8 * 730).toFixed(2) });
    expect(m.fleet.waste).toMatchObject({ amount: idle.mul(FLEET_PRICE_PER_GPU_HOUR).toFixed(2) });
    // Energy by hand from data/catalog/energy.yaml: H100 SXM 700 W, idle share 0.113, AWS PUE 1.14,
    // eu-north-1's own zone SE-SE3 20 g/kWh; at the measured mean utilization u.
    const u = UTILIZATION_MEAN_PCT / 100;
    const kwh = 8 * 730 * 0.7 * (0.113 + (1 - 0.113) * u) * 1.14;
    expect(m.fleet.kwhPerMonth as number).toBeCloseTo(kwh, 3);
    expect(m.fleet.kgCo2ePerMonth as number).toBeCloseTo((kwh * 20) / 1000, 3);
  }

  async function typedIn(profile: number[]) {
    const res = await t
      .http()
      .post('/v1/estimates')
      .send({ ...BASE, workload: { ...WORKLOAD, weeklyProfile: profile } });
    expect(res.status).toBe(200);
    return res.body as { tiers: unknown[]; monthlyCost: unknown };
  }

  it('over REST, from the range answers pasted: the truth, the waste by hand, and the same plan as the profile typed in', async () => {
    const res = await t
      .http()
      .post('/v1/estimates')
      .send(body({ traffic: { prometheus: traffic }, utilization: { prometheus: utilization }, memoryUsed: { prometheus: memory } }));
    expect(res.status).toBe(200);
    expectTruth(res.body);
    expect(res.body.measured.memoryUsed.maxGib).toBeCloseTo(40_960 / 1024, 4);
    const typed = await typedIn(res.body.measured.traffic.profile);
    expect(res.body.tiers).toEqual(typed.tiers);
    expect(res.body.monthlyCost).toEqual(typed.monthlyCost);
    // The saving is the fleet's cost minus the plan's GPU cost, to the cent.
    expect(res.body.measured.fleet.saving.amount).toBe(new Decimal(res.body.measured.fleet.monthlyCost.amount).minus(res.body.gpuCost.amount).toFixed(2));
  });

  it('over GraphQL, the same numbers as REST', async () => {
    const input = body({ traffic: { prometheus: traffic }, utilization: { prometheus: utilization } });
    const rest = (await t.http().post('/v1/estimates').send(input).expect(200)).body;
    const gql = await t.graphql<{ estimate: Record<string, unknown> & { measured: { traffic: { profile: number[] } } } }>(
      `query E($input: EstimateInput!) { estimate(input: $input) { ${MEASURED_FIELDS} } }`,
      { input },
    );
    expect(gql.errors).toBeUndefined();
    expectTruth(gql.data.estimate as never);
    expect(gql.data.estimate.measured.traffic.profile).toEqual(rest.measured.traffic.profile);
    expect(gql.data.estimate.monthlyCost).toEqual(rest.monthlyCost);
  });

  it('with PROMETHEUS_URL, the service runs the queries itself and answers the same', async () => {
    const range = { range: '14d', step: '5m', end: new Date((prometheus.end - STEP) * 1000).toISOString() };
    const pasted = (
      await t
        .http()
        .post('/v1/estimates')
        .send(body({ traffic: { prometheus: traffic }, utilization: { prometheus: utilization } }))
        .expect(200)
    ).body;
    const res = await t
      .http()
      .post('/v1/estimates')
      .send(body({ traffic: { query: { promql: TRAFFIC_METRIC, ...range } }, utilization: { query: { promql: 'DCGM_FI_DEV_GPU_UTIL', ...range } } }));
    expect(res.status).toBe(200);
    expectTruth(res.body);
    expect(res.body.measured.traffic.profile).toEqual(pasted.measured.traffic.profile);
    expect(res.body.tiers).toEqual(pasted.tiers);
  });

  it('a query Prometheus refuses is a 400 naming the promql, with its reason', async () => {
    const res = await t
      .http()
      .post('/v1/estimates')
      // Valid PromQL that Prometheus refuses: rate() takes a range, not an instant vector.
      .send(body({ traffic: { query: { promql: `rate(${TRAFFIC_METRIC})`, range: '1d' } } }));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('measurements.traffic.query.promql');
    expect(res.body.errors[0].message).toMatch(/Prometheus refused the query/);
  });

  it('reads only the metrics PROMETHEUS_METRICS names, by name (400 naming the promql, REST and GraphQL)', async () => {
    // The reproduction: memoryUsed reading another metric (here Prometheus' own `up`) back through the answer.
    for (const promql of ['up', '{__name__=~"DCGM.+"}', 'DCGM_FI_DEV_FB_USED + on() group_left count(prometheus_build_info)']) {
      const measurements = { traffic: { prometheus: traffic }, memoryUsed: { query: { promql, range: '1d' } } };
      const res = await t.http().post('/v1/estimates').send(body(measurements)).expect(400);
      expect(res.body.errors[0].field).toBe('measurements.memoryUsed.query.promql');
      const gql = await t.graphql(`query E($input: EstimateInput!) { estimate(input: $input) { monthlyCost { amount } } }`, {
        input: { ...BASE, workload: WORKLOAD, measurements },
      });
      expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(JSON.stringify(gql.errors?.[0]?.extensions)).toContain('measurements.memoryUsed.query.promql');
    }
  });

  it('by default, queries only for callers with a key: without one 403 (REST) and FORBIDDEN (GraphQL)', async () => {
    const closed = await createTestServer({ env: { PROMETHEUS_URL: prometheus.url } });
    try {
      const measurements = { traffic: { query: { promql: 'DCGM_FI_DEV_GPU_UTIL', range: '1d' } } };
      const res = await closed.http().post('/v1/estimates').send(body(measurements)).expect(403);
      expect(res.body).toMatchObject({ code: 'MEASUREMENT.QUERY_NOT_ALLOWED', errors: [{ field: 'measurements.traffic.query' }] });
      const gql = await closed.graphql(`query E($input: EstimateInput!) { estimate(input: $input) { monthlyCost { amount } } }`, {
        input: { ...BASE, workload: WORKLOAD, measurements },
      });
      expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', errorCode: 'MEASUREMENT.QUERY_NOT_ALLOWED' });
    } finally {
      await closed.stop();
    }
  });

  it('from the file `npm run measure` writes', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'gpu-cost-measure-'));
    try {
      const out = path.join(dir, 'measurements.json');
      const end = new Date((prometheus.end - STEP) * 1000).toISOString();
      await promisify(execFile)(
        'node',
        ['dist/scripts/measure.js', '--prometheus', prometheus.url, '--range', '14d', '--step', '5m', '--end', end, '--traffic', TRAFFIC_METRIC, '--out', out],
        { env: { ...process.env, INIT_CWD: process.cwd() } },
      );
      const measurements = JSON.parse(await readFile(out, 'utf8')) as Record<string, unknown>;
      const res = await t.http().post('/v1/estimates').send(body(measurements));
      expect(res.status).toBe(200);
      expectTruth(res.body);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('bad measurements (e2e)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const matrix = (resultType: string, values: unknown[]) => JSON.stringify({ status: 'success', data: { resultType, result: [{ metric: {}, values }] } });
  // Without measured traffic the workload names its own rate.
  const bodyOf = (measurements: Record<string, unknown>) => ({
    ...BASE,
    workload: measurements.traffic ? WORKLOAD : { ...WORKLOAD, requestsPerSecond: 1 },
    measurements,
  });

  /** The fastest of five answers, timed from the first byte sent: what the work costs, not what a busy machine adds. */
  async function fastest(measurements: Record<string, unknown>) {
    let best: ProbeResult | undefined;
    for (let i = 0; i < 5; i++) {
      const r = await probe(t.baseUrl, { name: 'estimate', method: 'POST', path: '/v1/estimates', body: bodyOf(measurements) });
      if (!best || r.ms < best.ms) best = r;
    }
    const r = best as ProbeResult;
    return { res: { status: r.status, body: r.json as { code?: string; errors: { field: string; message: string }[] } }, ms: r.ms };
  }

  it.each([
    [
      'an instant query (resultType vector)',
      { traffic: { prometheus: JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [] } }) } },
      'measurements.traffic.prometheus',
      /data\.resultType.*"vector"/,
    ],
    [
      'a value that is not a number',
      { utilization: { prometheus: matrix('matrix', [[1, 'abc']]) } },
      'measurements.utilization.prometheus',
      /values\[0\]\[1\].*not a finite number/,
    ],
    [
      'NaN',
      {
        utilization: {
          prometheus: matrix('matrix', [
            [1, '5'],
            [61, 'NaN'],
          ]),
        },
      },
      'measurements.utilization.prometheus',
      /values\[1\]\[1\].*"NaN"/,
    ],
    ['timestamps out of order', { traffic: { csv: '120,1\n60,2' } }, 'measurements.traffic.csv', /line 2.*not after/],
    ['a utilization over 100%', { utilization: { csv: '0,50\n60,140' } }, 'measurements.utilization.csv', /0 to 100/],
    ['an unknown time zone', { timezone: 'Mars/Olympus', utilization: { csv: '0,50\n60,40' } }, 'measurements.timezone', /not a time zone/],
    ['two sources for one series', { utilization: { csv: '0,50', prometheus: '{}' } }, 'measurements.utilization', /exactly one of/],
    [
      'a fleet GPU the catalog does not know',
      { fleet: { gpu: 'h100-sxm-80g', count: 1, provider: 'aws', region: 'eu-north-1' } },
      'measurements.fleet.gpu',
      /unknown GPU model "h100-sxm-80g"; closest known: h100-sxm-80gb/,
    ],
    ['a query without PROMETHEUS_URL', { traffic: { query: { promql: 'up', range: '1d' } } }, 'measurements.traffic.query', /no PROMETHEUS_URL/],
    // No GPU of the catalog holds 10^12 MiB (the largest holds a few hundred GiB).
    ['a memory sample of 10^12 MiB', { memoryUsed: { csv: '0,1000000000000\n60,5' } }, 'measurements.memoryUsed.csv', /more than the largest GPU holds/],
    [
      'the same series twice',
      {
        utilization: {
          prometheus: JSON.stringify({
            status: 'success',
            data: { resultType: 'matrix', result: [0, 1].map(() => ({ metric: { gpu: '0', Hostname: 'a' }, values: [[1, '5']] })) },
          }),
        },
      },
      'measurements.utilization.prometheus',
      /result\[1\]: has the same labels as result\[0\]/,
    ],
  ])('%s: 400 naming the field, in under 100 ms', async (_name, measurements, field, message) => {
    const { res, ms } = await fastest(measurements);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ field, message: expect.stringMatching(message) })]);
    expect(ms).toBeLessThan(100);
  });

  it('10^6 samples: 413 naming the measurements, counted before the body is parsed, in under 100 ms', async () => {
    // Lines of four bytes: 10^6 of them fit the body limit, and are counted, not parsed.
    const csv = '1,1\n'.repeat(1_000_000);
    const { res, ms } = await fastest({ traffic: { csv } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('MEASUREMENT.TOO_MANY_SAMPLES');
    expect(res.body.errors[0]?.field).toBe('measurements');
    expect(ms).toBeLessThan(100);
  });

  it('a body over the 9 MiB of the measurement routes: 413 on its length, before a byte of it is read', async () => {
    // Only the headers are sent: a declared length over the limit is answered at once.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${t.baseUrl}/v1/estimates`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'REQUEST.TOO_LARGE' });
  });

  it('over GraphQL, a bad measurement is BAD_USER_INPUT naming the field', async () => {
    const res = await t.graphql(`query E($input: EstimateInput!) { estimate(input: $input) { monthlyCost { amount } } }`, {
      input: { ...BASE, workload: WORKLOAD, measurements: { traffic: { csv: '120,1\n60,2' } } },
    });
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(JSON.stringify(res.errors?.[0]?.extensions)).toContain('measurements.traffic.csv');
  });
});
