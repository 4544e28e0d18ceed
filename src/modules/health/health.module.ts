import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { RequestGateModule } from '../auth/index.js';
import { CatalogModule } from '../catalog/index.js';
import { HealthController } from './health.controller.js';
import { ReadinessService } from './readiness.service.js';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), CatalogModule, RequestGateModule],
  controllers: [HealthController],
  providers: [ReadinessService],
  exports: [ReadinessService],
})
export class HealthModule {}
