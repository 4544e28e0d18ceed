import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MetricsService } from './metrics.service.js';

/**
 * Counts and times every HTTP request by its route pattern (/v1/offers, not the raw URL, so
 * label cardinality stays bounded). GraphQL is one route, /graphql.
 */
@Injectable()
export class MetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const end = this.metrics.duration.startTimer();
    res.on('finish', () => {
      const routePath = (req.route as { path?: string } | undefined)?.path;
      const route = routePath ? `${req.baseUrl}${routePath}` : res.statusCode === 404 ? 'unmatched' : req.baseUrl || req.path;
      end({ method: req.method, route });
      this.metrics.requests.inc({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  }
}
