import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService, type HealthCheckResult } from '@nestjs/terminus';
import { RequestGate } from '../auth/index.js';
import { SourceFreshnessService } from '../catalog/index.js';
import { ApiHealthResponses } from './health-schema.js';
import { ReadinessService } from './readiness.service.js';

/** Health answers are never cached; their OpenAPI description is ApiHealthResponses (health-schema.ts says why). */
const NO_CACHE_NOR_RUNTIME_SWAGGER = { noCache: true, swaggerDocumentation: false };

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly readiness: ReadinessService,
    private readonly freshness: SourceFreshnessService,
    private readonly gate: RequestGate,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiHealthResponses({ up: { process: { status: 'up', uptimeSeconds: 3600 } } }, false)
  @HealthCheck(NO_CACHE_NOR_RUNTIME_SWAGGER)
  live(): HealthCheckResult {
    // Terminus' result, built directly: liveness is "the process answers", probed often, and has
    // nothing to check that could fail.
    const up = { uptimeSeconds: Math.round(process.uptime()), status: 'up' as const };
    return { status: 'ok', info: { process: up }, error: {}, details: { process: up } };
  }

  @Get('ready')
  @ApiOperation({
    summary:
      "Readiness: database reachable, migrations applied, catalog loaded (503 when not); per live price source its freshness (stale is a warning); where rate limits are counted (per instance while Redis is unreachable is a warning); the read replica's lag",
  })
  @ApiHealthResponses(
    {
      up: {
        database: { status: 'up', pendingMigrations: 0 },
        catalog: { status: 'up', version: '2026-11-30', offers: 741, publishes: 'notify' },
        catalogSources: { status: 'up', sources: {} },
        replica: { status: 'up', configured: true, lagSeconds: 0.2 },
        rateLimits: { status: 'up', mode: 'shared', redisErrors: 0 },
      },
      down: { database: { status: 'down', message: 'connect ECONNREFUSED 127.0.0.1:5432' } },
    },
    true,
  )
  @HealthCheck(NO_CACHE_NOR_RUNTIME_SWAGGER)
  ready() {
    return this.health.check([
      async () => {
        const session = this.indicators.check('database');
        const db = await this.readiness.database();
        return db.ok ? session.up({ pendingMigrations: 0 }) : session.down({ message: db.message });
      },
      async () => {
        const session = this.indicators.check('catalog');
        const catalog = await this.readiness.catalog();
        // publishes: 'notify' while the LISTEN connection is open, else 'poll' (publication-listener.ts).
        return catalog.ok
          ? session.up({ version: catalog.label, offers: catalog.offers, publishes: catalog.pushed ? 'notify' : 'poll' })
          : session.down({ message: catalog.message });
      },
      // Always up: a stale source is a warning (the catalog still answers with dated prices), never an outage.
      async () => {
        const sources = await this.freshness.view();
        const stale = Object.entries(sources)
          .filter(([, s]) => s.stale)
          .map(([name]) => name);
        const warning = stale.length ? { warning: `stale price sources (no successful catalog:sync recently): ${stale.join(', ')}` } : {};
        return this.indicators.check('catalogSources').up({ ...warning, sources });
      },
      // Always up: a replica that lags or does not answer only sends content loads to the primary.
      async () => {
        const session = this.indicators.check('replica');
        const lag = await this.readiness.replicaLag();
        if (!lag) return session.up({ configured: false });
        return lag.ok
          ? session.up({ configured: true, lagSeconds: lag.lagSeconds })
          : session.up({ configured: true, warning: `the read replica does not answer (${lag.message}); catalog content is loaded from the primary` });
      },
      // Always up: without Redis the limits hold per instance, which is a warning, not an outage.
      () => {
        const { mode, redisConfigured, redisErrors, message } = this.gate.countersStatus();
        return this.indicators.check('rateLimits').up({ mode, ...(redisConfigured ? { redisErrors } : {}), ...(message ? { warning: message } : {}) });
      },
    ]);
  }
}
