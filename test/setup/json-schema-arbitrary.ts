// fast-check arbitraries from JSON Schema (2020-12, as openapi.json 3.1 writes it), for the
// schema-driven fuzzer (test/schema-fuzz.e2e-spec.ts):
// - validArbitrary: values inside the declared constraints (type, enum, const, bounds, lengths,
//   pattern, items, required, oneOf/anyOf/allOf/not, dependentRequired/dependentSchemas,
//   additionalProperties), filtered through a standard validator (ajv) so that "valid" means what
//   the schema says, whatever the generator could not foresee;
// - mutationArbitrary: one change to a valid value (a required property dropped, a wrong type, a
//   number out of range, a string or list too long or short, a broken pattern, a bad enum member,
//   null, an unknown property). Whether the result is still valid is the validator's call, not
//   the mutation's: an unknown property is invalid only where additionalProperties is false, so
//   the fuzzer grows stricter by itself as the schemas do.
import fc from 'fast-check';

export type Schema = { [key: string]: unknown };
export type Path = (string | number)[];

export interface Hint {
  /** The property (or parameter) name the value is for; for list items, the list's name. */
  name: string | undefined;
  schema: Schema;
  path: Path;
  /** The document the schema's `$ref`s point into. */
  root: unknown;
}

export interface SchemaContext {
  /** The document that `$ref`s point into. */
  root: unknown;
  /** Values to use instead of the schema's own (identifiers read from the service); undefined: from the schema. */
  hint?: (h: Hint) => fc.Arbitrary<unknown> | undefined;
}

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

function lookup(root: unknown, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported: ${ref}`);
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = isSchema(node) ? node[key] : undefined;
  }
  if (!isSchema(node)) throw new Error(`unresolved $ref ${ref}`);
  return node;
}

const numberKeys = { minimum: Math.max, exclusiveMinimum: Math.max, maximum: Math.min, exclusiveMaximum: Math.min } as const;
const lengthKeys = {
  minLength: Math.max,
  minItems: Math.max,
  minProperties: Math.max,
  maxLength: Math.min,
  maxItems: Math.min,
  maxProperties: Math.min,
} as const;

const notParts = (not: unknown): unknown[] => (isSchema(not) && Array.isArray(not.anyOf) && Object.keys(not).length === 1 ? not.anyOf : [not]);

/** Both schemas at once (allOf), as one schema: the stricter bound wins, required and properties add up. */
function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a, ...b };
  for (const [key, pick] of Object.entries({ ...numberKeys, ...lengthKeys })) {
    if (typeof a[key] === 'number' && typeof b[key] === 'number') out[key] = pick(a[key], b[key]);
  }
  if (Array.isArray(a.required) || Array.isArray(b.required))
    out.required = [...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])])];
  if (isSchema(a.properties) && isSchema(b.properties)) {
    const props: Schema = { ...a.properties };
    for (const [k, v] of Object.entries(b.properties)) props[k] = isSchema(props[k]) && isSchema(v) ? { allOf: [props[k], v] } : v;
    out.properties = props;
  }
  if (Array.isArray(a.enum) && Array.isArray(b.enum)) out.enum = (a.enum as unknown[]).filter((x) => (b.enum as unknown[]).includes(x));
  // not A and not B is not (A or B); two oneOf or anyOf cannot be merged: the first stays (the validator has the last word).
  if (a.not !== undefined && b.not !== undefined) out.not = { anyOf: [...notParts(a.not), ...notParts(b.not)] };
  for (const key of ['oneOf', 'anyOf'] as const) if (a[key] !== undefined && b[key] !== undefined) out[key] = a[key];
  return out;
}

/** The schema with its $ref and allOf resolved into one object (OpenAPI 3.1 allows keywords next to $ref). */
export function normalize(schema: unknown, ctx: SchemaContext): Schema {
  if (schema === true || schema === undefined) return {};
  if (!isSchema(schema)) throw new Error(`not a schema: ${JSON.stringify(schema)}`);
  let s = schema;
  if (typeof s.$ref === 'string') {
    const { $ref, ...rest } = s;
    s = merge(normalize(lookup(ctx.root, $ref), ctx), rest);
  }
  if (Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    s = (allOf as unknown[]).reduce<Schema>((acc, part) => merge(acc, normalize(part, ctx)), rest);
  }
  return s;
}

const typesOf = (s: Schema): string[] => {
  if (Array.isArray(s.type)) return s.type as string[];
  if (typeof s.type === 'string') return [s.type];
  if (s.properties !== undefined || s.required !== undefined) return ['object'];
  if (s.items !== undefined) return ['array'];
  return [];
};

/**
 * The keys a schema requires when that is all it says: `{required}`, or `{required, properties}`
 * whose properties only name them (any value), as linters ask of a schema inside oneOf or not.
 */
function requiredOnly(p: Schema): string[] | undefined {
  if (!Array.isArray(p.required) || Object.keys(p).some((k) => k !== 'required' && k !== 'properties')) return undefined;
  const named =
    p.properties === undefined || (isSchema(p.properties) && Object.values(p.properties).every((v) => v === true || (isSchema(v) && !Object.keys(v).length)));
  return named ? (p.required as string[]) : undefined;
}

/** Keys a schema forbids: `not: {required}` and `not: {anyOf: [{required}...]}` (each key of a bare `required`; a named one, if alone). */
function forbiddenKeys(s: Schema): string[] {
  const not = s.not;
  if (!isSchema(not)) return [];
  const parts = Array.isArray(not.anyOf) ? (not.anyOf as Schema[]) : [not];
  return parts.flatMap((p) => {
    const keys = requiredOnly(p);
    return keys && (p.properties === undefined || keys.length === 1) ? keys : [];
  });
}

// One code point per unit (so that lengths count as JSON Schema counts them): mostly printable
// ASCII, some letters outside it, whitespace, an emoji outside the BMP, and NUL.
const char = fc.oneof(
  { weight: 12, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom('é', 'ß', 'Ω', '中', 'ı', '\u00a0', '\u200b', '💥', ' ', '\t', '\n', '\u0000', '%', '/', '?', '#', '&', '+') },
);

/** RFC 3339 date-times: mostly around the bundled catalog's versions, now and then any year JSON Schema allows. */
const dateTime: fc.Arbitrary<string> = fc
  .record({
    date: fc.oneof(
      { weight: 4, arbitrary: fc.date({ min: new Date('2025-06-01T00:00:00Z'), max: new Date('2027-06-01T00:00:00Z'), noInvalidDate: true }) },
      { weight: 1, arbitrary: fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }) },
    ),
    offsetMinutes: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }) }),
    fraction: fc.oneof(
      fc.constant(''),
      fc.integer({ min: 1, max: 9 }).map((n) => '.' + '123456789'.slice(0, n)),
    ),
    zulu: fc.constantFrom('Z', '+00:00'),
  })
  .map(({ date, offsetMinutes, fraction, zulu }) => {
    const local = new Date(date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19);
    if (offsetMinutes === 0) return `${local}${fraction}${zulu}`;
    const abs = Math.abs(offsetMinutes);
    return `${local}${fraction}${offsetMinutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  })
  // Years before 1000 and after 9999 do not fit four digits once shifted by an offset.
  .filter((s) => /^\d{4}-/.test(s));

function integerArbitrary(s: Schema): fc.Arbitrary<number> {
  let min = typeof s.minimum === 'number' ? Math.ceil(s.minimum) : -(2 ** 31);
  let max = typeof s.maximum === 'number' ? Math.floor(s.maximum) : 2 ** 31 - 1;
  if (typeof s.exclusiveMinimum === 'number') min = Math.max(min, Math.floor(s.exclusiveMinimum) + 1);
  if (typeof s.exclusiveMaximum === 'number') max = Math.min(max, Math.ceil(s.exclusiveMaximum) - 1);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
    // Small values are the ones most answers can serve; the whole range is there too.
    { weight: 3, arbitrary: fc.integer({ min, max: Math.min(max, min + 16) }) },
    { weight: 2, arbitrary: fc.integer({ min, max }) },
  );
}

function numberArbitrary(s: Schema): fc.Arbitrary<number> {
  const minExcluded = typeof s.exclusiveMinimum === 'number';
  const maxExcluded = typeof s.exclusiveMaximum === 'number';
  const min = minExcluded ? (s.exclusiveMinimum as number) : typeof s.minimum === 'number' ? s.minimum : -1e6;
  const max = maxExcluded ? (s.exclusiveMaximum as number) : typeof s.maximum === 'number' ? s.maximum : 1e6;
  const bounds = [...(minExcluded ? [] : [min]), ...(maxExcluded ? [] : [max])];
  const any = fc.double({ min, max, minExcluded, maxExcluded, noNaN: true, noDefaultInfinity: true });
  // A price-like value with two decimals, and a small one near the minimum.
  const nice = fc.integer({ min: 0, max: 10_000 }).map((n) => Math.round((min + ((max - min) * n) / 10_000) * 100) / 100);
  const small = fc.double({ min, max: Math.min(max, min + Math.max(1, (max - min) / 1000)), minExcluded, maxExcluded, noNaN: true, noDefaultInfinity: true });
  return fc.oneof(
    ...(bounds.length ? [{ weight: 1, arbitrary: fc.constantFrom(...bounds) }] : []),
    { weight: 2, arbitrary: nice.filter((n) => (minExcluded ? n > min : n >= min) && (maxExcluded ? n < max : n <= max)) },
    { weight: 2, arbitrary: small },
    { weight: 2, arbitrary: any },
  );
}

function stringArbitrary(s: Schema): fc.Arbitrary<string> {
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
  const maxLength = typeof s.maxLength === 'number' ? s.maxLength : minLength + 40;
  const fits = (v: string) => [...v].length >= minLength && [...v].length <= maxLength;
  if (s.format === 'date-time') return dateTime;
  if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern, 'u')).filter(fits);
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: char, minLength, maxLength: Math.min(maxLength, minLength + 12) }) },
    { weight: 1, arbitrary: fc.string({ unit: char, minLength, maxLength }) },
  );
}

function arrayArbitrary(s: Schema, ctx: SchemaContext, path: Path, name: string | undefined): fc.Arbitrary<unknown[]> {
  const minLength = typeof s.minItems === 'number' ? s.minItems : 0;
  const declaredMax = typeof s.maxItems === 'number' ? s.maxItems : undefined;
  const item = arbitraryFor(s.items, ctx, [...path, '[]'], name);
  const make = (min: number, max: number) =>
    s.uniqueItems === true
      ? fc.uniqueArray(item, { minLength: min, maxLength: max, selector: (v) => JSON.stringify(v) })
      : fc.array(item, { minLength: min, maxLength: max });
  const usual = make(minLength, Math.min(declaredMax ?? minLength + 6, minLength + 6));
  // The declared maximum itself, where it is a list one can send (unique items may not have that many).
  if (declaredMax === undefined || declaredMax <= minLength + 6 || declaredMax > 300 || s.uniqueItems === true) return usual;
  return fc.oneof({ weight: 12, arbitrary: usual }, { weight: 1, arbitrary: make(declaredMax, declaredMax) });
}

/** Optional properties: each one in about 3 of 10 values (fc.subarray's 1 in 2 sends most of them at once). */
const sometimes = fc.oneof({ weight: 7, arbitrary: fc.constant(false) }, { weight: 3, arbitrary: fc.constant(true) });

function objectArbitrary(s: Schema, ctx: SchemaContext, path: Path): fc.Arbitrary<Record<string, unknown>> {
  const props = isSchema(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const forbidden = new Set(forbiddenKeys(s));
  const optional = Object.keys(props).filter((k) => !required.has(k) && !forbidden.has(k));
  const dependentRequired = isSchema(s.dependentRequired) ? (s.dependentRequired as Record<string, string[]>) : {};
  const dependentSchemas = isSchema(s.dependentSchemas) ? (s.dependentSchemas as Record<string, Schema>) : {};
  return fc.tuple(...optional.map(() => sometimes)).chain((picks) => {
    const keys = new Set([...required, ...optional.filter((_, i) => picks[i])]);
    // A present key brings the keys it depends on, and its dependent schema's required ones.
    for (let grew = true; grew;) {
      grew = false;
      for (const k of [...keys]) {
        const more = [
          ...(dependentRequired[k] ?? []),
          ...((isSchema(dependentSchemas[k]) && (normalize(dependentSchemas[k], ctx).required as string[])) || []),
        ];
        for (const m of more) {
          if (keys.has(m) || forbidden.has(m)) continue;
          keys.add(m);
          grew = true;
        }
      }
    }
    const shapes: Record<string, fc.Arbitrary<unknown>> = {};
    for (const k of keys) {
      let prop: unknown = props[k] ?? (isSchema(s.additionalProperties) ? s.additionalProperties : {});
      for (const [dep, extra] of Object.entries(dependentSchemas)) {
        const extraProp = isSchema(extra) ? (normalize(extra, ctx).properties as Schema | undefined)?.[k] : undefined;
        if (keys.has(dep) && extraProp !== undefined) prop = { allOf: [prop, extraProp] };
      }
      shapes[k] = arbitraryFor(prop, ctx, [...path, k], k);
    }
    return fc.record(shapes);
  });
}

/** Values that satisfy the schema (mostly: validArbitrary filters the rest out). */
export function arbitraryFor(schema: unknown, ctx: SchemaContext, path: Path = [], name?: string): fc.Arbitrary<unknown> {
  const s = normalize(schema, ctx);
  const hinted = ctx.hint?.({ name, schema: s, path, root: ctx.root });
  if (hinted) return hinted;
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (Array.isArray(branches)) {
    const { oneOf: _o, anyOf: _a, ...base } = s;
    // "Exactly one of": a branch that only requires some keys excludes the keys the others require.
    const requiredBy = branches.map((b) => requiredOnly(b) ?? []);
    return fc.oneof(
      ...branches.map((b, i) => {
        const others = s.oneOf ? requiredBy.flatMap((keys, j) => (j === i ? [] : keys)).filter((k) => !requiredBy[i]?.includes(k)) : [];
        const branch = merge(base, { ...normalize(b, ctx), ...(others.length ? { not: { anyOf: others.map((k) => ({ required: [k] })) } } : {}) });
        const isNull = typesOf(normalize(b, ctx)).join() === 'null';
        return { weight: isNull ? 1 : 4, arbitrary: arbitraryFor(branch, ctx, path, name) };
      }),
    );
  }
  const types = typesOf(s);
  if (types.length > 1) {
    return fc.oneof(...types.map((t) => ({ weight: t === 'null' ? 1 : 4, arbitrary: arbitraryFor({ ...s, type: t }, ctx, path, name) })));
  }
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArbitrary(s);
    case 'number':
      return numberArbitrary(s);
    case 'string':
      return stringArbitrary(s);
    case 'array':
      return arrayArbitrary(s, ctx, path, name);
    case 'object':
      return objectArbitrary(s, ctx, path);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

// ---- Mutations ---------------------------------------------------------------------------------

export interface Mutation {
  /** What was changed, for reports: "out of range at workload.minReplicas". */
  label: string;
  kind: string;
  path: Path;
  apply: (root: unknown) => unknown;
}

const ABSENT = Symbol('absent');

/** A copy of `root` with the value at `path` replaced by `to(old)` (ABSENT deletes it). */
function replaceAt(root: unknown, path: Path, to: (old: unknown) => unknown): unknown {
  if (path.length === 0) return to(root);
  const copy = structuredClone(root);
  let parent = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const key = path.at(-1) as string | number;
  const next = to(parent[key]);
  if (next === ABSENT) {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else {
    Object.defineProperty(parent, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

const show = (path: Path) => (path.length ? path.join('.') : '(root)');
const WRONG_TYPES: Record<string, unknown[]> = {
  string: [42, true, ['x'], { x: 1 }],
  number: ['12', true, [1], { n: 1 }],
  integer: ['12', true, [1], 1.5],
  boolean: ['true', 1, []],
  array: ['x', { x: 'x' }, 3],
  object: [[], 'x', 7],
};

/** Every mutation that makes sense for the node at `path` (value `value`, schema `schema`), and for the nodes under it. */
export function mutationsOf(
  value: unknown,
  schema: unknown,
  ctx: SchemaContext,
  path: Path = [],
  options: { root: 'any' | 'object' } = { root: 'any' },
): Mutation[] {
  const s = normalize(schema, ctx);
  const branch = Array.isArray(s.oneOf ?? s.anyOf) ? ((s.oneOf ?? s.anyOf) as unknown[]).map((b) => normalize(b, ctx)) : [];
  // A node under a oneOf/anyOf: the branch its value satisfies shape-wise (by type).
  const node = branch.length ? merge(s, branch.find((b) => typesOf(b).includes(jsonType(value))) ?? {}) : s;
  const at = (kind: string, to: (old: unknown) => unknown): Mutation => ({
    kind,
    label: `${kind} at ${show(path)}`,
    path,
    apply: (root) => replaceAt(root, path, to),
  });
  const out: Mutation[] = [];
  const type = jsonType(value);
  if (path.length) out.push(at('null', () => null));
  // A query string or an argument list is an object by construction: only its members can be wrong.
  const fixedShape = path.length === 0 && options.root === 'object';
  if (!fixedShape)
    for (const wrong of WRONG_TYPES[typesOf(node)[0] ?? type] ?? []) out.push(at(`wrong type (${jsonType(wrong)} ${JSON.stringify(wrong)})`, () => wrong));
  if (Array.isArray(node.enum)) out.push(at('bad enum', (old) => (typeof old === 'string' ? `${old.toLowerCase()}_X` : 'NOT_A_MEMBER')));
  if (type === 'number' || type === 'integer') {
    const integer = typesOf(node).includes('integer');
    if (typeof node.minimum === 'number') out.push(at('below minimum', () => (node.minimum as number) - (integer ? 1 : 0.5)));
    if (typeof node.exclusiveMinimum === 'number') out.push(at('below minimum', () => node.exclusiveMinimum));
    if (typeof node.maximum === 'number') out.push(at('above maximum', () => (node.maximum as number) + (integer ? 1 : 0.5)));
    if (typeof node.exclusiveMaximum === 'number') out.push(at('above maximum', () => node.exclusiveMaximum));
    if (integer) out.push(at('not an integer', (old) => (old as number) + 0.5));
  }
  if (type === 'string') {
    if (typeof node.maxLength === 'number') out.push(at('too long', () => 'x'.repeat((node.maxLength as number) + 1)));
    if (typeof node.minLength === 'number' && node.minLength > 0) out.push(at('too short', () => 'x'.repeat((node.minLength as number) - 1)));
    if (typeof node.pattern === 'string')
      out.push(
        at('breaks the pattern', (old) => `${String(old)}!`),
        at('breaks the pattern (leading space)', (old) => ` ${String(old)}`),
      );
    if (node.format === 'date-time')
      out.push(
        at('not a date-time', (old) => String(old).slice(0, 10)),
        at('not a date-time', (old) => String(old).replace(/(Z|[+-]\d\d:\d\d)$/, '')),
      );
  }
  if (Array.isArray(value)) {
    if (typeof node.maxItems === 'number' && node.maxItems < 2000) {
      out.push(
        at('too many items', (old) =>
          Array.from({ length: (node.maxItems as number) + 1 }, (_, i) => (old as unknown[])[i % Math.max(1, (old as unknown[]).length)] ?? 'x'),
        ),
      );
    }
    if (typeof node.minItems === 'number' && node.minItems > 0)
      out.push(at('too few items', (old) => (old as unknown[]).slice(0, (node.minItems as number) - 1)));
    value.slice(0, 3).forEach((item, i) => out.push(...mutationsOf(item, node.items, ctx, [...path, i])));
  }
  if (type === 'object') {
    const obj = value as Record<string, unknown>;
    const props = isSchema(node.properties) ? node.properties : {};
    for (const k of Array.isArray(node.required) ? (node.required as string[]) : []) {
      if (k in obj)
        out.push({
          kind: 'required dropped',
          label: `required dropped at ${show([...path, k])}`,
          path: [...path, k],
          apply: (root) => replaceAt(root, [...path, k], () => ABSENT),
        });
    }
    out.push({
      kind: 'unknown property',
      label: `unknown property at ${show(path)}`,
      path,
      apply: (root) => replaceAt(root, path, (old) => ({ ...(old as object), unexpectedField: 1 })),
    });
    for (const [k, v] of Object.entries(obj)) out.push(...mutationsOf(v, props[k] ?? node.additionalProperties, ctx, [...path, k]));
  }
  return out;
}

export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** A valid value with one mutation applied: the mutated value and what was done. */
export function mutationArbitrary(
  valid: fc.Arbitrary<unknown>,
  schema: unknown,
  ctx: SchemaContext,
): fc.Arbitrary<{ value: unknown; mutation: string; kind: string }> {
  return valid.chain((v) => {
    const mutations = mutationsOf(v, schema, ctx);
    return fc.constantFrom(...mutations).map((m) => ({ value: m.apply(v), mutation: m.label, kind: m.kind }));
  });
}
