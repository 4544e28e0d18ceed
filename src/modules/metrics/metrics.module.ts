import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/index.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsService } from './metrics.service.js';

// Requests are counted and timed in Fastify's onResponse hook (modules/http/http-hooks.ts).
@Module({ imports: [CatalogModule], controllers: [MetricsController], providers: [MetricsService], exports: [MetricsService] })
export class MetricsModule {}
