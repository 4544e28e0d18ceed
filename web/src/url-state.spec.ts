import fc from 'fast-check';
import { fromParams, hashOf, itemsToRows, parseHash, rowsToItems, toParams } from './url-state';
import { ESTIMATE_DEFAULTS, OFFER_DEFAULTS } from './forms';

const DEFAULTS = { model: 'llama-3-8b', gpus: [] as string[], profile: [1, 2, 3], explain: false, peak: '10' };
const item = fc.string({ minLength: 1 }).filter((s) => !s.includes(','));

describe('url-state', () => {
  it('reads back every form it wrote (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          model: fc.string(),
          gpus: fc.array(item, { maxLength: 5 }),
          profile: fc.array(
            fc.double({ min: 0, max: 1e6, noNaN: true }).map((x) => x + 0),
            { minLength: 1, maxLength: 24 },
          ),
          explain: fc.boolean(),
          peak: fc.string(),
        }),
        (form) => {
          const params = new URLSearchParams(toParams(form, DEFAULTS).toString());
          expect(fromParams(params, DEFAULTS)).toEqual(form);
        },
      ),
    );
  });

  it('reads back any text, commas and percent signs included (property)', () => {
    fc.assert(
      fc.property(fc.record({ gpus: fc.array(fc.string({ minLength: 1 }), { maxLength: 5 }), model: fc.string() }), (partial) => {
        const form = { ...DEFAULTS, ...partial };
        expect(fromParams(new URLSearchParams(toParams(form, DEFAULTS).toString()), DEFAULTS)).toEqual(form);
      }),
    );
  });

  it('reads back rows of a table (discounts, measured throughput) through the list items (property)', () => {
    const keys = ['provider', 'percent', 'note'] as const;
    const row = fc.record({ provider: fc.string(), percent: fc.string(), note: fc.string() });
    // A row of empty parts is ":" and not "": it survives as a list item.
    fc.assert(
      fc.property(fc.array(row, { maxLength: 6 }), (rows) => {
        const defaults = { rows: [] as string[] };
        const params = new URLSearchParams(toParams({ rows: rowsToItems(rows, keys) }, defaults).toString());
        expect(itemsToRows(fromParams(params, defaults).rows, keys)).toEqual(rows);
      }),
    );
    expect(rowsToItems([{ provider: 'aws', percent: '15' }], ['provider', 'percent'])).toEqual(['aws:15']);
  });

  const text = fc.string();
  const list = fc.array(fc.string({ minLength: 1 }), { maxLength: 4 });
  const rows = <K extends string>(keys: readonly K[]) =>
    fc
      .array(fc.record(Object.fromEntries(keys.map((k) => [k, text])) as Record<K, fc.Arbitrary<string>>), { maxLength: 4 })
      .map((r) => rowsToItems(r as Record<K, string>[], keys));

  it('reads back every Offers form, policy fields and discounts included (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          certifications: text,
          excludeProviders: text,
          regions: text,
          maxPriceAge: text,
          partialAdequacy: fc.boolean(),
          discounts: rows(['provider', 'percent']),
          providers: list,
          countries: text,
        }),
        (partial) => {
          const form = { ...OFFER_DEFAULTS, ...partial };
          expect(fromParams(new URLSearchParams(toParams(form, OFFER_DEFAULTS).toString()), OFFER_DEFAULTS)).toEqual(form);
        },
      ),
    );
  });

  it('reads back every Estimate form, discounts, API price, measured throughput and rent or buy included (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          discounts: rows(['provider', 'percent']),
          apiPrice: text,
          measured: rows(['gpu', 'precision', 'tokens', 'requests']),
          gpus: list,
          version: text,
          site: text,
          serverPrice: text,
          gpusPerServer: text,
          electricity: text,
          colocation: text,
          depreciationYears: text,
          costOfCapital: text,
          operationsShare: text,
        }),
        (partial) => {
          const form = { ...ESTIMATE_DEFAULTS, ...partial };
          expect(fromParams(new URLSearchParams(toParams(form, ESTIMATE_DEFAULTS).toString()), ESTIMATE_DEFAULTS)).toEqual(form);
        },
      ),
    );
  });

  it('writes only what differs from the defaults', () => {
    expect(toParams(DEFAULTS, DEFAULTS).toString()).toBe('');
    expect(toParams({ ...DEFAULTS, gpus: ['l4-24gb', 't4-16gb'], explain: true }, DEFAULTS).toString()).toBe('gpus=l4-24gb%2Ct4-16gb&explain=1');
  });

  it('takes the defaults for what the URL does not name, and ignores names it does not know', () => {
    expect(fromParams(new URLSearchParams('peak=400&unknown=1'), DEFAULTS)).toEqual({ ...DEFAULTS, peak: '400' });
  });

  it('splits a hash route into view and parameters and back', () => {
    const [view, params] = parseHash('#/estimate?model=mistral-7b&explain=1');
    expect([view, params.get('model'), params.get('explain')]).toEqual(['estimate', 'mistral-7b', '1']);
    expect(hashOf(view, params)).toBe('#/estimate?model=mistral-7b&explain=1');
    expect(parseHash('')).toEqual(['', new URLSearchParams()]);
  });
});
