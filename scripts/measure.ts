// npm run measure -- --prometheus URL [--range 14d] [--step 5m] [--end ISO] [--traffic PromQL]
//   [--traffic-unit REQUESTS_PER_SECOND|OUTPUT_TOKENS_PER_SECOND] [--utilization PromQL]
//   [--memory PromQL|none] [--timezone Europe/Berlin] --out measurements.json
// Reads a team's traffic and GPU utilization from its Prometheus (read-only range queries, the
// same client and limits as the service's PROMETHEUS_URL path) and writes the `measurements`
// object of an estimate: a file to keep, send, or put into POST /v1/estimates (docs/measurements.md).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AppError } from '../src/common/errors/app-error.js';
import { PrometheusClient } from '../src/modules/estimates/prometheus-client.js';
import { runScript } from './script-runner.js';

const USAGE =
  'npm run measure -- --prometheus http://prometheus:9090 [--range 14d] [--step 5m] [--traffic PromQL] [--utilization PromQL] --out measurements.json';

await runScript(async () => {
  const { values } = parseArgs({
    options: {
      prometheus: { type: 'string' },
      range: { type: 'string', default: '14d' },
      step: { type: 'string', default: '5m' },
      end: { type: 'string' },
      traffic: { type: 'string', default: 'sum(rate(vllm:request_success_total[5m]))' },
      'traffic-unit': { type: 'string', default: 'REQUESTS_PER_SECOND' },
      utilization: { type: 'string', default: 'DCGM_FI_DEV_GPU_UTIL' },
      memory: { type: 'string', default: 'DCGM_FI_DEV_FB_USED' },
      timezone: { type: 'string', default: 'UTC' },
      out: { type: 'string' },
    },
  });
  if (!values.prometheus || !values.out) {
    console.error(`Usage: ${USAGE}`);
    return 2;
  }
  const client = new PrometheusClient({ PROMETHEUS_URL: values.prometheus, PROMETHEUS_TIMEOUT_MS: 60_000, PROMETHEUS_MAX_BYTES: 64 * 1024 * 1024 });
  const end = values.end ? new Date(values.end) : undefined;
  if (end && Number.isNaN(end.getTime())) throw new Error(`--end ${values.end} is not a date-time (ISO 8601)`);
  const queries = { traffic: values.traffic, utilization: values.utilization, memoryUsed: values.memory === 'none' ? undefined : values.memory };
  const measurements: Record<string, unknown> = { timezone: values.timezone };
  for (const [name, promql] of Object.entries(queries)) {
    if (!promql) continue;
    let text: string;
    try {
      text = await client.queryRange({ promql, range: values.range, step: values.step, end }, `--${name}`);
    } catch (error) {
      if (error instanceof AppError) {
        throw new Error(`${name} (${promql}): ${error.errors.map((e) => e.message).join('; ') || error.message}`, { cause: error });
      }
      throw error;
    }
    const series = (JSON.parse(text) as { data?: { result?: unknown[] } }).data?.result?.length ?? 0;
    if (series === 0) {
      console.error(`${name}: ${promql} returned no series over ${values.range}; left out`);
      continue;
    }
    measurements[name] = name === 'traffic' ? { prometheus: text, unit: values['traffic-unit'] } : { prometheus: text };
    console.error(`${name}: ${series} series from ${promql}`);
  }
  const out = path.resolve(process.env.INIT_CWD ?? process.cwd(), values.out);
  await writeFile(out, `${JSON.stringify(measurements)}\n`);
  console.error(`Wrote ${out}: add "fleet" (what runs today) and send it as "measurements" in POST /v1/estimates.`);
  return 0;
});
