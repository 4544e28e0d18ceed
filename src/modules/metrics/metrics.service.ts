import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type LabelValues } from 'prom-client';
import { RequestGate } from '../auth/index.js';
import { SourceFreshnessService } from '../catalog/index.js';

type RequestLabels = 'method' | 'route' | 'status';

/** Prometheus metrics of this process, in its own registry (no global state between app instances). */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  /**
   * The labelled series of each (method, route, status), resolved once: prom-client hashes the
   * label values on every call otherwise. Routes are patterns, so this stays small.
   */
  private readonly series = new Map<string, { count: Counter.Internal; time: Histogram.Internal<'method' | 'route'> }>();

  constructor(freshness: SourceFreshnessService, gate: RequestGate) {
    collectDefaultMetrics({ register: this.registry });
    this.rateLimitMetrics(gate);
    // Per live price source (catalog:sync), read from the database at scrape time (cached 5 s).
    const lastSuccess = new Gauge({
      name: 'catalog_source_last_success_timestamp',
      help: 'Unix time of the last successful catalog:sync of each price source (0: never)',
      labelNames: ['source'] as const,
      registers: [this.registry],
      collect: async () => {
        lastSuccess.reset();
        for (const r of await freshness.list()) lastSuccess.set({ source: r.source }, r.lastSuccessAt ? r.lastSuccessAt.getTime() / 1000 : 0);
      },
    });
    const offers = new Gauge({
      name: 'catalog_source_offers',
      help: 'Offers the last successful catalog:sync took from each price source',
      labelNames: ['source'] as const,
      registers: [this.registry],
      collect: async () => {
        offers.reset();
        for (const r of await freshness.list()) offers.set({ source: r.source }, r.offers);
      },
    });
  }

  /** Where the rate-limit counts live, and how often Redis failed (REDIS_URL; auth/rate-limits.ts). */
  private rateLimitMetrics(gate: RequestGate): void {
    const shared: Gauge = new Gauge({
      name: 'rate_limit_shared',
      help: '1 while rate limits are counted in Redis across instances, 0 while per instance (no REDIS_URL, or Redis unreachable)',
      registers: [this.registry],
      collect: () => {
        shared.set(gate.countersStatus().mode === 'shared' ? 1 : 0);
      },
    });
    const errors: Counter = new Counter({
      name: 'rate_limit_redis_errors_total',
      help: 'Redis commands of the rate limiter that failed; each such request was counted in this instance only',
      registers: [this.registry],
      collect: () => {
        errors.reset();
        errors.inc(gate.countersStatus().redisErrors);
      },
    });
  }

  /** One answered request; `route` is its pattern (`/v1/offers`), or `unmatched`. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const id = `${method} ${status} ${route}`;
    let s = this.series.get(id);
    if (!s) {
      const labels: LabelValues<RequestLabels> = { method, route, status: String(status) };
      s = {
        count: this.requests.labels(labels),
        time: this.duration.labels({ method, route }),
      };
      this.series.set(id, s);
    }
    s.count.inc();
    s.time.observe(seconds);
  }
}
