// catalog:sync: the providers' live price feeds turned into catalog imports. Command-line only
// (cli.module.ts); the service reads what a sync recorded through catalog/source-freshness.service.ts.
import { Module } from '@nestjs/common';
import { CatalogAdminModule } from '../catalog-admin/catalog-admin.module.js';
import { CatalogModule } from '../catalog/catalog.module.js';
import { CatalogSyncService } from './catalog-sync.service.js';
import { SourceSyncRepository } from './source-sync.repository.js';

@Module({
  imports: [CatalogModule, CatalogAdminModule],
  providers: [CatalogSyncService, SourceSyncRepository],
  exports: [CatalogSyncService],
})
export class PriceFeedsModule {}
