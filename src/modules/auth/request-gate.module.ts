// The serving app's gate (authentication and rate limits). Kept apart from AuthModule, which the
// admin scripts also load, so that they do not build a rate limiter.
import { Module } from '@nestjs/common';
import { AuthModule } from './auth.module.js';
import { FixedWindowStore } from './rate-limit-store.js';
import { GATE_STORAGE, RequestGate } from './request-gate.js';

@Module({
  imports: [AuthModule],
  providers: [RequestGate, { provide: GATE_STORAGE, useFactory: () => new FixedWindowStore() }],
  exports: [RequestGate],
})
export class RequestGateModule {}
