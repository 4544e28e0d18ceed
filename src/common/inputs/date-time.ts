// The one reading of a date-time input, REST and GraphQL alike: RFC 3339's `date-time` (what
// OpenAPI's `format: date-time` means), checked against the calendar. JavaScript's Date reads far
// more (a bare year, "12", a date without a time, 2026-02-30 as 2 March), and each of those would
// answer from a version nobody asked for.
import { GraphQLError, GraphQLScalarType, Kind, print } from 'graphql';

const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

export const DATE_TIME_RULE = 'must be an RFC 3339 date-time with a time zone, such as 2026-12-01T00:00:00Z';

const isLeap = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysIn = (year: number, month: number): number => (month === 2 && isLeap(year) ? 29 : (DAYS[month - 1] ?? 0));

/** The instant of an RFC 3339 date-time, or null when the text is not one (or names no real day or time). */
export function parseDateTime(text: string): Date | null {
  const m = RFC_3339.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const [offsetHours, offsetMinutes] = [Number(m[9] ?? 0), Number(m[10] ?? 0)];
  // A leap second (:60) has no JavaScript instant; it is refused rather than moved.
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return null;
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const instant = new Date(text.toUpperCase());
  return Number.isNaN(instant.getTime()) ? null : instant;
}

/** For class-transformer: a date-time string becomes its Date; anything else stays as sent, for IsDate to refuse. */
export function toDateTime(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return parseDateTime(value) ?? value;
}

function refuse(found: string): never {
  throw new GraphQLError(`DateTime ${DATE_TIME_RULE}; found ${found}`, { extensions: { code: 'BAD_USER_INPUT' } });
}

/**
 * GraphQL's DateTime: the same reading as REST. A variable or literal that is not an RFC 3339
 * string (a number, a date without a time, 30 February) is bad input, never a Date of 1970.
 */
export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description: 'An RFC 3339 date-time with a time zone, such as 2026-12-01T00:00:00Z.',
  serialize: (value) => {
    if (value instanceof Date) return value.toISOString();
    if (typeof value === 'string' && parseDateTime(value)) return value;
    throw new GraphQLError('DateTime cannot represent this value');
  },
  parseValue: (value) => (typeof value === 'string' && parseDateTime(value)) || refuse(JSON.stringify(value) ?? String(value)),
  parseLiteral: (ast) => (ast.kind === Kind.STRING && parseDateTime(ast.value)) || refuse(print(ast)),
});
