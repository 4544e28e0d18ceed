// GraphQL requests from schema.gql, for the schema-driven fuzzer (test/schema-fuzz.e2e-spec.ts):
// for every Query field, arguments from their types, a few scalar leaves selected (two levels at
// most), sent as variables or as literals in the document; valid ones and ones with a single
// mutation. GraphQL has no syntax for bounds, so the service writes them in each description
// ("From 1 to 1024.", "At most 50 values."; docs/api-conventions.md): the argument types are
// turned into JSON Schema with those bounds, plus the string rules (pattern, lengths) that
// openapi.json gives the field of the same name, and generated and judged (ajv) as REST is.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import {
  buildSchema,
  GraphQLNonNull,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
} from 'graphql';
import { arbitraryFor, mutationsOf, type Hint, type Schema, type SchemaContext } from './json-schema-arbitrary.js';
import type { OpenApiDocument } from './openapi-requests.js';

export interface GraphqlRequest {
  field: string;
  /** The request body sent to /graphql. */
  payload: { query: string; variables?: Record<string, unknown> };
  literals: boolean;
  valid: boolean;
  violations: string[];
  mutation?: string;
}

/** Bounds a description states: "From 0 to less than 1", "1 to 100 characters", "At most 50 values", "Exactly 24 values, each from 0 to 1000000". */
function describedBounds(description: string | null | undefined, list: boolean): { own: Schema; items: Schema } {
  const d = description ?? '';
  const own: Schema = {};
  const items: Schema = {};
  const range = (text: string, into: Schema) => {
    const below = /rom (-?\d+(?:\.\d+)?) to less than (-?\d+(?:\.\d+)?)/.exec(text);
    const upTo = /rom (-?\d+(?:\.\d+)?) to (-?\d+(?:\.\d+)?)/.exec(text);
    if (below) Object.assign(into, { minimum: Number(below[1]), exclusiveMaximum: Number(below[2]) });
    else if (upTo) Object.assign(into, { minimum: Number(upTo[1]), maximum: Number(upTo[2]) });
  };
  if (!list) {
    range(/From [^.]*(?:\.\d+[^.]*)*/.exec(d)?.[0] ?? '', own);
    const length = /(?:(\d+) to (\d+)|At most (\d+)|At least (\d+)) characters?/.exec(d);
    if (length?.[1] !== undefined) Object.assign(own, { minLength: Number(length[1]), maxLength: Number(length[2]) });
    if (length?.[3] !== undefined) own.maxLength = Number(length[3]);
    if (length?.[4] !== undefined) own.minLength = Number(length[4]);
    const decimal = /up to (\d+) digits, and up to (\d+) after the point/.exec(d);
    if (decimal) own.pattern = `^\\d{1,${decimal[1]}}(\\.\\d{1,${decimal[2]}})?$`;
    return { own, items };
  }
  const exactly = /Exactly (\d+) values/.exec(d);
  const between = /(\d+) to (\d+) values/.exec(d);
  const atMost = /At most (\d+) values?/.exec(d);
  const atLeast = /At least (\d+) values?/.exec(d);
  if (exactly) Object.assign(own, { minItems: Number(exactly[1]), maxItems: Number(exactly[1]) });
  if (between) Object.assign(own, { minItems: Number(between[1]), maxItems: Number(between[2]) });
  if (atMost) own.maxItems = Number(atMost[1]);
  if (atLeast) own.minItems = Number(atLeast[1]);
  range(/each f(rom [^.]*(?:\.\d+[^.]*)*)/.exec(d)?.[0] ?? '', items);
  return { own, items };
}

const STRING_KEYS = ['pattern', 'minLength', 'maxLength', 'format'];
const NUMBER_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];

/** openapi.json's schema for the same field: the input schema of the same name, any input schema, or a query parameter. */
function openapiTwin(doc: OpenApiDocument, owner: string, field: string): Schema | undefined {
  const props = (name: string) => doc.components.schemas[name]?.properties as Record<string, Schema> | undefined;
  const own = props(owner)?.[field];
  if (own) return own;
  const inputs = Object.keys(doc.components.schemas)
    .filter((n) => n.endsWith('Input'))
    .map((n) => props(n)?.[field])
    .find((s) => s !== undefined);
  const params = Object.values(doc.paths)
    .flatMap((methods) => Object.values(methods))
    .flatMap((op) => op.parameters ?? [])
    .find((p) => p.name === field && (p.in === 'query' || p.in === 'path'))?.schema;
  // A Query field's argument is a REST parameter first; an input object's field, a body field first.
  return /^[a-z]/.test(owner) ? (params ?? inputs) : (inputs ?? params);
}

const pick = (schema: Schema | undefined, keys: string[]): Schema => Object.fromEntries(Object.entries(schema ?? {}).filter(([k]) => keys.includes(k)));

/** schema.gql's input types as JSON Schema ($defs), and each Query field's arguments as one object schema. */
class Translation {
  readonly defs: Record<string, Schema> = {};
  constructor(private readonly doc: OpenApiDocument) {}

  argsSchema(field: GraphQLField<unknown, unknown>): Schema {
    return this.objectOf(
      field.name,
      field.args.map((a) => ({ name: a.name, type: a.type, description: a.description, hasDefault: a.defaultValue !== undefined })),
    );
  }

  private objectOf(owner: string, fields: { name: string; type: GraphQLInputType; description?: string | null; hasDefault: boolean }[]): Schema {
    return {
      type: 'object',
      properties: Object.fromEntries(fields.map((f) => [f.name, this.typeSchema(f.type, owner, f.name, f.description)])),
      required: fields.filter((f) => isNonNullType(f.type) && !f.hasDefault).map((f) => f.name),
      // GraphQL input objects and argument lists are closed.
      additionalProperties: false,
    };
  }

  private typeSchema(type: GraphQLInputType, owner: string, field: string, description: string | null | undefined, inList = false): Schema {
    // A nullable argument or field takes null, which the service reads as absent.
    if (!isNonNullType(type)) return { anyOf: [this.typeSchema(new GraphQLNonNull(type), owner, field, description, inList), { type: 'null' }] };
    const inner = type.ofType;
    if (isListType(inner)) {
      const bounds = describedBounds(description, true);
      const item = this.typeSchema(inner.ofType, owner, field, description, true);
      return { type: 'array', items: { ...item, ...bounds.items }, ...bounds.own };
    }
    const twin = openapiTwin(this.doc, owner, field);
    const twinScalar = twin?.type === 'array' ? (twin.items as Schema | undefined) : twin;
    if (isInputObjectType(inner)) {
      if (!this.defs[inner.name]) {
        this.defs[inner.name] = {};
        this.defs[inner.name] = this.objectOf(
          inner.name,
          Object.values(inner.getFields()).map((f) => ({ name: f.name, type: f.type, description: f.description, hasDefault: f.defaultValue !== undefined })),
        );
      }
      return { $ref: `#/$defs/${inner.name}` };
    }
    if (isEnumType(inner)) return { enum: inner.getValues().map((v) => v.name) };
    const bounds = inList ? {} : describedBounds(description, false).own;
    switch (inner.name) {
      case 'Int':
        return { type: 'integer', minimum: -(2 ** 31), maximum: 2 ** 31 - 1, ...pick(twinScalar, NUMBER_KEYS), ...bounds };
      case 'Float':
        return { type: 'number', ...pick(twinScalar, NUMBER_KEYS), ...bounds };
      case 'Boolean':
        return { type: 'boolean' };
      case 'DateTime':
        return { type: 'string', format: 'date-time' };
      default:
        return { type: 'string', ...pick(twinScalar, STRING_KEYS), ...bounds };
    }
  }
}

/** A selection set for a result type: 1 to 3 leaves, and at the first level one object field with its own leaves. */
function selection(type: GraphQLOutputType, depth = 0): fc.Arbitrary<string> {
  const named = getNamedType(type);
  if (isLeafType(named) || !isObjectType(named)) return fc.constant('');
  const fields = Object.values(named.getFields()).filter((f) => f.args.every((a) => !isNonNullType(a.type)));
  const leaves = fields.filter((f) => isLeafType(getNamedType(f.type))).map((f) => f.name);
  const objects = fields.filter((f) => isObjectType(getNamedType(f.type)));
  const leafPart = leaves.length ? fc.shuffledSubarray(leaves, { minLength: 1, maxLength: Math.min(3, leaves.length) }) : fc.constant(['__typename']);
  const nested =
    depth < 1 && objects.length
      ? fc.option(
          fc.constantFrom(...objects).chain((f) => selection(f.type, depth + 1).map((sub) => `${f.name} ${sub}`)),
          { freq: 2 },
        )
      : fc.constant(null);
  return fc.tuple(leafPart, nested).map(([ls, obj]) => `{ ${[...ls, ...(obj ? [obj] : [])].join(' ')} }`);
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** A value as a GraphQL literal: enum members bare, strings and everything else as GraphQL reads JSON-like text. */
function literal(value: unknown, type: GraphQLInputType | undefined): string {
  const bare = type && isNonNullType(type) ? type.ofType : type;
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, bare && isListType(bare) ? bare.ofType : undefined)).join(', ')}]`;
  if (typeof value === 'object') {
    const fields = bare && isInputObjectType(bare) ? bare.getFields() : {};
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}: ${literal(v, fields[k]?.type)}`)
      .join(', ')}}`;
  }
  if (typeof value === 'string' && bare && isEnumType(bare) && NAME.test(value)) return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  return JSON.stringify(value) ?? 'null';
}

function render(field: GraphQLField<unknown, unknown>, args: Record<string, unknown>, literals: boolean, sel: string): GraphqlRequest['payload'] {
  const declared = new Map(field.args.map((a) => [a.name, a.type]));
  const present = Object.entries(args).filter(([, v]) => v !== undefined);
  // An argument the field does not have can only be written in the document.
  const asVariable = present.filter(([k]) => !literals && declared.has(k));
  const asLiteral = present.filter(([k]) => literals || !declared.has(k));
  const argText = [...asVariable.map(([k]) => `${k}: $${k}`), ...asLiteral.map(([k, v]) => `${k}: ${literal(v, declared.get(k))}`)].join(', ');
  const head = asVariable.length ? `query Fuzz(${asVariable.map(([k]) => `$${k}: ${String(declared.get(k))}`).join(', ')}) ` : '';
  return {
    query: `${head}{ ${field.name}${argText ? `(${argText})` : ''} ${sel} }`.replace(/ {2,}/g, ' '),
    ...(asVariable.length ? { variables: Object.fromEntries(asVariable) } : {}),
  };
}

export interface GraphqlArbitraries {
  field: string;
  valid: fc.Arbitrary<GraphqlRequest>;
  invalid: fc.Arbitrary<GraphqlRequest>;
}

/** For every Query field of schema.gql, valid and one-mutation requests. */
export function graphqlArbitraries(sdl: string, doc: OpenApiDocument, hint?: (h: Hint) => fc.Arbitrary<unknown> | undefined): GraphqlArbitraries[] {
  const schema = buildSchema(sdl);
  const translation = new Translation(doc);
  const fields = Object.values(schema.getQueryType()?.getFields() ?? {});
  const argsSchemas = new Map(fields.map((f) => [f.name, translation.argsSchema(f)]));
  const root = { $defs: translation.defs };
  const ctx: SchemaContext = { root, hint };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(root, 'gql');
  return fields.map((field) => {
    const argsSchema = argsSchemas.get(field.name) ?? {};
    const validate: ValidateFunction = ajv.compile(JSON.parse(JSON.stringify(argsSchema).replaceAll('"#/', '"gql#/')) as Schema);
    const build = (args: Record<string, unknown>, literals: boolean, sel: string, mutation?: string): GraphqlRequest => {
      const ok = validate(args);
      const violations = ok ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
      return { field: field.name, payload: render(field, args, literals, sel), literals, valid: ok, violations, mutation };
    };
    const args = arbitraryFor(argsSchema, ctx) as fc.Arbitrary<Record<string, unknown>>;
    const parts = fc.tuple(args, fc.boolean(), selection(field.type));
    return {
      field: field.name,
      valid: parts.map(([a, literals, sel]) => build(a, literals, sel)).filter((r) => r.valid),
      invalid: parts.chain(([a, literals, sel]) =>
        fc
          .constantFrom(...mutationsOf(a, argsSchema, ctx, [], { root: 'object' }))
          .map((m) => build(m.apply(a) as Record<string, unknown>, literals, sel, m.label)),
      ),
    };
  });
}
