import { Module } from '@nestjs/common';
import { RequestGateModule } from '../auth/request-gate.module.js';
import { CatalogModule } from '../catalog/catalog.module.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsService } from './metrics.service.js';

// Requests are counted and timed in Fastify's onResponse hook (modules/http/http-hooks.ts).
@Module({ imports: [CatalogModule, RequestGateModule], controllers: [MetricsController], providers: [MetricsService], exports: [MetricsService] })
export class MetricsModule {}
