import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { RequestGateModule } from '../auth/request-gate.module.js';
import { CatalogModule } from '../catalog/catalog.module.js';
import { HealthController } from './health.controller.js';
import { ReadinessService } from './readiness.service.js';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), CatalogModule, RequestGateModule],
  controllers: [HealthController],
  providers: [ReadinessService],
  exports: [ReadinessService],
})
export class HealthModule {}
