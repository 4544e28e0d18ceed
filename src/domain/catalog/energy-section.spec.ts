// The catalog's energy section (data/catalog/energy.yaml): read, checked, inherited and diffed like
// the other sections; a row without its source or year, a grid intensity without its method, or a
// row naming nothing known, is refused with its file and line. Then the bundled catalog: every
// offer has a carbon figure or a reason, against figures computed by hand.
import { readdirSync, readFileSync } from 'node:fs';
import { assembleCatalog, parseCatalogFiles, type CatalogFile } from './catalog-files.js';
import { diffCatalogs } from './catalog-diff.js';
import { catalogChecksum } from './catalog-hash.js';
import { defined } from '../checked.js';
import { indexEnergy, offerEnergy } from '../energy/index.js';
import type { CatalogContent } from './catalog.types.js';

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

  it("the bundled grid figures: each names its method and is of 2025, the newest public year; Google's regions are Google's own, the others Electricity Maps'", () => {
    const rows = bundled().energy?.filter((f) => f.kind === 'GRID_INTENSITY') ?? [];
    expect(rows.length).toBeGreaterThan(30);
    for (const f of rows) {
      expect([f.subject, f.year, f.gridSource]).toEqual([f.subject, 2025, f.subject.startsWith('gcp:') ? 'PROVIDER' : 'ELECTRICITY_MAPS']);
      expect(f.source).toMatch(
        f.subject.startsWith('gcp:') ? /region-carbon-info\/blob\/[0-9a-f]{40}\/.*#L\d+$/ : /co2\.js\/blob\/[0-9a-f]{40}\/.*yearly_2025\.js#L\d+$/,
      );
    }
  });
});

describe('the bundled catalog: carbon you can compare', () => {
  const content = bundled();
  const index = indexEnergy(content.energy ?? []);
  const country = new Map(content.regions.map((r) => [r.code, r.country]));
  const outcome = (o: { gpuSlug: string; providerSlug: string; regionCode: string }) =>
    offerEnergy({ index, gpu: o.gpuSlug, provider: o.providerSlug, regionCode: o.regionCode, country: defined(country.get(o.regionCode), o.regionCode) });

  /** The one region with offers whose country is unknown (ZZ): Vast.ai's market. */
  const UNKNOWN_PLACE = 'vastai:global';

  it('every offer whose country is known has a carbon figure, the A10 included (150 W, its datasheet as transcribed)', () => {
    const unknown = new Map<string, string>();
    for (const o of content.offers) {
      const e = outcome(o);
      if (e.kind === 'UNKNOWN') unknown.set(o.regionCode === UNKNOWN_PLACE ? UNKNOWN_PLACE : o.gpuSlug, e.reason);
      else expect(e.energy.gCo2ePerGpuHour).toBeGreaterThan(0);
    }
    // Only Vast.ai's market, whose hosts may be anywhere (country ZZ), has no grid to read.
    expect([...unknown.keys()]).toEqual([UNKNOWN_PLACE]);
    // An A10 GPU-hour at Azure Sweden Central: 0.15 kW × 1.17 (Azure's fleet PUE) × 20 g (zone SE-SE3) = 0.1755 × 20 = 3.51 g
    const a10 = content.offers.find((o) => o.gpuSlug === 'a10-24gb' && o.regionCode === 'azure:swedencentral');
    const e = outcome(defined(a10, 'an A10 in azure:swedencentral'));
    if (e.kind !== 'OK') throw new Error('expected figures');
    expect(e.energy.gCo2ePerGpuHour).toBeCloseTo(3.51, 8);
    expect(e.energy.tdpWatts).toMatchObject({ basis: 'OWN', subject: 'a10-24gb', value: 150, year: 2025 });
  });

  it('every region with offers has a grid figure; the US regions whose grid is known have their own, not the US average', () => {
    for (const code of new Set(content.offers.map((o) => o.regionCode))) {
      if (code === UNKNOWN_PLACE) expect(index.gridIntensity(code, 'ZZ')).toBeNull();
      else expect([code, index.gridIntensity(code, defined(country.get(code), code))?.value]).toEqual([code, expect.any(Number)]);
    }
    const own = (code: string) => index.gridIntensity(code, 'US');
    for (const code of [
      'aws:us-east-1',
      'aws:us-east-2',
      'aws:us-west-2',
      'azure:eastus',
      'azure:eastus2',
      'azure:southcentralus',
      'azure:westus3',
      'coreweave:us-east-04',
      'runpod:us-tx-3',
    ]) {
      expect([code, own(code)?.basis]).toEqual([code, 'OWN']);
    }
    // AWS Oregon: the Green Software Foundation maps us-west-2 to Bonneville (US-NW-BPAT), whose 2025 average in
    // co2.js's yearly_2025.js is 129 g, under a third of the US average of 414 (Electricity Maps' own mapping, PACW, is 204).
    expect(own('aws:us-west-2')).toMatchObject({ value: 129, gridSource: 'ELECTRICITY_MAPS', year: 2025, note: expect.stringContaining('US-NW-BPAT') });
    expect(index.gridIntensity('aws:us-west-2', 'US')?.value).toBeLessThan(index.gridIntensity('nowhere', 'US')?.value ?? 0);
  });

  it('hand-computed: H100 SXM in AWS Oregon 0.7 kW × 1.14 × 129 = 102.942 g; GH200 at Lambda 1 kW × 1.58 (default, flagged) × 414 = 654.12 g', () => {
    const offer = (region: string, gpu: string) =>
      defined(
        content.offers.find((o) => o.regionCode === region && o.gpuSlug === gpu),
        `${gpu} in ${region}`,
      );
    const oregon = outcome(offer('aws:us-west-2', 'h100-sxm-80gb'));
    const gh200 = outcome(offer('lambda:us-east-1', 'gh200-96gb'));
    if (oregon.kind !== 'OK' || gh200.kind !== 'OK') throw new Error('expected figures');
    // 0.7 × 1.14 = 0.798 kWh; 0.798 × 129 = 0.798 × 100 + 0.798 × 29 = 79.8 + 23.142 = 102.942 g
    expect(oregon.energy.gCo2ePerGpuHour).toBeCloseTo(102.942, 8);
    expect(gh200.energy.gCo2ePerGpuHour).toBeCloseTo(654.12, 8);
    expect(gh200.energy.pue).toMatchObject({ basis: 'DEFAULT', value: 1.58, subject: 'default' });
    expect(gh200.energy.gridIntensity).toMatchObject({ basis: 'COUNTRY_FALLBACK', subject: 'US', value: 414 });
  });

  it('a provider that publishes a PUE has it applied (its site’s, else its fleet’s); the others take the default, flagged DEFAULT', () => {
    const pue = (o: { gpuSlug: string; providerSlug: string; regionCode: string }) => {
      const e = outcome(o);
      return e.kind === 'OK' ? `${e.energy.pue.basis} ${e.energy.pue.value}` : null;
    };
    const byProvider = new Map<string, Set<string | null>>();
    for (const o of content.offers) byProvider.set(o.providerSlug, (byProvider.get(o.providerSlug) ?? new Set()).add(pue(o)));
    const seen = Object.fromEntries([...byProvider].map(([p, s]) => [p, [...s].filter((x) => x !== null).sort()]));
    expect(seen).toEqual({
      aws: ['PROVIDER_FALLBACK 1.14'],
      gcp: ['PROVIDER_FALLBACK 1.09'],
      azure: ['PROVIDER_FALLBACK 1.17'],
      scaleway: ['OWN 1.16', 'OWN 1.45'],
      coreweave: ['DEFAULT 1.58'],
      crusoe: ['DEFAULT 1.58'],
      gmi: ['DEFAULT 1.58'],
      hetzner: ['DEFAULT 1.58'],
      lambda: ['DEFAULT 1.58'],
      nebius: ['DEFAULT 1.58'],
      ovhcloud: ['DEFAULT 1.58'],
      runpod: ['DEFAULT 1.58'],
      together: ['DEFAULT 1.58'],
      hyperstack: ['DEFAULT 1.58'],
      oracle: ['DEFAULT 1.58'],
      'runpod-community': ['DEFAULT 1.58'],
      seeweb: ['DEFAULT 1.58'],
      stackit: ['DEFAULT 1.58'],
      verda: ['DEFAULT 1.58'],
      // No figure at all: its hosts' country is unknown (ZZ), so there is no grid to apply a PUE to.
      vastai: [],
    });
  });
});

/** The bundled catalog as the import assembles it (data/catalog and its offers). */
function bundled(): CatalogContent {
  const files = ['data/catalog', 'data/catalog/offers'].flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => ({ path: `${dir}/${f}`, text: readFileSync(`${dir}/${f}`, 'utf8') })),
  );
  const { content, errors } = assembleCatalog({ parsed: parseCatalogFiles(files), inherited: null });
  expect(errors).toEqual([]);
  return defined(content, 'bundled catalog');
}
