import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { CatalogService } from './catalog.service.js';

/** Marks answers given while PostgreSQL is unreachable: they come from the in-memory catalog. */
@Injectable()
export class ServedFromCacheMiddleware implements NestMiddleware {
  constructor(private readonly catalog: CatalogService) {}

  use(_req: Request, res: Response, next: NextFunction): void {
    if (this.catalog.servingFromCache) res.setHeader('X-Served-From-Cache', 'true');
    next();
  }
}
