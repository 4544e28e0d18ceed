// The bundled catalog (data/catalog) reads without an error under today's row rules, so a new rule
// (such as http(s)-only sources) that the shipped files break fails here, not at a service's first
// start.
import { assembleCatalog, parseCatalogFiles } from '../../domain/catalog/catalog-files.js';
import { readCatalogFiles } from './catalog-import.service.js';

describe('the bundled catalog', () => {
  it('passes every row rule, and links only http(s) pages from its offers', async () => {
    const parsed = parseCatalogFiles(await readCatalogFiles(['data/catalog']));
    expect(parsed.errors).toEqual([]);
    const { content, errors } = assembleCatalog({ parsed, inherited: null, scope: { mode: 'FULL' } });
    expect(errors).toEqual([]);
    const offers = content?.offers ?? [];
    expect(offers.length).toBeGreaterThan(100);
    expect(offers.filter((o) => !/^https?:\/\/[^\s]+$/.test(o.sourceUrl)).map((o) => o.sourceUrl)).toEqual([]);
  });
});
