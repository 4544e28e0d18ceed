// The door to PROMETHEUS_URL for an estimate's `query` measurements (docs/measurements.md#queries-run-by-the-service):
// who may ask (PROMETHEUS_QUERIES), what a query may read (PROMETHEUS_METRICS, promql-guard.ts),
// how often a caller may make Prometheus work (PROMETHEUS_QUERIES_PER_MINUTE, per instance), how
// many queries run at once, and a short cache, so that repeated or concurrent identical queries
// cost Prometheus one. The operator's own tool (scripts/measure.ts) uses PrometheusClient directly.
import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { trackerOf, type CallerRequest } from '../auth/index.js';
import { AppError } from '../../common/errors/app-error.js';
import { PrometheusClient, type RangeQuery } from './prometheus-client.js';
import { checkPromql } from './promql-guard.js';

/** Who asks: an API key's caller, or an address without one. */
export interface Requester {
  authenticated: boolean;
  /** The key's id, else the client address: what the query budget counts. */
  id: string;
}

export const ANONYMOUS: Requester = { authenticated: false, id: 'anonymous' };

/** The requester of an HTTP request, counted as the request gate counts it (its key, else its normalized address). */
export const requesterOf = (req: CallerRequest): Requester => ({ authenticated: req.caller !== undefined, id: trackerOf(req) });

/** Queries running against Prometheus at once, over all callers of this instance; beyond, 503. */
export const PROMETHEUS_MAX_CONCURRENT = 4;
/** How long an answer is reused for the same query and window. */
const PROMETHEUS_CACHE_MS = 60_000;
const CACHE_BYTES = 64 * 1024 * 1024;
const MINUTE_MS = 60_000;

@Injectable()
export class PrometheusQueries {
  private readonly answers = new LRUCache<string, string>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (text) => Math.max(1, text.length),
    ttl: PROMETHEUS_CACHE_MS,
  });
  private readonly inFlight = new Map<string, Promise<string>>();
  private readonly budgets = new LRUCache<string, { count: number; resetAt: number }>({ max: 100_000 });
  private running = 0;

  constructor(
    private readonly client: PrometheusClient,
    @Inject(APP_CONFIG)
    private readonly config: Pick<AppConfig, 'PROMETHEUS_URL' | 'PROMETHEUS_QUERIES' | 'PROMETHEUS_METRICS' | 'PROMETHEUS_QUERIES_PER_MINUTE'>,
  ) {}

  /** The range answer's text; throws 400 (no Prometheus, a query outside the allow-list), 403, 429 or 503. */
  async run(query: RangeQuery, field: string, requester: Requester, now = Date.now()): Promise<string> {
    if (!this.config.PROMETHEUS_URL) return this.client.queryRange(query, field);
    if (this.config.PROMETHEUS_QUERIES === 'authenticated' && !requester.authenticated) {
      throw new AppError(
        'MEASUREMENT.QUERY_NOT_ALLOWED',
        'FORBIDDEN',
        'Only callers with an API key may have this service query its Prometheus (PROMETHEUS_QUERIES=authenticated); send the range answer as prometheus, or the series as csv',
        [{ field, message: 'needs an API key' }],
      );
    }
    checkPromql(query.promql, this.config.PROMETHEUS_METRICS, `${field}.promql`);
    const { start, end, step } = this.client.window(query, field, now);
    const key = JSON.stringify([query.promql, start, end, step]);
    const known = this.answers.get(key) ?? this.inFlight.get(key);
    if (known !== undefined) return known;
    this.charge(requester, field, now);
    if (this.running >= PROMETHEUS_MAX_CONCURRENT) {
      throw new AppError(
        'MEASUREMENT.PROMETHEUS_BUSY',
        'UNAVAILABLE',
        `${PROMETHEUS_MAX_CONCURRENT} queries are running against Prometheus; retry shortly`,
        [{ field, message: 'Prometheus is busy with other queries' }],
        1,
      );
    }
    this.running += 1;
    const answer = this.client.queryRange({ ...query, end: new Date(end * 1000) }, field).finally(() => {
      this.running -= 1;
      this.inFlight.delete(key);
    });
    this.inFlight.set(key, answer);
    const text = await answer;
    this.answers.set(key, text);
    return text;
  }

  /** One query of the requester's budget in its minute; 429 beyond. */
  private charge(requester: Requester, field: string, now: number): void {
    let window = this.budgets.get(requester.id);
    if (!window || window.resetAt <= now) this.budgets.set(requester.id, (window = { count: 0, resetAt: now + MINUTE_MS }));
    if (window.count >= this.config.PROMETHEUS_QUERIES_PER_MINUTE) {
      const seconds = Math.max(1, Math.ceil((window.resetAt - now) / 1000));
      throw new AppError(
        'MEASUREMENT.QUERY_BUDGET_EXCEEDED',
        'TOO_MANY_REQUESTS',
        `At most ${this.config.PROMETHEUS_QUERIES_PER_MINUTE} Prometheus queries a minute per caller (PROMETHEUS_QUERIES_PER_MINUTE); retry in ${seconds} s`,
        [{ field, message: 'over the query budget' }],
        seconds,
      );
    }
    window.count += 1;
  }
}
