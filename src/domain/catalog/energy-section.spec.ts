// The catalog's energy section (data/catalog/energy.yaml): read, checked, inherited and diffed like
// the other sections; a row without its source or year, a grid intensity without its method, or a
// row naming nothing known, is refused with its file and line.
import { readFileSync } from 'node:fs';
import { assembleCatalog, parseCatalogFiles, type CatalogFile } from './catalog-files.js';
import { diffCatalogs } from './catalog-diff.js';
import { catalogChecksum } from './catalog-hash.js';
import { defined } from '../checked.js';

const base: CatalogFile = {
  path: 'base.yaml',
  text: `catalog:
  label: "t1"
  source: test
  fx: { base: USD, rates: { EUR: "0.8650" }, date: "2026-11-27", source: ECB }
providers:
  - { slug: aws, name: AWS, kind: HYPERSCALER, headquartersCountry: US, certifications: [] }
regions:
  - { code: "aws:eu-central-1", provider: aws, name: Frankfurt, country: DE }
gpus:
  - { slug: h100-sxm-80gb, vendor: NVIDIA, name: H100, memoryGb: "80", memoryBandwidthGbps: "3350", \
fp16Tflops: "989", int8Tops: "1979", fp8Tflops: "1979", fp8Support: true }
`,
};
const energy = (rows: string): CatalogFile => ({ path: 'energy.yaml', text: `energy:\n${rows}` });
const grid = '  - { kind: GRID_INTENSITY, subject: DE, value: "342", year: 2025, gridSource: ELECTRICITY_MAPS, source: "https://example.org/em#L438" }\n';

function assemble(files: CatalogFile[]) {
  return assembleCatalog({ parsed: parseCatalogFiles(files), inherited: null });
}

describe('the energy section', () => {
  it('reads a row with its kind, subject, exact value, year and source', () => {
    const { content, errors } = assemble([base, energy(grid)]);
    expect(errors).toEqual([]);
    const [row] = defined(content, 'content').energy ?? [];
    expect(row?.kind).toBe('GRID_INTENSITY');
    expect(row?.subject).toBe('DE');
    expect(row?.value.toString()).toBe('342');
    expect(row?.year).toBe(2025);
    expect(row?.gridSource).toBe('ELECTRICITY_MAPS');
  });

  it('refuses a grid intensity without its method, and a method on any other figure, at its line', () => {
    const { errors } = assemble([
      base,
      energy(
        [
          '  - { kind: GRID_INTENSITY, subject: DE, value: "342", year: 2025, source: "https://x.org" }',
          '  - { kind: GRID_INTENSITY, subject: "aws:eu-central-1", value: "342", year: 2025, gridSource: GUESS, source: "https://x.org" }',
          '  - { kind: PUE, subject: aws, value: "1.14", year: 2025, gridSource: PROVIDER, source: "https://x.org" }',
          '',
        ].join('\n'),
      ),
    ]);
    expect(errors.map((e) => `${e.line} ${e.field}`)).toEqual(['2 gridSource', '3 gridSource', '4 gridSource']);
  });

  it("reads a PUE for a known region (the provider's figure for that site), and refuses one for an unknown region", () => {
    const pue = (subject: string) => `  - { kind: PUE, subject: "${subject}", value: "1.16", year: 2025, source: "https://x.org" }\n`;
    const { content, errors } = assemble([base, energy(pue('aws:eu-central-1'))]);
    expect(errors).toEqual([]);
    expect(content?.energy?.[0]).toMatchObject({ kind: 'PUE', subject: 'aws:eu-central-1' });
    expect(content?.energy?.[0]).not.toHaveProperty('gridSource');
    expect(assemble([base, energy(pue('aws:nowhere-1'))]).errors).toEqual([expect.objectContaining({ line: 2, field: 'subject' })]);
  });

  it('refuses a row without a source, at its file and line', () => {
    const { content, errors } = assemble([base, energy(grid + '  - { kind: PUE, subject: aws, value: "1.135", year: 2021 }\n')]);
    expect(content).toBeNull();
    expect(errors).toEqual([expect.objectContaining({ file: 'energy.yaml', line: 3, field: 'source' })]);
  });

  it('refuses a source that is not an http(s) URL, and a row without a year', () => {
    const { errors } = assemble([
      base,
      energy(
        '  - { kind: PUE, subject: aws, value: "1.135", year: 2021, source: "AWS blog" }\n  - { kind: PUE, subject: default, value: "1.58", source: "https://x.org" }\n',
      ),
    ]);
    expect(errors.map((e) => `${e.file}:${e.line} ${e.field}`)).toEqual(['energy.yaml:2 source', 'energy.yaml:3 year']);
  });

  it('refuses subjects the catalog does not know, a PUE below 1 and an idle share of 1', () => {
    const { errors } = assemble([
      base,
      energy(
        [
          '  - { kind: GRID_INTENSITY, subject: "aws:nowhere-1", value: "1", year: 2024, gridSource: PROVIDER, source: "https://x.org" }',
          '  - { kind: PUE, subject: lambda, value: "1.2", year: 2024, source: "https://x.org" }',
          '  - { kind: GPU_POWER, subject: h999, value: "700", year: 2024, source: "https://x.org" }',
          '  - { kind: PUE, subject: aws, value: "0.9", year: 2024, source: "https://x.org" }',
          '  - { kind: IDLE_POWER_SHARE, subject: default, value: "1", year: 2024, source: "https://x.org" }',
          '',
        ].join('\n'),
      ),
    ]);
    expect(errors.map((e) => `${e.line} ${e.field}`)).toEqual(['2 subject', '3 subject', '4 subject', '5 value', '6 value']);
  });

  it('is inherited by an import without it, and shows in the diff and the checksum when it changes', () => {
    const first = defined(assemble([base, energy(grid)]).content, 'first');
    const offersOnly = assembleCatalog({ parsed: parseCatalogFiles([energy(grid)]), inherited: first });
    expect(offersOnly.content?.energy).toEqual(first.energy);
    const changed = defined(assemble([base, energy(grid.replace('"342"', '"340"'))]).content, 'changed');
    expect(diffCatalogs({ from: first, to: changed }).reference).toEqual([{ kind: 'energy', key: 'GRID_INTENSITY|DE', change: 'changed' }]);
    const otherMethod = defined(assemble([base, energy(grid.replace('ELECTRICITY_MAPS', 'PROVIDER'))]).content, 'other method');
    expect(catalogChecksum(otherMethod)).not.toBe(catalogChecksum(first));
    expect(catalogChecksum(changed)).not.toBe(catalogChecksum(first));
    const without = defined(assemble([base]).content, 'without');
    expect(diffCatalogs({ from: without, to: first }).reference).toEqual([{ kind: 'energy', key: 'GRID_INTENSITY|DE', change: 'added' }]);
  });

  it('the bundled data/catalog/energy.yaml: every row has an http(s) source and a year, and parses without error', () => {
    const parsed = parseCatalogFiles([{ path: 'data/catalog/energy.yaml', text: readFileSync('data/catalog/energy.yaml', 'utf8') }]);
    expect(parsed.errors).toEqual([]);
    const rows = defined(parsed.energy, 'energy rows');
    expect(rows.length).toBeGreaterThan(30);
    for (const { item } of rows) {
      expect(item.source).toMatch(/^https?:\/\//);
      expect(item.year).toBeGreaterThanOrEqual(2021);
    }
  });
});
