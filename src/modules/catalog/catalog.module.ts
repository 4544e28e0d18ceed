// The catalog's reads: versions, content and its index, price history, reference figures, the
// freshness of the live price sources. What the service needs; imports and publishes are
// catalog-admin's, price feeds price-feeds' (both command-line only).
import { Module } from '@nestjs/common';
import { CatalogController } from './catalog.controller.js';
import { CatalogRepository } from './catalog.repository.js';
import { CatalogResolver } from './catalog.resolver.js';
import { CatalogService } from './catalog.service.js';
import { PriceHistoryService } from './price-history.service.js';
import { SourceFreshnessService } from './source-freshness.service.js';

@Module({
  controllers: [CatalogController],
  providers: [CatalogRepository, CatalogService, SourceFreshnessService, CatalogResolver, PriceHistoryService],
  exports: [CatalogService, SourceFreshnessService, CatalogRepository],
})
export class CatalogModule {}
