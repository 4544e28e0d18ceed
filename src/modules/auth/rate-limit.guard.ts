// Per-key rate limits (per client IP when AUTH_MODE=off) for REST calls; GraphQL requests are
// counted by the same RequestGate before parsing. One bucket per caller across REST and GraphQL.
// Over the limit: 429 with Retry-After (REST problem+json, GraphQL extensions.code TOO_MANY_REQUESTS).
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerException } from '@nestjs/throttler';
import { httpOf } from './request-context.js';
import { RequestGate, TooManyRequests } from './request-gate.js';

/** Set by @SkipThrottle() (health, metrics). */
const SKIP_THROTTLE = 'THROTTLER:SKIPdefault';

@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly gate: RequestGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType<string>() === 'graphql') return true;
    if (this.reflector.getAllAndOverride<boolean>(SKIP_THROTTLE, [context.getHandler(), context.getClass()])) return true;
    const { req, res } = httpOf(context);
    try {
      await this.gate.count(req);
    } catch (error) {
      if (!(error instanceof TooManyRequests)) throw error;
      res.setHeader('Retry-After', String(error.retryAfterSeconds));
      throw new ThrottlerException();
    }
    return true;
  }
}
