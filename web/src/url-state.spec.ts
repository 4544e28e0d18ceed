import fc from 'fast-check';
import { fromParams, hashOf, parseHash, toParams } from './url-state';

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
