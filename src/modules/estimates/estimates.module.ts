import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { EstimatesController } from './estimates.controller.js';
import { EstimatesResolver } from './estimates.resolver.js';
import { EstimatePool } from './estimate-pool.js';
import { EstimatesService } from './estimates.service.js';
import { MeasurementInputs } from './measurement-inputs.js';
import { PrometheusClient } from './prometheus-client.js';
import { PrometheusQueries } from './prometheus-queries.js';

@Module({
  imports: [CatalogModule],
  controllers: [EstimatesController],
  providers: [EstimatesService, EstimatesResolver, EstimatePool, MeasurementInputs, PrometheusClient, PrometheusQueries],
})
export class EstimatesModule {}
