// Live price feeds, for the admin scripts and tests.
export { CatalogSyncService, type SyncReport } from './catalog-sync.service.js';
export { PRICE_SOURCES } from './sources/index.js';
