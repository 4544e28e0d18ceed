// The serving app's gate (authentication and rate limits). Kept apart from AuthModule, which the
// admin scripts also load, so that they do not load the rate limiter.
import { Module } from '@nestjs/common';
import { AuthModule } from './auth.module.js';
import { RequestGate } from './request-gate.js';

@Module({ imports: [AuthModule], providers: [RequestGate], exports: [RequestGate] })
export class RequestGateModule {}
