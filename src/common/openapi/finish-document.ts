// What @nestjs/swagger cannot say from the decorators, added to the generated document in one
// place, so that standard tools (redocly lint, ajv, openapi-typescript) read it as the service
// behaves:
// - OpenAPI 3.1: a nullable value is `type: [T, "null"]`, a nullable reference `oneOf: [{$ref},
//   {type: "null"}]` (3.0's `nullable` next to `allOf` reads as "must be an object" to a JSON
//   Schema validator, which then rejects real answers);
// - every error an operation can give, as application/problem+json with one Problem schema, with
//   Retry-After on 429 and 503 and WWW-Authenticate on 401;
// - 304 and the caching headers on the GET answers the response cache serves;
// - CSV as a string with its paging header; `servers` from configuration; security that says a
//   key is needed only when the service requires one;
// - request bodies as strict as the validation: no unknown property (`additionalProperties:
//   false`) and the rules across fields (exactly one of, at most one of) that the input classes
//   declare (input-field.ts, ExactlyOneOf / AtMostOneOf).
import type { OpenAPIObject } from '@nestjs/swagger';
import { BODY_LIMIT_BYTES, MEASUREMENT_BODY_LIMIT_BYTES } from '../http/limits.js';
import { isHttpCacheableGet } from '../http/cacheable-routes.js';
import { classRulesOf } from '../inputs/input-field.js';

type Json = Record<string, unknown>;
type Operation = { parameters?: { in: string; name: string }[]; requestBody?: unknown; responses: Record<string, Json>; security?: unknown[] };

export interface DocumentOptions {
  /** Base URLs to list as `servers`; empty: "/" (the service that serves the document). */
  servers: readonly string[];
}

const PROBLEM_MEDIA = 'application/problem+json';

const SCHEMAS: Record<string, Json> = {
  FieldError: {
    type: 'object',
    description: 'One invalid input: its path as the client spelled it, and the rule it broke',
    required: ['field', 'message'],
    properties: {
      field: { type: 'string', examples: ['workload.avgInputTokens'] },
      message: { type: 'string', examples: ['is required'] },
    },
  },
  Problem: {
    type: 'object',
    description: 'An error, as RFC 9457 problem details; `code` is the stable code to switch on',
    required: ['type', 'title', 'status', 'detail', 'code'],
    properties: {
      type: { type: 'string', description: 'A URI naming the kind of problem (about:blank for generic HTTP errors)' },
      title: { type: 'string', examples: ['Bad Request'] },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string', description: 'What went wrong, for a person' },
      instance: { type: 'string', description: 'The request path and query' },
      code: { type: 'string', pattern: '^[A-Z]+(\\.[A-Z0-9_]+)+$', examples: ['REQUEST.INVALID'] },
      errors: { type: 'array', items: { $ref: '#/components/schemas/FieldError' }, description: 'The invalid inputs, for bad input' },
    },
  },
};

const HEADERS: Record<string, Json> = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
  'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } },
  ETag: { description: 'Strong validator of the answer; send it back as If-None-Match', schema: { type: 'string' } },
  'Cache-Control': {
    description: 'public, max-age=31536000, immutable when pinned to a past asOf; a short max-age with stale-while-revalidate for the current version',
    schema: { type: 'string' },
  },
  'X-Next-Cursor': { description: 'The cursor of the next page (CSV answers; JSON answers carry nextCursor in the body)', schema: { type: 'string' } },
};

const problem = (description: string, headers: string[] = []): Json => ({
  description,
  ...(headers.length ? { headers: Object.fromEntries(headers.map((h) => [h, { $ref: `#/components/headers/${h}` }])) } : {}),
  content: { [PROBLEM_MEDIA]: { schema: { $ref: '#/components/schemas/Problem' } } },
});

/** The errors an operation can answer, from what it takes (see docs/api-conventions.md, "Error codes"). */
function errorResponses(op: Operation, schemas: Record<string, Json>): Record<string, Json> {
  const params = op.parameters ?? [];
  const bodyRef = (op.requestBody as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined)?.content?.['application/json']?.schema?.$ref;
  const bodyFields = Object.keys((schemas[bodyRef?.split('/').pop() ?? '']?.properties as Json | undefined) ?? {});
  const has = (...names: string[]) => params.some((p) => names.includes(p.name)) || bodyFields.some((f) => names.includes(f));
  const out: Record<string, Json> = {
    '400': problem('Bad input: a value out of bounds or of the wrong type, an unknown parameter or identifier (`errors` names each field)'),
    '401': problem('No valid API key (only when the service runs with AUTH_MODE=required)', ['WWW-Authenticate']),
  };
  if (params.some((p) => p.in === 'path') || has('version', 'asOf', 'from', 'to')) {
    out['404'] = problem('The catalog version, offer or GPU named does not exist');
  }
  if (op.requestBody) {
    out['413'] = problem(
      has('measurements')
        ? `The body is larger than ${MEASUREMENT_BODY_LIMIT_BYTES / 1024 / 1024} MiB, or its measurements hold more samples than MEASUREMENT_MAX_SAMPLES`
        : `The body is larger than ${BODY_LIMIT_BYTES / 1024} KiB`,
    );
    out['415'] = problem('The body is not application/json');
  }
  if (has('measurements')) {
    out['403'] = problem('A measurement `query` from a caller the service does not run Prometheus queries for (PROMETHEUS_QUERIES)');
  }
  out['431'] = problem('The request line or headers are larger than 16 KiB (a very long query string)');
  const unprocessable = op.responses['422'];
  if (unprocessable || has('currency')) {
    const what =
      typeof unprocessable?.description === 'string' ? unprocessable.description : 'The catalog version has no exchange rate for the currency asked for';
    out['422'] = problem(what);
  }
  out['429'] = problem(
    has('measurements')
      ? 'Too many requests for this API key or address, or too many Prometheus queries a minute (PROMETHEUS_QUERIES_PER_MINUTE)'
      : 'Too many requests for this API key or address',
    ['Retry-After'],
  );
  out['500'] = problem('An unexpected error; it has been logged');
  out['503'] = problem('The database is unavailable, or the service is busy (catalog loads, estimate queue); retry after the given seconds', ['Retry-After']);
  return out;
}

/** 3.0's `nullable: true` and boolean `exclusiveMaximum` as 3.1 JSON Schema, in place, through the whole document. */
function toJsonSchema(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) toJsonSchema(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Json;
  for (const value of Object.values(schema)) toJsonSchema(value);
  if (schema.exclusiveMaximum === true && typeof schema.maximum === 'number') {
    schema.exclusiveMaximum = schema.maximum;
    delete schema.maximum;
  }
  const single = Array.isArray(schema.allOf) && schema.allOf.length === 1 ? (schema.allOf[0] as Json).$ref : undefined;
  if (schema.nullable !== true) {
    // 3.1 lets a $ref carry a description next to it: no one-element allOf needed.
    if (typeof single === 'string') {
      delete schema.allOf;
      schema.$ref = single;
    }
    return;
  }
  delete schema.nullable;
  const ref = typeof schema.$ref === 'string' ? schema.$ref : single;
  if (typeof ref === 'string') {
    // A reference (with or without the `type: object` @nestjs/swagger puts next to it) or null.
    delete schema.$ref;
    delete schema.allOf;
    delete schema.type;
    schema.oneOf = [{ $ref: ref }, { type: 'null' }];
    return;
  }
  if (typeof schema.type !== 'string') throw new Error(`a nullable schema that is neither typed nor a single reference: ${JSON.stringify(schema)}`);
  schema.type = [schema.type, 'null'];
  if (Array.isArray(schema.enum)) schema.enum = [...(schema.enum as unknown[]), null];
}

/** The component schemas a request body reaches, through $ref at any depth. */
function bodySchemaNames(doc: Json, schemas: Record<string, Json>): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (!names.has(name)) {
        names.add(name);
        visit(schemas[name]);
      }
    }
    for (const value of Object.values(node)) visit(value);
  };
  for (const item of Object.values(doc.paths as Record<string, Record<string, Operation>>)) {
    for (const op of Object.values(item)) visit(op.requestBody);
  }
  return names;
}

/** Input schemas as the validation reads them: unknown properties refused, cross-field rules stated. */
function strictInputs(doc: Json, schemas: Record<string, Json>): void {
  for (const name of bodySchemaNames(doc, schemas)) {
    const schema = schemas[name];
    if (!schema || schema.type !== 'object') continue;
    schema.additionalProperties = false;
    // Beside the properties (where linters read each rule's `required`), unless two rules use the
    // same keyword: the later one then goes into allOf.
    const apart: Json[] = [];
    for (const rule of classRulesOf(name)) {
      if (Object.keys(rule).some((keyword) => keyword in schema)) apart.push(rule);
      else Object.assign(schema, rule);
    }
    if (apart.length) schema.allOf = [...((schema.allOf as Json[] | undefined) ?? []), ...apart];
  }
}

export function finishOpenApiDocument(document: OpenAPIObject, options: DocumentOptions): OpenAPIObject {
  const doc = structuredClone(document) as OpenAPIObject & Json;
  doc.openapi = '3.1.0';
  doc.info = { ...doc.info, license: { name: 'Proprietary (UNLICENSED)' } };
  doc.servers = options.servers.length ? options.servers.map((url) => ({ url })) : [{ url: '/', description: 'The service that serves this document' }];
  // A key is needed only with AUTH_MODE=required: either scheme, or none.
  doc.security = [{ bearer: [] }, { 'x-api-key': [] }, {}];
  toJsonSchema(doc.components?.schemas);
  toJsonSchema(doc.paths);
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, ...SCHEMAS }, headers: HEADERS };
  strictInputs(doc, (doc.components.schemas ?? {}) as Record<string, Json>);

  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, value] of Object.entries(item as Record<string, Operation>)) {
      const op = value;
      if (!path.startsWith('/v1/')) {
        // Health checks need no key and answer 503 with their own body.
        op.security = [];
        continue;
      }
      op.responses = { ...op.responses, ...errorResponses(op, (doc.components?.schemas ?? {}) as Record<string, Json>) };
      const ok = op.responses['200'];
      if (!ok) continue;
      const content = (ok.content ?? {}) as Record<string, Json>;
      if (content['text/csv']) {
        content['text/csv'] = { schema: { type: 'string', description: 'RFC 4180 CSV with a header row (FOCUS-style columns)' } };
        ok.headers = { ...(ok.headers as Json), 'X-Next-Cursor': { $ref: '#/components/headers/X-Next-Cursor' } };
      }
      if (method === 'get' && isHttpCacheableGet(path)) {
        ok.headers = { ...(ok.headers as Json), ETag: { $ref: '#/components/headers/ETag' }, 'Cache-Control': { $ref: '#/components/headers/Cache-Control' } };
        op.responses['304'] = {
          description: 'Not modified: the answer has the ETag sent in If-None-Match',
          headers: { ETag: { $ref: '#/components/headers/ETag' } },
        };
        op.parameters = [
          ...(op.parameters ?? []),
          {
            in: 'header',
            name: 'If-None-Match',
            required: false,
            schema: { type: 'string' },
            description: 'An ETag of an earlier answer: 304 when unchanged',
          } as never,
        ];
      }
    }
  }
  return doc;
}
