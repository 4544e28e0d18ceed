import fc from 'fast-check';
import { utcMidnight } from './iso-date.js';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe(utcMidnight.name, () => {
  it('answers what Date.parse answers for midnight UTC of any YYYY-MM-DD, valid or not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 39 }), (y, m, d) => {
        const iso = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
        expect(utcMidnight(iso)).toBe(Date.parse(`${iso}T00:00:00Z`));
      }),
      { numRuns: 2000 },
    );
  });

  it('answers what Date.parse answers for text of other shapes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        expect(utcMidnight(text)).toBe(Date.parse(`${text}T00:00:00Z`));
      }),
    );
    for (const text of ['2026-02-29', '2024-02-29', '1900-02-29', '2000-02-29', '2026-1-01', '2026-01-1 ', '0099-01-01', '+02026-01-01', '2026/01/01']) {
      expect(utcMidnight(text)).toBe(Date.parse(`${text}T00:00:00Z`));
    }
  });

  it('reads a plain date by its digits', () => {
    expect(utcMidnight('2026-12-01')).toBe(Date.UTC(2026, 11, 1));
    expect(utcMidnight('1970-01-01')).toBe(0);
  });
});
