// A Nest testing module with the catalog services wired as in CatalogModule, but with the
// repository replaced by the in-memory one: no database, no HTTP. Feature tests add their own
// services (OffersService, EstimatesService) and override their other ports on the builder.
import type { Provider } from '@nestjs/common';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import { APP_CONFIG, loadConfig, TRACK_CURRENT_VERSION, type AppConfig } from '../../../config/app-config.js';
import { CatalogRepository } from '../catalog.repository.js';
import { CatalogService } from '../catalog.service.js';
import { PriceHistoryService } from '../price-history.service.js';
import type { InMemoryCatalogRepository } from './in-memory-catalog.repository.js';

export interface CatalogTestingOptions {
  repository: InMemoryCatalogRepository;
  /** As in the API (poll and preload the current version); false as in the admin scripts. */
  tracking?: boolean;
  config?: Partial<AppConfig>;
  providers?: Provider[];
}

export function catalogTestingModule({ repository, tracking = false, config = {}, providers = [] }: CatalogTestingOptions): TestingModuleBuilder {
  return Test.createTestingModule({
    providers: [
      CatalogRepository,
      CatalogService,
      PriceHistoryService,
      { provide: APP_CONFIG, useValue: { ...loadConfig({}), ...config } },
      { provide: TRACK_CURRENT_VERSION, useValue: tracking },
      ...providers,
    ],
  })
    .overrideProvider(CatalogRepository)
    .useValue(repository);
}
