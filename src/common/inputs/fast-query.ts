// The common case of a REST query string, read without class-transformer and class-validator.
//
// A query class is flat, and each of its QueryField properties is described by a spec
// (input-field.ts). For a query whose every value passes its spec, the ValidationPipe would build
// the class instance field by field through class-transformer, then walk every rule of every
// field through class-validator: 60-110 µs of main-thread CPU per distinct read, a fifth to a
// third of the request's (BENCHMARKS.md, "Query strings read from specs"). readQueryFast applies
// the same query-string parsing and the same checks directly and builds the same instance.
// Anything it does not know for certain to be valid (a failed check, an unknown or non-QueryField
// parameter, text outside printable ASCII where a length counts, a required field missing) makes
// it answer undefined, and the ValidationPipe reads the query as before and writes the errors: it
// only ever decides "valid".
// fast-query.spec.ts holds it to the ValidationPipe on random queries.
import { getMetadataStorage } from 'class-validator';
import type { FieldSpec, ItemSpec } from './input-field.js';
import { commaList, queryBoolean, queryNumber } from './query-string.js';
import { parseDateTime } from './date-time.js';

interface Remembered {
  spec: FieldSpec;
  /** How many class-validator rules QueryField gave the property: more means someone added one. */
  rules: number;
  pattern?: RegExp;
}

const byPrototype = new WeakMap<object, Map<string, Remembered>>();

/** Called by QueryField after it has applied its decorators. */
export function rememberQueryField(prototype: object, key: string, spec: FieldSpec, rules: number, pattern?: RegExp): void {
  let fields = byPrototype.get(prototype);
  if (!fields) byPrototype.set(prototype, (fields = new Map<string, Remembered>()));
  fields.set(key, { spec, rules, pattern });
}

/** Rules class-validator holds for a property of a class (its own and inherited). */
export function ruleCount(type: abstract new () => unknown, key: string): number {
  return getMetadataStorage()
    .getTargetValidationMetadatas(type, '', true, false)
    .filter((m) => m.propertyName === key).length;
}

interface Reader {
  /** The parameters it reads itself. */
  fields: Map<string, Remembered>;
  /** Those of them a query must send. */
  required: string[];
}

type QueryType = new () => object;
const readers = new WeakMap<QueryType, Reader | null>();

function readerFor(type: QueryType): Reader | null {
  const known = readers.get(type);
  if (known !== undefined) return known;
  const reader = buildReader(type);
  readers.set(type, reader);
  return reader;
}

function buildReader(type: QueryType): Reader | null {
  const fields = new Map<string, Remembered>();
  for (let proto: object | null = type.prototype as object; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const [key, remembered] of byPrototype.get(proto) ?? []) if (!fields.has(key)) fields.set(key, remembered);
  }
  if (!fields.size) return null;
  const rulesOf = new Map<string, string[]>();
  for (const m of getMetadataStorage().getTargetValidationMetadatas(type, '', true, false)) {
    rulesOf.set(m.propertyName, [...(rulesOf.get(m.propertyName) ?? []), m.name ?? m.type]);
  }
  for (const [property, rules] of rulesOf) {
    const field = fields.get(property);
    // A rule QueryField did not write: that property is left to the ValidationPipe.
    if (field && rules.length === field.rules) continue;
    fields.delete(property);
    // Any property it leaves to the pipe must be optional, so that leaving it out is valid; a query
    // that sends it goes to the pipe.
    if (!rules.includes('isOptional')) return null;
  }
  return { fields, required: [...fields].filter(([, field]) => field.spec.required).map(([key]) => key) };
}

/** The instance the ValidationPipe would return for this query, or undefined when it must decide. */
export function readQueryFast(type: QueryType, query: unknown): object | undefined {
  if (query === null || typeof query !== 'object' || Array.isArray(query)) return undefined;
  const reader = readerFor(type);
  if (!reader) return undefined;
  const values: [string, unknown][] = [];
  for (const key of Object.keys(query)) {
    const field = reader.fields.get(key);
    if (!field) return undefined;
    const value = read(field, (query as Record<string, unknown>)[key]);
    if (value === INVALID) return undefined;
    values.push([key, value]);
  }
  for (const key of reader.required) if (!Object.hasOwn(query, key)) return undefined;
  const instance = new type() as Record<string, unknown>;
  for (const [key, value] of values) instance[key] = value;
  return instance;
}

const INVALID = Symbol('invalid');

/** The parsed value of one parameter, or INVALID. Mirrors QueryField's parsing and rules. */
function read(field: Remembered, raw: unknown): unknown {
  const { spec } = field;
  // IsOptional: a missing value skips every rule (a query string never sends null).
  if (raw === undefined || raw === null) return undefined;
  switch (spec.kind) {
    case 'boolean': {
      const value = queryBoolean(raw);
      return typeof value === 'boolean' ? value : INVALID;
    }
    case 'dateTime': {
      // The field's Transform (toDateTime), then IsDate.
      return (typeof raw === 'string' && parseDateTime(raw)) || INVALID;
    }
    case 'list': {
      const value = commaList(raw);
      if (!value) return INVALID;
      if (spec.minItems !== undefined && value.length < spec.minItems) return INVALID;
      if (spec.maxItems !== undefined && value.length > spec.maxItems) return INVALID;
      const items: unknown[] = [];
      for (const text of value) {
        const item = readItem(spec.of, text, field.pattern);
        if (item === INVALID) return INVALID;
        items.push(item);
      }
      return items;
    }
    case 'int':
    case 'number':
      return readItem(spec, queryNumber(raw), field.pattern);
    default:
      return readItem(spec, raw, field.pattern);
  }
}

// Printable ASCII: class-validator's Length counts a surrogate pair or a variation selector as one
// character, and text with neither is all that is decided here.
const PLAIN = /^[\x20-\x7e]*$/;

function readItem(spec: ItemSpec, value: unknown, pattern: RegExp | undefined): unknown {
  switch (spec.kind) {
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) && value >= spec.min && value <= spec.max ? value : INVALID;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && value >= spec.min && (spec.exclusiveMax ? value < spec.max : value <= spec.max)
        ? value
        : INVALID;
    case 'decimal':
      return typeof value === 'string' && pattern !== undefined && pattern.test(value) ? value : INVALID;
    case 'string': {
      if (typeof value !== 'string' || !PLAIN.test(value)) return INVALID;
      if (spec.minLength !== undefined && value.length < spec.minLength) return INVALID;
      if (spec.maxLength !== undefined && value.length > spec.maxLength) return INVALID;
      if (!spec.pattern) return value;
      // A global or sticky expression's test() depends on its last match; class-validator's does not.
      return !spec.pattern.global && !spec.pattern.sticky && spec.pattern.test(value) ? value : INVALID;
    }
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value) ? value : INVALID;
    case 'object':
      return INVALID;
  }
}
