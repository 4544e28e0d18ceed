// The module the admin scripts run in: the catalog's reads as the API has them, plus its writes
// (catalog-admin) and the live price feeds (price-feeds), which the service never loads; no HTTP.
import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from './config/app-config.js';
import { AppConfigModule } from './config/app-config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { AuthModule } from './modules/auth/auth.module.js';
import { CatalogAdminModule } from './modules/catalog-admin/catalog-admin.module.js';
import { CatalogModule } from './modules/catalog/catalog.module.js';
import { PriceFeedsModule } from './modules/price-feeds/price-feeds.module.js';

@Module({})
export class CliModule {
  static register({ config, databaseUrl }: { config: AppConfig; databaseUrl: string }): DynamicModule {
    return {
      module: CliModule,
      imports: [
        AppConfigModule.forRoot(config, { serving: false }),
        DatabaseModule.forRoot({ url: databaseUrl, poolSize: 4, connectTimeoutMs: 5_000, statementTimeoutMs: 0 }),
        CatalogModule,
        CatalogAdminModule,
        PriceFeedsModule,
        AuthModule,
      ],
    };
  }
}
