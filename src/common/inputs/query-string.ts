// How a REST query string spells what a JSON body or GraphQL spells with types: numbers, booleans
// and lists arrive as text. QueryField (input-field.ts) adds these to a field's rules, and the
// fast query reader (fast-query.ts) applies the same functions.
// QueryNumber and QueryBoolean leave a value that is not text alone, so GraphQL's typed values
// pass through them unchanged; CommaList splits text on commas, so a class both transports read
// uses it only where a value cannot hold a comma (an enum list).
import { Transform } from 'class-transformer';

/** REST lists are comma-separated (`gpu=h100-sxm-80gb,a100-sxm-80gb`); repeated params work too. */
export function commaList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(','));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** `true`/`false`/`1`/`0` query values; anything else stays as is and fails @IsBoolean. */
export function queryBoolean(value: unknown): unknown {
  return value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;
}

/**
 * A number from a query string, read strictly: plain decimal digits with an optional sign and
 * fraction. `0x10`, `1e3`, ` 5`, `Infinity` or an empty value stay as they are and fail the number
 * rules (Number() would read `0x10` as 16).
 */
export function queryNumber(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

export const CommaList = (): PropertyDecorator => Transform(({ value }: { value: unknown }) => commaList(value));
export const QueryBoolean = (): PropertyDecorator => Transform(({ value }: { value: unknown }) => queryBoolean(value));
export const QueryNumber = (): PropertyDecorator => Transform(({ value }: { value: unknown }) => queryNumber(value));
