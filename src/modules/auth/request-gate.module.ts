// The serving app's gate (authentication and rate limits). Kept apart from AuthModule, which the
// admin scripts also load, so that they do not build a rate limiter. With REDIS_URL the counts are
// shared by all instances (rate-limits.ts), else kept in this process's memory.
import { Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { AuthModule } from './auth.module.js';
import { RateLimitCounters, rateLimitRedis } from './rate-limits.js';
import { RequestGate } from './request-gate.js';

function rateLimitCounters(config: AppConfig): RateLimitCounters {
  if (!config.REDIS_URL) return new RateLimitCounters(null);
  return new RateLimitCounters(rateLimitRedis(config.REDIS_URL, { connectMs: config.REDIS_CONNECT_TIMEOUT_MS, commandMs: config.REDIS_COMMAND_TIMEOUT_MS }));
}

@Module({
  imports: [AuthModule],
  providers: [RequestGate, { provide: RateLimitCounters, inject: [APP_CONFIG], useFactory: rateLimitCounters }],
  exports: [RequestGate],
})
export class RequestGateModule implements OnApplicationShutdown {
  constructor(private readonly counters: RateLimitCounters) {}

  onApplicationShutdown(): void {
    this.counters.close();
  }
}
