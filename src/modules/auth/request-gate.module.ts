// The serving app's gate (authentication and rate limits). Kept apart from AuthModule, which the
// admin scripts also load, so that they do not load the rate limiter.
import { Module } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { AuthModule } from './auth.module.js';
import { GATE_STORAGE, RequestGate } from './request-gate.js';

@Module({
  imports: [AuthModule],
  providers: [RequestGate, { provide: GATE_STORAGE, useExisting: ThrottlerStorage }],
  exports: [RequestGate],
})
export class RequestGateModule {}
