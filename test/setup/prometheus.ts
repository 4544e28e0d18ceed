// A real Prometheus for the measurement tests (Debian's `prometheus` package, which ships
// `promtool`): a TSDB backfilled with `promtool tsdb create-blocks-from openmetrics` from a
// generated fortnight (src/domain/measurements/testing/synthetic-week.ts), started on a free port
// with no scrape targets. The metric names and labels are dcgm-exporter's
// (test/fixtures/prometheus/README.md). Stopped, and its folder removed, by stop().
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GPU_OFFSETS, syntheticSamples, type SyntheticSample } from '../../src/domain/measurements/testing/synthetic-week.js';
import { freePort } from './test-app.js';

/** What the traffic is stored as: the output of a recording rule over vLLM's request counter. */
export const TRAFFIC_METRIC = 'job:vllm_request_success:rate5m';
/** The scrape interval the fortnight is written at. */
const SCRAPE_SECONDS = 60;
/** H100 80GB HBM3: 81,559 MiB of framebuffer; the fixture uses a known share of it. */
export const FB_USED_MIB = [30_000, 31_000, 32_000, 33_000, 34_000, 35_000, 36_000, 40_960];

export interface TestPrometheus {
  url: string;
  /** First sample (a Monday 00:00 UTC) and the end of the fortnight, Unix seconds. */
  start: number;
  end: number;
  samples: SyntheticSample[];
  stop(): Promise<void>;
}

function which(command: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/** dcgm-exporter's labels for GPU g of one host (the README's Kubernetes example, test/fixtures/prometheus/README.md). */
export function gpuLabels(g: number): string {
  const uuid = `GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e5${g}`;
  return `gpu="${g}",UUID="${uuid}",container="vllm",namespace="inference",pod="vllm-0"`;
}

function openMetrics(samples: SyntheticSample[]): string {
  const lines: string[] = [];
  lines.push('# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).', '# TYPE DCGM_FI_DEV_GPU_UTIL gauge');
  GPU_OFFSETS.forEach((_, g) => {
    for (const s of samples) lines.push(`DCGM_FI_DEV_GPU_UTIL{${gpuLabels(g)}} ${s.utilization[g]} ${s.t}`);
  });
  lines.push('# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).', '# TYPE DCGM_FI_DEV_FB_USED gauge');
  FB_USED_MIB.forEach((mib, g) => {
    for (const s of samples) lines.push(`DCGM_FI_DEV_FB_USED{${gpuLabels(g)}} ${mib} ${s.t}`);
  });
  lines.push(`# TYPE ${TRAFFIC_METRIC} gauge`);
  for (const s of samples) lines.push(`${TRAFFIC_METRIC}{job="vllm"} ${s.requestsPerSecond} ${s.t}`);
  lines.push('# EOF', '');
  return lines.join('\n');
}

/** The Monday 00:00 UTC two weeks before the last Monday: a fortnight that ended before now. */
export function fortnightStart(now = Date.now()): number {
  const day = Math.floor(now / 1000 / 86_400);
  const monday = day - ((day + 3) % 7);
  return (monday - 14) * 86_400;
}

export async function startPrometheus(): Promise<TestPrometheus> {
  const prometheus = which('prometheus');
  const promtool = which('promtool');
  if (!prometheus || !promtool) throw new Error('These tests need Prometheus and promtool (Debian: apt-get install -y prometheus; .ci/run installs it)');
  const dir = await mkdtemp(path.join(tmpdir(), 'gpu-cost-prometheus-'));
  const start = fortnightStart();
  const samples = syntheticSamples({ start, days: 14, stepSeconds: SCRAPE_SECONDS });
  const input = path.join(dir, 'fortnight.om');
  await writeFile(input, openMetrics(samples));
  const data = path.join(dir, 'data');
  const backfill = spawnSync(promtool, ['tsdb', 'create-blocks-from', 'openmetrics', input, data], { encoding: 'utf8' });
  if (backfill.status !== 0) throw new Error(`promtool failed: ${backfill.stderr.slice(-2000)}`);
  await rm(input);
  await writeFile(path.join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 1h\nscrape_configs: []\n');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    prometheus,
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${data}`,
      '--storage.tsdb.retention.time=60d',
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`Prometheus did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, start, end: start + 14 * 86_400, samples, stop };
}

/** Prometheus' answer to a range query, as text (what `npm run measure` writes, and what a team pastes). */
export async function queryRange(p: TestPrometheus, promql: string, stepSeconds: number): Promise<string> {
  const params = new URLSearchParams({ query: promql, start: String(p.start), end: String(p.end - stepSeconds), step: String(stepSeconds) });
  const res = await fetch(`${p.url}/api/v1/query_range?${params.toString()}`);
  if (!res.ok) throw new Error(`query_range ${promql}: ${res.status} ${await res.text()}`);
  return res.text();
}
