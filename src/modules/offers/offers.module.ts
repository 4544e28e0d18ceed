import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { OffersController } from './offers.controller.js';
import { OffersResolver } from './offers.resolver.js';
import { OffersService } from './offers.service.js';

@Module({
  imports: [CatalogModule],
  controllers: [OffersController],
  providers: [OffersService, OffersResolver],
  exports: [OffersService],
})
export class OffersModule {}
