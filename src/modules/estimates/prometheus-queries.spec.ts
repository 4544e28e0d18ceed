// The door to PROMETHEUS_URL, over a fake Prometheus client that records the queries it was asked
// to run and answers when the test says so.
import type { AppError } from '../../common/errors/app-error.js';
import { PrometheusClient, type RangeQuery } from './prometheus-client.js';
import { PROMETHEUS_MAX_CONCURRENT, PrometheusQueries, type Requester } from './prometheus-queries.js';

class FakeClient extends PrometheusClient {
  readonly asked: RangeQuery[] = [];
  readonly pending: ((text: string) => void)[] = [];
  /** Answer at once (else the test resolves `pending`). */
  immediate = true;

  constructor() {
    super({ PROMETHEUS_URL: 'http://prometheus.test:9090', PROMETHEUS_TIMEOUT_MS: 1_000, PROMETHEUS_MAX_BYTES: 1 << 20 });
  }

  override queryRange(query: RangeQuery): Promise<string> {
    this.asked.push(query);
    if (this.immediate) return Promise.resolve(`answer ${this.asked.length}`);
    return new Promise((resolve) => this.pending.push(resolve));
  }
}

const KEY: Requester = { authenticated: true, id: 'key:k1' };
const OTHER_KEY: Requester = { authenticated: true, id: 'key:k2' };
const ANONYMOUS_ADDRESS: Requester = { authenticated: false, id: 'ip:203.0.113.9' };
const FIELD = 'measurements.utilization.query';
const NOW = Date.UTC(2026, 11, 5, 12, 0, 0);

function door({ queries = 'authenticated', perMinute = 30 }: { queries?: 'authenticated' | 'anyone'; perMinute?: number } = {}) {
  const client = new FakeClient();
  const gate = new PrometheusQueries(client, {
    PROMETHEUS_URL: 'http://prometheus.test:9090',
    PROMETHEUS_QUERIES: queries,
    PROMETHEUS_METRICS: ['DCGM_FI_DEV_GPU_UTIL', 'DCGM_FI_DEV_FB_USED', 'vllm:request_success_total'],
    PROMETHEUS_QUERIES_PER_MINUTE: perMinute,
  });
  return { client, gate };
}

const query = (promql: string, range = '1d'): RangeQuery => ({ promql, range, step: '5m' });
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as AppError,
  );

describe(PrometheusQueries.name, () => {
  describe('who may ask', () => {
    it('refuses a caller without a key by default (403), before Prometheus is asked', async () => {
      const { client, gate } = door();
      const error = await refusal(gate.run(query('DCGM_FI_DEV_GPU_UTIL'), FIELD, ANONYMOUS_ADDRESS, NOW));
      expect(error).toMatchObject({ code: 'MEASUREMENT.QUERY_NOT_ALLOWED', kind: 'FORBIDDEN', errors: [{ field: FIELD }] });
      expect(client.asked).toEqual([]);
      await expect(gate.run(query('DCGM_FI_DEV_GPU_UTIL'), FIELD, KEY, NOW)).resolves.toBe('answer 1');
    });

    it('lets anyone ask with PROMETHEUS_QUERIES=anyone', async () => {
      const { gate } = door({ queries: 'anyone' });
      await expect(gate.run(query('DCGM_FI_DEV_GPU_UTIL'), FIELD, ANONYMOUS_ADDRESS, NOW)).resolves.toBe('answer 1');
    });
  });

  describe('what a query may read', () => {
    it.each([
      ['another metric', 'up', /reads up, which this service does not query/],
      ['another metric beside an allowed one', 'DCGM_FI_DEV_FB_USED / on() group_left count(node_memory_MemTotal_bytes)', /reads node_memory_MemTotal_bytes/],
      ['a selector without a name', '{job="dcgm"}', /without a metric name/],
      ['a match on __name__', 'DCGM_FI_DEV_GPU_UTIL{__name__=~".+"}', /__name__/],
      ['a quoted match on __name__', 'DCGM_FI_DEV_GPU_UTIL{"__name__"=~".+"}', /__name__/],
      ['text that is not PromQL', 'sum(', /not valid PromQL/],
    ])('refuses %s (400 naming the promql)', async (_name, promql, message) => {
      const { client, gate } = door();
      const error = await refusal(gate.run(query(promql), FIELD, KEY, NOW));
      expect(error).toMatchObject({ kind: 'BAD_INPUT', errors: [{ field: `${FIELD}.promql`, message: expect.stringMatching(message) as string }] });
      expect(client.asked).toEqual([]);
    });

    it('accepts the documented queries, with functions, aggregations and label matchers', async () => {
      const { client, gate } = door();
      for (const promql of [
        'sum(rate(vllm:request_success_total[5m]))',
        'avg by (gpu) (DCGM_FI_DEV_GPU_UTIL{namespace="inference"})',
        'max_over_time(DCGM_FI_DEV_FB_USED[1h:5m])',
      ])
        await gate.run(query(promql), FIELD, KEY, NOW);
      expect(client.asked).toHaveLength(3);
    });
  });

  describe('how much Prometheus works', () => {
    it('answers the same query and window from its cache, and identical concurrent queries with one', async () => {
      const { client, gate } = door();
      client.immediate = false;
      const first = gate.run(query('DCGM_FI_DEV_GPU_UTIL'), FIELD, KEY, NOW);
      const second = gate.run(query('DCGM_FI_DEV_GPU_UTIL'), FIELD, OTHER_KEY, NOW);
      client.pending.forEach((resolve) => resolve('the answer'));
      await expect(Promise.all([first, second])).resolves.toEqual(['the answer', 'the answer']);
      // A minute later the window (aligned to the 5-minute step) is the same: still the cached answer.
      await expect(gate.run(query('DCGM_FI_DEV_GPU_UTIL'), FIELD, KEY, NOW + 60_000)).resolves.toBe('the answer');
      expect(client.asked).toHaveLength(1);
      // Another range is another query.
      client.immediate = true;
      await gate.run(query('DCGM_FI_DEV_GPU_UTIL', '2d'), FIELD, KEY, NOW);
      expect(client.asked).toHaveLength(2);
    });

    it('gives each caller PROMETHEUS_QUERIES_PER_MINUTE queries a minute (429 with when to retry), others unaffected', async () => {
      const { client, gate } = door({ perMinute: 3 });
      const ranges = ['1d', '2d', '3d', '4d'];
      for (const range of ranges.slice(0, 3)) await gate.run(query('DCGM_FI_DEV_GPU_UTIL', range), FIELD, KEY, NOW);
      const error = await refusal(gate.run(query('DCGM_FI_DEV_GPU_UTIL', '4d'), FIELD, KEY, NOW + 20_000));
      // The window opened at NOW: 40 s are left 20 s later.
      expect(error).toMatchObject({ code: 'MEASUREMENT.QUERY_BUDGET_EXCEEDED', kind: 'TOO_MANY_REQUESTS', retryAfterSeconds: 40 });
      // A cached answer costs Prometheus nothing and is not refused.
      await expect(gate.run(query('DCGM_FI_DEV_GPU_UTIL', '1d'), FIELD, KEY, NOW + 20_000)).resolves.toBe('answer 1');
      await expect(gate.run(query('DCGM_FI_DEV_GPU_UTIL', '4d'), FIELD, OTHER_KEY, NOW + 20_000)).resolves.toBe('answer 4');
      await expect(gate.run(query('DCGM_FI_DEV_GPU_UTIL', '5d'), FIELD, KEY, NOW + 60_000)).resolves.toBe('answer 5');
      expect(client.asked).toHaveLength(5);
    });

    it(`runs at most ${PROMETHEUS_MAX_CONCURRENT} queries at once (503 beyond), and more as they finish`, async () => {
      const { client, gate } = door({ perMinute: 100 });
      client.immediate = false;
      const running = Array.from({ length: PROMETHEUS_MAX_CONCURRENT }, (_, i) => gate.run(query('DCGM_FI_DEV_GPU_UTIL', `${i + 1}d`), FIELD, KEY, NOW));
      const error = await refusal(gate.run(query('DCGM_FI_DEV_GPU_UTIL', '30d'), FIELD, OTHER_KEY, NOW));
      expect(error).toMatchObject({ code: 'MEASUREMENT.PROMETHEUS_BUSY', kind: 'UNAVAILABLE' });
      client.pending[0]?.('done');
      await running[0];
      client.immediate = true;
      await expect(gate.run(query('DCGM_FI_DEV_GPU_UTIL', '30d'), FIELD, OTHER_KEY, NOW)).resolves.toBe(`answer ${PROMETHEUS_MAX_CONCURRENT + 1}`);
      client.pending.slice(1).forEach((resolve) => resolve('done'));
      await Promise.all(running);
    });
  });
});
