import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { csvField, toCsv } from './csv';

describe('toCsv', () => {
  it('quotes what RFC 4180 says to quote and defuses formulas, as the API does', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('@cmd')).toBe("'@cmd");
    expect(csvField('-1.5')).toBe('-1.5');
    expect(toCsv(['A', 'B'], [['x', 1]])).toBe('A,B\r\nx,1\r\n');
  });

  it('is read back by an independent CSV parser as the rows it was given (property)', () => {
    const cell = fc.string().filter((s) => !/^[=+\-@\t\r]/.test(s));
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { maxLength: 10 }), (rows) => {
        const read: string[][] = parse(toCsv(['h1', 'h2'], rows), { relaxQuotes: false });
        expect(read).toEqual([['h1', 'h2'], ...rows]);
      }),
    );
  });
});
