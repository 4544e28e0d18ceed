import fc from 'fast-check';
import { jsonValueCount, sampleMarks } from './json-body.js';

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

describe(sampleMarks.name, () => {
  it('counts "[" and \\n escapes inside strings only', () => {
    // By hand: the CSV holds 3 escaped newlines; the Prometheus text 3 "[" (result, values, one sample); the structure's own "[" is outside strings.
    const body = Buffer.from(JSON.stringify({ list: [1, 2], csv: '1,1\n2,2\n3,3\n', prometheus: '{"result":[{"values":[[1,"2"]]}]}' }));
    expect(sampleMarks(body)).toBe(3 + 3);
    expect(sampleMarks(Buffer.from('{"a":"\\\\n"}'))).toBe(0); // an escaped backslash followed by n is not a newline
  });
});
