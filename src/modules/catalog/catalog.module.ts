import { Module } from '@nestjs/common';
import { CatalogImportService } from './catalog-import.service.js';
import { CatalogController } from './catalog.controller.js';
import { CatalogRepository } from './catalog.repository.js';
import { CatalogResolver } from './catalog.resolver.js';
import { CatalogService } from './catalog.service.js';
import { PriceHistoryService } from './price-history.service.js';
import { CatalogSyncService } from './sync/catalog-sync.service.js';
import { SourceFreshnessService } from './sync/source-freshness.service.js';

@Module({
  controllers: [CatalogController],
  providers: [CatalogRepository, CatalogService, CatalogImportService, CatalogSyncService, SourceFreshnessService, CatalogResolver, PriceHistoryService],
  exports: [CatalogService, CatalogImportService, CatalogSyncService, SourceFreshnessService, CatalogRepository],
})
export class CatalogModule {}
