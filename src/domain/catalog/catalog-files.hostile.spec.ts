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
