// The serving app's gate (authentication and rate limits). Kept apart from AuthModule, which the
// admin scripts also load, so that they do not build a rate limiter. With REDIS_URL the counts are
// shared by all instances (shared-counters.ts), else kept in this process's memory.
import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { AuthModule } from './auth.module.js';
import { FixedWindowStore, type RateLimitStore } from './rate-limit-store.js';
import { GATE_STORAGE, RequestGate } from './request-gate.js';
import { redisWindowScripts, SharedCounterStore } from './shared-counters.js';

function gateStorage(config: AppConfig): RateLimitStore {
  if (!config.REDIS_URL) return new FixedWindowStore();
  return new SharedCounterStore(
    redisWindowScripts(config.REDIS_URL, { connectMs: config.REDIS_CONNECT_TIMEOUT_MS, commandMs: config.REDIS_COMMAND_TIMEOUT_MS }),
  );
}

@Module({
  imports: [AuthModule],
  providers: [RequestGate, { provide: GATE_STORAGE, inject: [APP_CONFIG], useFactory: gateStorage }],
  exports: [RequestGate],
})
export class RequestGateModule implements OnApplicationShutdown {
  constructor(@Inject(GATE_STORAGE) private readonly storage: RateLimitStore) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.storage instanceof SharedCounterStore) await this.storage.close();
  }
}
