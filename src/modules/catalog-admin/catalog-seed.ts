import type { INestApplicationContext } from '@nestjs/common';
import type { CatalogVersionInfo } from '../../domain/catalog/catalog.types.js';
import { CatalogImportService } from './catalog-import.service.js';

/** Imports the bundled catalog and makes it current (a no-op when it is current already). */
export async function seed(app: INestApplicationContext, catalogDir: string): Promise<CatalogVersionInfo> {
  const importer = app.get(CatalogImportService);
  // The bundled catalog is a whole catalog: it replaces every offer, however many change.
  const report = await importer.import({ paths: [catalogDir], publish: true, force: true, scope: { mode: 'FULL' }, guard: { allowLargeChange: true } });
  if (report.status === 'invalid') {
    const lines = report.errors.map((e) => `${e.file}:${e.line} ${e.field}: ${e.message}`);
    throw new Error(`The bundled catalog in ${catalogDir} is invalid:\n${lines.join('\n')}`);
  }
  if (report.status === 'moved' || report.status === 'refused' || report.status === 'dry-run') {
    throw new Error(`The bundled catalog in ${catalogDir} was not imported (${report.status})`);
  }
  const version = report.version;
  return version.current ? version : importer.publish(version.id);
}
