// Catalog files are written by hand and by feeds: a row may hold anything in any field. Whatever
// it holds, reading the files answers with errors that name the file, the line and the field,
// never with an exception (a crash would stop an import or a sync with a stack trace instead of a
// place to fix).
import fc from 'fast-check';
import { assembleCatalog, parseCatalogFiles } from './catalog-files.js';

const VALID_OFFER: Record<string, unknown> = {
  provider: 'aws',
  region: 'aws:eu-central-1',
  gpu: 'h100-sxm-80gb',
  gpuCount: '8',
  instanceType: 'p5.48xlarge',
  pricingModel: 'ON_DEMAND',
  pricePerGpuHour: '3.90',
  currency: 'USD',
  priceKind: 'LIST',
  sourceKind: 'PROVIDER_PAGE',
  source: 'https://aws.amazon.com/ec2/pricing/on-demand/',
  observedAt: '2026-03-27',
};

const VALID_FIGURE: Record<string, unknown> = {
  key: 'aws-h100',
  claim: 'AWS H100 on-demand',
  metric: 'PRICE_PER_GPU_HOUR',
  value: '3.90',
  currency: 'USD',
  provider: 'aws',
  gpus: ['h100-sxm-80gb'],
  pricingModel: 'ON_DEMAND',
  source: 'an article',
  publishedOn: '2026-03-27',
};

const VALID_AVAILABILITY: Record<string, unknown> = {
  provider: 'aws',
  instanceType: 'p5.48xlarge',
  regions: ['aws:eu-central-1'],
  listsEveryRegion: true,
  source: 'https://example.test/offerings',
  observedAt: '2026-08-01',
};

/** Values a hand-written or hostile file may put in a field. */
const hostileValue = fc.oneof(
  fc.constantFrom(null, '', 'zz', '-1', '1e400', 'NaN', 'ON_DEMAND', 'RESERVED_1Y', 'SERVERLESS', 'ANNOUNCEMENT', '2026-02-30', '__proto__', 'toString'),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
);

/** A valid row with some of its fields (and maybe an unknown one) replaced by hostile values. */
const hostileRow = (valid: Record<string, unknown>) =>
  fc
    .tuple(
      fc.subarray(Object.keys(valid)),
      fc.array(hostileValue, { minLength: Object.keys(valid).length, maxLength: Object.keys(valid).length }),
      fc.boolean(),
    )
    .map(([fields, values, extra]) => {
      const row: Record<string, unknown> = { ...valid };
      fields.forEach((f, i) => (row[f] = values[i]));
      if (extra) row.unexpected = values[0];
      return row;
    });

describe('catalog files with hostile rows (property)', () => {
  it('answers every row, whatever its fields hold, with errors at a file, a line and a field, and never throws', () => {
    fc.assert(
      fc.property(
        fc.array(hostileRow(VALID_OFFER), { minLength: 1, maxLength: 3 }),
        fc.array(hostileRow(VALID_FIGURE), { maxLength: 2 }),
        fc.array(hostileRow(VALID_AVAILABILITY), { maxLength: 2 }),
        (offers, referenceFigures, availability) => {
          const files = [{ path: 'offers.json', text: JSON.stringify({ offers, referenceFigures, availability }) }];
          const parsed = parseCatalogFiles(files);
          const assembled = assembleCatalog({ parsed, inherited: null, scope: { mode: 'FULL' } });
          for (const e of [...parsed.errors, ...assembled.errors]) {
            expect([e.file, e.line >= 1, typeof e.message]).toEqual(['offers.json', true, 'string']);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('names the field of a price that is not a number, also when it is given per GPU-hour', () => {
    const text = JSON.stringify({ offers: [{ ...VALID_OFFER, pricePerGpuHour: 'zz', pricingModel: 'BOGUS' }] });
    const parsed = parseCatalogFiles([{ path: 'offers.json', text }]);
    expect(parsed.errors.map((e) => e.field).sort()).toEqual(['pricePerGpuHour', 'pricingModel']);
  });
});

describe('catalog sources: only http(s) URLs are links', () => {
  /** One row of `section` in a YAML file, its fields one a line, `source` on line 3. */
  const file = (section: string, row: Record<string, unknown>) => {
    const { source, ...rest } = row;
    const lines = [`${section}:`, `  - ${Object.keys(rest)[0]}: ${JSON.stringify(Object.values(rest)[0])}`, `    source: ${JSON.stringify(source)}`];
    for (const [k, v] of Object.entries(rest).slice(1)) lines.push(`    ${k}: ${JSON.stringify(v)}`);
    return { path: 'data/x.yaml', text: `${lines.join('\n')}\n` };
  };
  const sourceErrors = (section: string, valid: Record<string, unknown>, source: string) =>
    parseCatalogFiles([file(section, { ...valid, source })]).errors.filter((e) => e.field === 'source');

  const notHttp = [
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'ftp://example.org/prices.csv',
    '//example.org/prices',
    'https://',
    'https://example.org/\tprices',
    'example.org/prices',
    'see https://example.org/prices',
  ];

  it.each(notHttp)('refuses offer and availability source %j at its file, line and field', (source) => {
    for (const [section, valid] of [
      ['offers', VALID_OFFER],
      ['availability', VALID_AVAILABILITY],
    ] as const) {
      expect(sourceErrors(section, valid, source)).toEqual([
        expect.objectContaining({ file: 'data/x.yaml', line: 3, field: 'source', message: expect.stringContaining('must be an http:// or https:// URL') }),
      ]);
    }
  });

  it('takes an offer source as a URL alone (the dashboard links it), an availability source with a note after it', () => {
    for (const source of ['https://exa mple.org/prices', 'https://example.org/prices (read 2026-11-30)']) {
      expect(sourceErrors('offers', VALID_OFFER, source)).toEqual([expect.objectContaining({ line: 3, field: 'source' })]);
      expect(sourceErrors('availability', VALID_AVAILABILITY, source)).toEqual([]);
    }
    expect(sourceErrors('availability', VALID_AVAILABILITY, 'https://example.org/regions.csv#L7 (gcloud machine types)')).toEqual([]);
  });

  it.each(['https://aws.amazon.com/ec2/pricing/on-demand/', 'HTTP://example.org/a?b=c#d', 'https://raw.githubusercontent.com/x/y/0123abc/prices.json'])(
    'takes %j as an offer, availability and figure source',
    (source) => {
      for (const [section, valid] of [
        ['offers', VALID_OFFER],
        ['availability', VALID_AVAILABILITY],
        ['referenceFigures', VALID_FIGURE],
      ] as const) {
        expect(sourceErrors(section, valid, source)).toEqual([]);
      }
    },
  );

  it.each(['javascript:alert(1)', 'data:text/html,x', 'java\tscript:alert(1)', '\u0001javascript:alert(1)', 'https:// example.org', 'file:///etc/passwd'])(
    'refuses reference figure source %j',
    (source) => {
      expect(sourceErrors('referenceFigures', VALID_FIGURE, source)).toEqual([
        expect.objectContaining({ line: 3, field: 'source', message: expect.stringContaining('or a document cited by title') }),
      ]);
    },
  );

  it.each(["A1: KI-Inference in der Cloud: GPU-Kosten (2026-03-27): 'AWS H100'", 'NVIDIA H100 datasheet (2023)', 'stas00/ml-engineering, chapter 3'])(
    'takes a citation as a reference figure source: %j',
    (source) => {
      expect(sourceErrors('referenceFigures', VALID_FIGURE, source)).toEqual([]);
    },
  );
});
