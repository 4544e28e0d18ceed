// The catalog's writes: importing files into a new version, publishing and rolling back. Loaded by
// the admin scripts (cli.module.ts) only; a service's first start on an empty database runs the
// script's seed in a process of its own (src/seed-on-first-start.ts).
import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { CatalogImportService } from './catalog-import.service.js';
import { CatalogWriterRepository } from './catalog-writer.repository.js';

@Module({
  imports: [CatalogModule],
  providers: [CatalogWriterRepository, CatalogImportService],
  exports: [CatalogImportService, CatalogWriterRepository],
})
export class CatalogAdminModule {}
