// AUTH_MODE=required: every REST and GraphQL call needs an API key, as `Authorization: Bearer
// <key>` or `x-api-key: <key>`. Health, metrics and the docs stay open.
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError } from '../../common/errors/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { ApiKeysService } from './api-keys.service.js';
import { IS_PUBLIC } from './public.decorator.js';
import { httpOf } from './request-context.js';

export function keyFrom(headers: Record<string, string | string[] | undefined>): string | null {
  const auth = headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+\S+$/i.test(auth)) return auth.replace(/^Bearer\s+/i, '');
  const key = headers['x-api-key'];
  return typeof key === 'string' && key.length > 0 ? key : null;
}

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeysService,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'AUTH_MODE'>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.config.AUTH_MODE === 'off') return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const { req } = httpOf(context);
    const key = keyFrom(req.headers);
    if (!key) throw new AppError('AUTH.MISSING_KEY', 'UNAUTHENTICATED', 'an API key is required: send Authorization: Bearer <key> or x-api-key');
    const caller = key.length <= 200 ? await this.keys.verify(key) : null;
    if (!caller) throw new AppError('AUTH.INVALID_KEY', 'UNAUTHENTICATED', 'the API key is unknown or revoked');
    req.caller = caller;
    return true;
  }
}
