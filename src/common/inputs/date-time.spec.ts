import fc from 'fast-check';
import { graphql, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { DateTimeScalar, parseDateTime } from './date-time.js';

describe(parseDateTime.name, () => {
  it.each([
    ['2026-12-01T00:00:00Z', '2026-12-01T00:00:00.000Z'],
    ['2026-12-01t10:20:30z', '2026-12-01T10:20:30.000Z'],
    ['2026-12-01T10:20:30.5+02:00', '2026-12-01T08:20:30.500Z'],
    ['2024-02-29T23:59:59-05:30', '2024-03-01T05:29:59.000Z'],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'],
    ['2026-12-01T00:00:00.123456789Z', '2026-12-01T00:00:00.123Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(parseDateTime(text)?.toISOString()).toBe(iso);
  });

  it.each([
    ['2026-02-30T00:00:00Z', 'a day February does not have'],
    ['2026-02-29T00:00:00Z', '29 February outside a leap year'],
    ['1900-02-29T00:00:00Z', '29 February of a century that is no leap year'],
    ['2026-04-31T00:00:00Z', '31 April'],
    ['2026-13-01T00:00:00Z', 'month 13'],
    ['2026-12-01T24:00:00Z', 'hour 24'],
    ['2026-12-31T23:59:60Z', 'a leap second'],
    ['2026-12-01T00:00:00+24:00', 'an offset of 24 hours'],
    ['2026-12-01', 'a date without a time'],
    ['2026-12-01T00:00:00', 'a time without a zone'],
    ['0', 'a number'],
    ['12', 'a bare number'],
    ['2026', 'a year'],
    ['Tue, 01 Dec 2026 00:00:00 GMT', 'an HTTP date'],
    [' 2026-12-01T00:00:00Z', 'leading space'],
    ['2026-12-01T00:00:00Z\n', 'a trailing newline'],
  ])('refuses %s (%s)', (text) => {
    expect(parseDateTime(text)).toBeNull();
  });

  it('reads back every instant it writes, and refuses every day past the end of its month', () => {
    const instants = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });
    fc.assert(fc.property(instants, (d) => expect(parseDateTime(d.toISOString())?.getTime()).toBe(d.getTime())));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 3 }), (year, month, extra) => {
        // The month's length by Date's own arithmetic: day 0 of the next month is its last day.
        const last = new Date(Date.UTC(2000, month, 0));
        last.setUTCFullYear(year, month, 0);
        const day = last.getUTCDate() + extra;
        const text = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T00:00:00Z`;
        expect(parseDateTime(text)).toBeNull();
      }),
    );
  });
});

describe('DateTimeScalar', () => {
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        at: { type: GraphQLString, args: { when: { type: DateTimeScalar } }, resolve: (_, { when }: { when?: Date }) => when?.toISOString() ?? 'none' },
      },
    }),
  });

  it('reads literals and variables as REST does, and calls anything else bad user input', async () => {
    expect((await graphql({ schema, source: '{ at(when: "2026-12-01T10:00:00+01:00") }' })).data).toEqual({ at: '2026-12-01T09:00:00.000Z' });
    const variable = await graphql({ schema, source: 'query($w: DateTime) { at(when: $w) }', variableValues: { w: 5 } });
    expect(variable.errors?.[0]?.message).toMatch(/got invalid value 5; DateTime must be an RFC 3339 date-time/);
    expect(variable.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
    const literal = await graphql({ schema, source: '{ at(when: 5) }' });
    expect(literal.errors?.[0]?.message).toMatch(/DateTime must be an RFC 3339 date-time .* found 5/);
    const badDay = await graphql({ schema, source: '{ at(when: "2026-02-30T00:00:00Z") }' });
    expect(badDay.errors?.[0]?.message).toMatch(/found "2026-02-30T00:00:00Z"/);
  });
});
