// Reading an estimate's measurements from the Prometheus an operator configured (PROMETHEUS_URL):
// one range query per measurement, read-only, with a timeout and a byte cap; no redirect is
// followed (the answer must come from the configured address); Prometheus' own refusal of a query
// is the caller's 400, its absence a 503 (docs/measurements.md).
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { AppError, badInput } from '../../common/errors/app-error.js';
import { MAX_STEP_SECONDS } from '../../domain/measurements/index.js';

/** Prometheus answers a range query with at most this many points per series. */
const PROMETHEUS_MAX_POINTS = 11_000;
const MAX_RANGE_SECONDS = 90 * 86_400;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

export interface RangeQuery {
  promql: string;
  range: string;
  step?: string;
  end?: Date;
}

/** A Prometheus duration (5m, 14d) in seconds; the input's pattern has checked its form. */
export function durationSeconds(text: string): number {
  const match = /^(\d+)([smhdw])$/.exec(text);
  return match ? Number(match[1]) * (UNIT_SECONDS[match[2] ?? 's'] ?? 1) : Number.NaN;
}

const unavailable = (message: string) => new AppError('MEASUREMENT.PROMETHEUS_UNAVAILABLE', 'UNAVAILABLE', message);

@Injectable()
export class PrometheusClient {
  constructor(@Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'PROMETHEUS_URL' | 'PROMETHEUS_TIMEOUT_MS' | 'PROMETHEUS_MAX_BYTES'>) {}

  /** The query's window, checked: the step at most an hour, the range at most 90 days and 11,000 steps. */
  window(query: RangeQuery, field: string, now = Date.now()): { start: number; end: number; step: number } {
    const step = durationSeconds(query.step ?? '5m');
    const range = durationSeconds(query.range);
    if (step > MAX_STEP_SECONDS) throw badInput('REQUEST.INVALID', [{ field: `${field}.step`, message: 'must be 1h or less: the plan is made per hour' }]);
    if (range > MAX_RANGE_SECONDS) throw badInput('REQUEST.INVALID', [{ field: `${field}.range`, message: 'must be 90d or less' }]);
    if (range / step > PROMETHEUS_MAX_POINTS) {
      const least = Math.ceil(range / PROMETHEUS_MAX_POINTS / 60);
      throw badInput('REQUEST.INVALID', [
        {
          field: `${field}.step`,
          message: `gives ${Math.floor(range / step)} points per series; Prometheus answers at most ${PROMETHEUS_MAX_POINTS}: use a step of at least ${least}m`,
        },
      ]);
    }
    const end = query.end ? Math.floor(query.end.getTime() / 1000) : Math.floor(now / 1000 / step) * step;
    return { start: end - range, end, step };
  }

  /** The answer's text: the JSON of /api/v1/query_range, parsed later in the estimate worker. */
  async queryRange(query: RangeQuery, field: string): Promise<string> {
    const base = this.config.PROMETHEUS_URL;
    if (!base) {
      throw badInput('MEASUREMENT.NO_PROMETHEUS', [
        { field, message: 'this service has no PROMETHEUS_URL; send the range answer as prometheus, or the series as csv' },
      ]);
    }
    const { start, end, step } = this.window(query, field);
    const url = new URL('api/v1/query_range', base.endsWith('/') ? base : `${base}/`);
    url.search = new URLSearchParams({ query: query.promql, start: String(start), end: String(end), step: String(step) }).toString();
    let response: Response;
    try {
      response = await fetch(url, {
        redirect: 'manual',
        signal: AbortSignal.timeout(this.config.PROMETHEUS_TIMEOUT_MS),
        headers: { accept: 'application/json' },
      });
    } catch (error) {
      const timedOut = (error as { name?: string }).name === 'TimeoutError';
      throw unavailable(timedOut ? `Prometheus did not answer within ${this.config.PROMETHEUS_TIMEOUT_MS} ms` : 'Prometheus could not be reached');
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw unavailable('Prometheus answered with a redirect; PROMETHEUS_URL must be the address that answers');
    }
    const text = await this.readCapped(response, field);
    if (response.status === 400 || response.status === 422) {
      throw badInput('REQUEST.INVALID', [{ field: `${field}.promql`, message: `Prometheus refused the query: ${errorText(text)}` }]);
    }
    if (!response.ok) throw unavailable(`Prometheus answered ${response.status}`);
    return text;
  }

  private async readCapped(response: Response, field: string): Promise<string> {
    const limit = this.config.PROMETHEUS_MAX_BYTES;
    const declared = Number(response.headers.get('content-length') ?? '0');
    const tooLarge = () =>
      new AppError('MEASUREMENT.TOO_LARGE', 'TOO_LARGE', `Prometheus' answer is larger than ${limit} bytes (PROMETHEUS_MAX_BYTES)`, [
        { field, message: 'answers more than the service reads; use a larger step or a shorter range' },
      ]);
    if (declared > limit) {
      await response.body?.cancel();
      throw tooLarge();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > limit) throw tooLarge();
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw unavailable('Prometheus stopped answering mid-way');
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

/** Prometheus' error text of a refused query, shortened; it is the operator's own server. */
function errorText(text: string): string {
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    if (typeof error === 'string') return error.slice(0, 300);
  } catch {
    // not JSON: fall through
  }
  return 'no reason given';
}
