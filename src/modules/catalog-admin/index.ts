// Catalog administration, for the admin scripts and tests: import, publish, roll back, seed.
export { CatalogImportService, readCatalogFiles, type ImportReport } from './catalog-import.service.js';
export { CatalogWriterRepository, type NewVersion } from './catalog-writer.repository.js';
export { seed } from './catalog-seed.js';
