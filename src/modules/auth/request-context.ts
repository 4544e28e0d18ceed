import type { ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { Request, Response } from 'express';
import type { Caller } from './api-keys.service.js';

export type CallerRequest = Request & { caller?: Caller };

/** The HTTP request and response behind a REST call or a GraphQL resolver. */
export function httpOf(context: ExecutionContext): { req: CallerRequest; res: Response } {
  if (context.getType<string>() === 'graphql') {
    const ctx = GqlExecutionContext.create(context).getContext<{ req: CallerRequest; res: Response }>();
    return { req: ctx.req, res: ctx.res };
  }
  const http = context.switchToHttp();
  return { req: http.getRequest<CallerRequest>(), res: http.getResponse<Response>() };
}
