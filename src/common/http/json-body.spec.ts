import fc from 'fast-check';
import { jsonValueCount } from './json-body.js';

/** What the count should be, from the value rather than its text: each object and list, and each entry after its first. */
function countFromValue(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, value.length - 1) + value.reduce((n: number, v) => n + countFromValue(v), 0);
  if (value !== null && typeof value === 'object') {
    const entries = Object.values(value);
    return 1 + Math.max(0, entries.length - 1) + entries.reduce((n: number, v) => n + countFromValue(v), 0);
  }
  return 0;
}

describe(jsonValueCount.name, () => {
  it('counts objects, lists and entries, never the characters inside strings, for any JSON', () => {
    // Strings full of the counted characters, quotes and backslashes: only the structure counts.
    const tricky = fc.string({ unit: fc.constantFrom('{', '[', ',', '"', '\\', 'a', '}', ']', ':', '\u00e9') });
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, tricky, fc.integer(), fc.boolean(), fc.constant(null), tie('list'), tie('object')),
      list: fc.array(tie('value'), { maxLength: 5 }),
      object: fc.dictionary(tricky, tie('value'), { maxKeys: 5 }),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const text = Buffer.from(JSON.stringify(value));
        expect(jsonValueCount(text, Infinity)).toBe(countFromValue(value));
      }),
      { numRuns: 500 },
    );
  });

  it('stops once past the limit', () => {
    const body = Buffer.from(JSON.stringify(new Array(100_000).fill(0)));
    expect(jsonValueCount(body, 10)).toBe(11);
    expect(jsonValueCount(body, Infinity)).toBe(100_000);
  });
});
