// The catalog's reads, what other features may use: the module, the service that answers which
// version and what content, the read repository (for catalog-admin and health), the models
// answers share. Other features import from here only (lint: .dependency-cruiser.cjs).
export { CatalogService, type VersionSelector } from './catalog.service.js';
export { SourceFreshnessService } from './source-freshness.service.js';
export { CatalogRepository } from './catalog.repository.js';
export { PUBLISH_CHANNEL } from './publication-listener.js';
export { CatalogVersionRefModel } from './models/catalog-version.model.js';
export * from './models/offer.model.js';
