// AUTH_MODE=required: every REST call needs an API key, as `Authorization: Bearer <key>` or
// `x-api-key: <key>`. Health, metrics and the docs stay open. GraphQL requests are checked once,
// before parsing, by the same RequestGate (app.module.ts, the GraphQL context).
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerException } from '@nestjs/throttler';
import { IS_PUBLIC } from './public.decorator.js';
import { httpOf } from './request-context.js';
import { RequestGate, TooManyRequests } from './request-gate.js';


@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly gate: RequestGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType<string>() === 'graphql') return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const { req, res } = httpOf(context);
    try {
      await this.gate.authenticate(req);
    } catch (error) {
      if (!(error instanceof TooManyRequests)) throw error;
      res.setHeader('Retry-After', String(error.retryAfterSeconds));
      throw new ThrottlerException();
    }
    return true;
  }
}
