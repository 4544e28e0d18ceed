// REST calls pass the RequestGate here: the API key first (AUTH_MODE=required; health, metrics and
// the docs stay open), then the caller's rate limit (not for @SkipThrottle routes). Over a limit:
// 429 with Retry-After as problem+json. GraphQL requests pass the same gate once, before parsing,
// while Apollo builds the context (app.module.ts), so resolvers are not checked again.
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerException } from '@nestjs/throttler';
import { IS_PUBLIC } from './public.decorator.js';
import { httpOf } from './request-context.js';
import { RequestGate, TooManyRequests } from './request-gate.js';

/** Set by @SkipThrottle() (health, metrics). */
const SKIP_THROTTLE = 'THROTTLER:SKIPdefault';

@Injectable()
export class RequestGateGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly gate: RequestGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType<string>() === 'graphql') return true;
    const targets = [context.getHandler(), context.getClass()];
    const { req, res } = httpOf(context);
    try {
      if (!this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) await this.gate.authenticate(req);
      if (!this.reflector.getAllAndOverride<boolean>(SKIP_THROTTLE, targets)) await this.gate.count(req);
    } catch (error) {
      if (!(error instanceof TooManyRequests)) throw error;
      res.setHeader('Retry-After', String(error.retryAfterSeconds));
      throw new ThrottlerException();
    }
    return true;
  }
}
