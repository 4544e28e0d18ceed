// Live price feeds, for the admin scripts and tests.
export { PriceFeedsModule } from './price-feeds.module.js';
export { CatalogSyncService, type SyncReport } from './catalog-sync.service.js';
export { PRICE_SOURCES } from './sources/index.js';
