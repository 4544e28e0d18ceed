// REST requests from openapi.json, for the schema-driven fuzzer (test/schema-fuzz.e2e-spec.ts):
// every operation's path and query parameters (form style, lists comma-separated as `explode:
// false` says) and JSON body, valid ones and ones with a single mutation. Whether a request is
// valid is decided after it is written: the query string is read back the way the document
// describes it (lists split on commas, numbers and booleans parsed) and the body parsed, and
// both are validated against the document's schemas with ajv.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { arbitraryFor, mutationsOf, normalize, type Hint, type Schema, type SchemaContext } from './json-schema-arbitrary.js';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  style?: string;
  explode?: boolean;
  schema: Schema;
}

export interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      { operationId?: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, unknown> }
    >
  >;
  components: { schemas: Record<string, Schema> };
}

export interface RestOperation {
  /** "GET /v1/offers" */
  name: string;
  method: string;
  template: string;
  /** Statuses the document lists for the operation. */
  documented: string[];
  parameters: Parameter[];
  /** Path and query parameters as one object schema (the fuzzer's unit of generation). */
  paramsSchema: Schema;
  bodySchema?: Schema;
}

export interface RestRequest {
  /** The operation, "GET /v1/offers". */
  operation: string;
  method: string;
  /** Path and query string, as sent. */
  url: string;
  /** The JSON text sent, if any. */
  body?: string;
  /** Valid by openapi.json (ajv's verdict on what the server reads). */
  valid: boolean;
  /** What ajv objects to, when invalid. */
  violations: string[];
  /** The one change made to a valid request, for invalid requests (which may still be valid by the schema). */
  mutation?: string;
}

export function restOperations(doc: OpenApiDocument): RestOperation[] {
  const out: RestOperation[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      // Headers (If-None-Match) and cookies are not what this fuzzer varies.
      const parameters = (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
      out.push({
        name: `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        template,
        documented: Object.keys(op.responses),
        parameters,
        paramsSchema: {
          type: 'object',
          properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
          required: parameters.filter((p) => p.required || p.in === 'path').map((p) => p.name),
          // OpenAPI cannot close a query string; the service's convention does (docs/api-conventions.md:
          // "Unknown query parameters and body fields are rejected").
          additionalProperties: false,
        },
        bodySchema: op.requestBody?.content['application/json']?.schema,
      });
    }
  }
  return out;
}

/** The text of a parameter value: lists comma-separated (form, explode false), each item escaped. */
function paramText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map((item) => encodeURIComponent(scalarText(item))).join(',');
  return encodeURIComponent(scalarText(v));
}
const scalarText = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

function writeUrl(op: RestOperation, params: Record<string, unknown>): string {
  const pathNames = new Set(op.parameters.filter((p) => p.in === 'path').map((p) => p.name));
  const path = op.template.replace(/\{([^}]+)\}/g, (_, name: string) => paramText(params[name]));
  const query = Object.entries(params)
    .filter(([k, v]) => !pathNames.has(k) && v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${paramText(v)}`)
    .join('&');
  return query ? `${path}?${query}` : path;
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A parameter's text as the document describes its reading: split lists, parse numbers and booleans. */
function readParam(text: string, schema: Schema, ctx: SchemaContext, isList = false): unknown {
  const s = normalize(schema, ctx);
  const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  // Split after decoding, as the service does (and most servers): an item's comma, escaped or
  // not, separates items (docs/api-conventions.md#validation, lists in query strings).
  if (types.includes('array') && !isList)
    return text === ''
      ? []
      : decodeURIComponent(text)
          .split(',')
          .map((item) => readParam(item, s.items as Schema, ctx, true));
  const plain = isList ? text : decodeURIComponent(text);
  if ((types.includes('integer') || types.includes('number')) && NUMBER.test(plain)) return Number(plain);
  if (types.includes('boolean') && (plain === 'true' || plain === 'false')) return plain === 'true';
  return plain;
}

/** The parameters a URL carries, read back as typed values (what the schemas judge). */
function readUrl(op: RestOperation, url: string, ctx: SchemaContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const [path = '', query] = url.split('?');
  const templateParts = op.template.split('/');
  path.split('/').forEach((part, i) => {
    const name = /^\{([^}]+)\}$/.exec(templateParts[i] ?? '')?.[1];
    if (name) out[name] = readParam(part, (op.paramsSchema.properties as Record<string, Schema>)[name] ?? {}, ctx);
  });
  for (const pair of query ? query.split('&') : []) {
    const [rawKey = '', ...rest] = pair.split('=');
    const key = decodeURIComponent(rawKey);
    const schema = (op.paramsSchema.properties as Record<string, Schema>)[key];
    out[key] = schema ? readParam(rest.join('='), schema, ctx) : decodeURIComponent(rest.join('='));
  }
  return out;
}

export interface RestArbitraries {
  valid: fc.Arbitrary<RestRequest>;
  invalid: fc.Arbitrary<RestRequest>;
}

/** Valid and one-mutation requests for an operation. */
export function restArbitraries(op: RestOperation, doc: OpenApiDocument, hint?: (h: Hint) => fc.Arbitrary<unknown> | undefined): RestArbitraries {
  const ctx: SchemaContext = { root: doc, hint };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(doc, 'doc');
  // $refs inside the document are relative to it: validate through a reference into the document.
  const compile = (schema: Schema): ValidateFunction => ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/', '"doc#/')) as Schema);
  const checkParams = compile(op.paramsSchema);
  const checkBody = op.bodySchema ? compile(op.bodySchema) : undefined;
  const errorsOf = (validate: ValidateFunction, where: string) => (validate.errors ?? []).map((e) => `${where}${e.instancePath} ${e.message ?? ''}`);

  const build = (params: Record<string, unknown>, body: unknown, mutation?: string): RestRequest => {
    const url = writeUrl(op, params);
    const paramsOk = checkParams(readUrl(op, url, ctx));
    const violations = paramsOk ? [] : errorsOf(checkParams, 'query');
    const text = checkBody ? JSON.stringify(body) : undefined;
    if (checkBody && !checkBody(text === undefined ? undefined : JSON.parse(text))) violations.push(...errorsOf(checkBody, 'body'));
    return { operation: op.name, method: op.method, url, body: text, valid: violations.length === 0, violations, mutation };
  };

  const params = arbitraryFor(op.paramsSchema, ctx) as fc.Arbitrary<Record<string, unknown>>;
  const body = op.bodySchema ? arbitraryFor(op.bodySchema, ctx, [], 'body') : fc.constant(undefined);
  const valid = fc.tuple(params, body).map(([p, b]) => build(p, b));
  const mutateParams = fc
    .tuple(params, body)
    .chain(([p, b]) =>
      fc
        .constantFrom(...mutationsOf(p, op.paramsSchema, ctx, [], { root: 'object' }))
        .map((m) => build(m.apply(p) as Record<string, unknown>, b, `query: ${m.label}`)),
    );
  const mutateBody = fc
    .tuple(params, body)
    .chain(([p, b]) => fc.constantFrom(...mutationsOf(b, op.bodySchema, ctx)).map((m) => build(p, m.apply(b), `body: ${m.label}`)));
  return {
    // A generated request the validator rejects is the generator's shortfall, not a test input.
    valid: valid.filter((r) => r.valid),
    invalid: op.bodySchema ? fc.oneof({ weight: 1, arbitrary: mutateParams }, { weight: 4, arbitrary: mutateBody }) : mutateParams,
  };
}
