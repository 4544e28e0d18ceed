// Per-key rate limits (per client IP when AUTH_MODE=off), over REST and GraphQL alike. Over the
// limit: 429 with Retry-After (REST problem+json, GraphQL extensions.code TOO_MANY_REQUESTS).
import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { ThrottlerGuard } from '@nestjs/throttler';
import { httpOf, type CallerRequest } from './request-context.js';

@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  @Inject(APP_CONFIG) private readonly config!: Pick<AppConfig, 'RATE_LIMIT_PER_MINUTE'>;

  /** RATE_LIMIT_PER_MINUTE=0 turns limits off (e.g. behind a gateway that enforces its own). */
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    return this.config.RATE_LIMIT_PER_MINUTE === 0 ? true : super.canActivate(context);
  }

  protected override getRequestResponse(context: ExecutionContext): { req: Record<string, unknown>; res: Record<string, unknown> } {
    const { req, res } = httpOf(context);
    return { req: req as unknown as Record<string, unknown>, res: res as unknown as Record<string, unknown> };
  }

  /** One bucket per caller across every route (the default counts each route separately). */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const r = req as unknown as CallerRequest;
    return r.caller ? `key:${r.caller.keyId}` : `ip:${r.ip ?? 'unknown'}`;
  }
}
