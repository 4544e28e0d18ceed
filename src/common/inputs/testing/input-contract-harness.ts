// What input-contract.spec.ts asks of one boundary value at one place it can be sent: would the
// served app take it (REST, GraphQL), and what do the OpenAPI document and the GraphQL schema the
// app generates say about it. The app is the real controllers, resolvers, ValidationPipe and
// error mapping, in process, over services that only say "reached": nothing past validation runs.
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Logger, type INestApplication } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { GraphQLModule, GraphQLSchemaHost } from '@nestjs/graphql';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { coerceInputValue, getNamedType, getNullableType, isEnumType, isInputObjectType, isListType, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { defined, last } from '../../../domain/checked.js';
import { AppError } from '../../errors/app-error.js';
import { DateTimeScalar } from '../date-time.js';
import { formatGraphqlError } from '../../errors/graphql-errors.js';
import { ProblemDetailsFilter } from '../../errors/problem-details.filter.js';
import { createValidationPipe } from '../../errors/validation.js';
import { finishOpenApiDocument } from '../../openapi/finish-document.js';
import { CatalogController } from '../../../modules/catalog/catalog.controller.js';
import { CatalogResolver } from '../../../modules/catalog/catalog.resolver.js';
import { CatalogService } from '../../../modules/catalog/catalog.service.js';
import { PriceHistoryService } from '../../../modules/catalog/price-history.service.js';
import { EstimatesController } from '../../../modules/estimates/estimates.controller.js';
import { EstimatesResolver } from '../../../modules/estimates/estimates.resolver.js';
import { EstimatesService } from '../../../modules/estimates/estimates.service.js';
import { OffersController } from '../../../modules/offers/offers.controller.js';
import { OffersResolver } from '../../../modules/offers/offers.resolver.js';
import { OffersService } from '../../../modules/offers/offers.service.js';

export type Verdict = 'accept' | 'refuse';
/** A schema's verdict, or `silent` where it cannot state the rule (GraphQL has no string lengths). */
export type SchemaVerdict = Verdict | 'silent';

const REACHED = 'TEST.REACHED_SERVICE';
const reach = async (): Promise<never> => {
  throw new AppError(REACHED, 'UNPROCESSABLE', 'validation passed');
};

export interface ServedApp {
  app: INestApplication;
  url: string;
  openApi: OpenAPIObject;
  schema: GraphQLSchema;
}

export async function startServedApp(): Promise<ServedApp> {
  Logger.overrideLogger(false);
  const moduleRef = await Test.createTestingModule({
    imports: [
      GraphQLModule.forRoot<ApolloDriverConfig>({
        driver: ApolloDriver,
        autoSchemaFile: true,
        sortSchema: true,
        buildSchemaOptions: { scalarsMap: [{ type: Date, scalar: DateTimeScalar }] },
        formatError: formatGraphqlError,
      }),
    ],
    controllers: [OffersController, EstimatesController, CatalogController],
    providers: [
      OffersResolver,
      EstimatesResolver,
      CatalogResolver,
      { provide: OffersService, useValue: { list: reach, cheapest: reach } },
      { provide: EstimatesService, useValue: { estimate: reach } },
      { provide: CatalogService, useValue: { listVersions: reach, diff: reach, snapshot: reach, referenceFigures: reach } },
      { provide: PriceHistoryService, useValue: { offerHistory: reach, gpuHistory: reach } },
      { provide: APP_FILTER, useClass: ProblemDetailsFilter },
    ],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  app.useGlobalPipes(createValidationPipe());
  // Over a socket: fastify's inject cannot be loaded by jest's ESM runtime.
  await app.listen(0, '127.0.0.1');
  const openApi = finishOpenApiDocument(SwaggerModule.createDocument(app, new DocumentBuilder().build()), { servers: [] });
  return { app, url: await app.getUrl(), openApi, schema: app.get(GraphQLSchemaHost).schema };
}

/** A served answer as a verdict: reached the service, or refused as bad input naming `field`. */
export async function servedRest(
  app: ServedApp,
  request: { method: 'GET' | 'POST'; url: string; body?: unknown },
): Promise<{ verdict: Verdict; fields: string[] }> {
  const res = await fetch(`${app.url}${request.url}`, {
    method: request.method,
    headers: request.body === undefined ? {} : { 'content-type': 'application/json' },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const body = (await res.json()) as { code?: string; errors?: { field: string }[] };
  if (res.status === 422 && body.code === REACHED) return { verdict: 'accept', fields: [] };
  if (res.status === 400 && body.code === 'REQUEST.INVALID') return { verdict: 'refuse', fields: (body.errors ?? []).map((e) => e.field) };
  throw new Error(`unexpected answer ${res.status} to ${request.method} ${request.url}: ${JSON.stringify(body)}`);
}

export async function servedGraphql(app: ServedApp, field: string, variables: Record<string, unknown>): Promise<Verdict> {
  const args = defined(defined(app.schema.getQueryType(), 'the Query type').getFields()[field], `Query.${field}`).args.filter((a) => a.name in variables);
  const declared = args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const passed = args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const query = `query Q${declared ? `(${declared})` : ''} { ${field}${passed ? `(${passed})` : ''} { __typename } }`;
  const res = await fetch(`${app.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { errors?: { extensions?: { code?: string; errorCode?: string } }[] };
  const error = body.errors?.[0]?.extensions;
  if (error?.errorCode === REACHED) return 'accept';
  if (error?.code === 'BAD_USER_INPUT') return 'refuse';
  throw new Error(`unexpected GraphQL answer to ${query} with ${JSON.stringify(variables)}: ${JSON.stringify(body)}`);
}

// ---- OpenAPI: a small evaluator of the OpenAPI 3.0 schema keywords the document uses ----------

type Schema = Record<string, unknown>;

export function resolveRef(doc: OpenAPIObject, schema: Schema): Schema {
  if (typeof schema.$ref === 'string') return resolveRef(doc, defined(doc.components?.schemas?.[schema.$ref.split('/').pop() ?? ''], schema.$ref) as Schema);
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1) return resolveRef(doc, schema.allOf[0] as Schema);
  return schema;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const KNOWN = new Set([
  'type',
  'minimum',
  'maximum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'enum',
  'minItems',
  'maxItems',
  'items',
  'format',
  'properties',
  'required',
  'description',
  'example',
  'default',
  '$ref',
  'allOf',
  'additionalProperties',
  'oneOf',
  'anyOf',
  'not',
]);

/** A cross-field rule (ExactlyOneOf, AtLeastOneOf, AtMostOneOf): a schema of `required` alone. */
function hasAll(rule: Schema, value: object): boolean {
  const keys = Object.keys(rule);
  if (keys.length !== 1 || !Array.isArray(rule.required))
    throw new Error(`the evaluator reads only { required } inside oneOf, anyOf and not: ${JSON.stringify(rule)}`);
  return (rule.required as string[]).every((k) => k in value);
}

/** Whether a value meets a schema. Throws on a keyword it does not know, so it cannot pass by ignoring one. */
export function openApiAccepts(doc: OpenAPIObject, raw: Schema, value: unknown): boolean {
  const s = resolveRef(doc, raw);
  const unknown = Object.keys(s).filter((k) => !KNOWN.has(k));
  if (unknown.length) throw new Error(`the evaluator does not know ${unknown.join(', ')}`);
  switch (s.type) {
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value) || (s.type === 'integer' && !Number.isInteger(value))) return false;
      if (typeof s.minimum === 'number' && value < s.minimum) return false;
      if (typeof s.maximum === 'number' && value > s.maximum) return false;
      if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) return false;
      return true;
    }
    case 'string':
      if (typeof value !== 'string') return false;
      if (typeof s.minLength === 'number' && value.length < s.minLength) return false;
      if (typeof s.maxLength === 'number' && value.length > s.maxLength) return false;
      if (typeof s.pattern === 'string' && !new RegExp(s.pattern).test(value)) return false;
      if (Array.isArray(s.enum) && !s.enum.includes(value)) return false;
      return s.format !== 'date-time' || DATE_TIME.test(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      if (!Array.isArray(value)) return false;
      if (typeof s.minItems === 'number' && value.length < s.minItems) return false;
      if (typeof s.maxItems === 'number' && value.length > s.maxItems) return false;
      return value.every((v) => openApiAccepts(doc, s.items as Schema, v));
    case 'object':
    case undefined: {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const required = (s.required ?? []) as string[];
      // Unknown properties are refused with or without additionalProperties: false (the service's rule).
      if (s.additionalProperties !== undefined && s.additionalProperties !== false) throw new Error('the evaluator reads only additionalProperties: false');
      if (Array.isArray(s.oneOf) && (s.oneOf as Schema[]).filter((rule) => hasAll(rule, value)).length !== 1) return false;
      if (Array.isArray(s.anyOf) && !(s.anyOf as Schema[]).some((rule) => hasAll(rule, value))) return false;
      if (s.not !== undefined && hasAll(s.not as Schema, value)) return false;
      return (
        required.every((k) => k in value) && Object.entries(value).every(([k, v]) => k in props && openApiAccepts(doc, defined(props[k], `property ${k}`), v))
      );
    }
    default:
      throw new Error(`the evaluator does not know type ${String(s.type)}`);
  }
}

/** A query or path parameter: its schema, and how a list is written (style, explode). */
export function openApiParameter(
  doc: OpenAPIObject,
  method: 'get' | 'post',
  path: string,
  name: string,
): { schema: Schema; style?: string; explode?: boolean } {
  const operation = (doc.paths[path] as Record<string, { parameters?: { name: string; schema: Schema; style?: string; explode?: boolean }[] }>)[method];
  const param = operation?.parameters?.find((p) => p.name === name);
  if (!param) throw new Error(`OpenAPI has no parameter ${name} on ${method.toUpperCase()} ${path}`);
  return param;
}

/** The schema of a property of a JSON body, by its path (numbers index lists). */
export function openApiBodyProperty(doc: OpenAPIObject, path: string, at: (string | number)[]): Schema {
  const post = defined((doc.paths[path] as Record<string, { requestBody: { content: Record<string, { schema: Schema }> } }>).post, `POST ${path}`);
  const content = defined(post.requestBody.content['application/json'], `the JSON body of POST ${path}`);
  let schema: Schema = content.schema;
  for (const step of at) {
    const s = resolveRef(doc, schema);
    const next = typeof step === 'number' ? s.items : (s.properties as Record<string, Schema> | undefined)?.[step];
    if (!next) throw new Error(`OpenAPI has no ${at.join('.')} in the body of POST ${path}`);
    schema = next as Schema;
  }
  return schema;
}

// ---- GraphQL: the type of an argument or input field, and the bounds its description states ---

export function graphqlLocation(schema: GraphQLSchema, field: string, at: (string | number)[]): { type: GraphQLInputType; description: string } {
  const root = defined(schema.getQueryType(), 'the Query type').getFields()[field];
  const arg = root?.args.find((a) => a.name === at[0]);
  if (!arg) throw new Error(`GraphQL ${field} has no argument ${String(at[0])}`);
  let type: GraphQLInputType = arg.type;
  let description = arg.description ?? '';
  for (const step of at.slice(1)) {
    const nullable = getNullableType(type);
    if (typeof step === 'number') {
      if (!isListType(nullable)) throw new Error(`GraphQL ${field}.${at.join('.')}: not a list at ${step}`);
      type = nullable.ofType;
      continue;
    }
    if (!isInputObjectType(nullable)) throw new Error(`GraphQL ${field}.${at.join('.')}: not an input object at ${step}`);
    const f = nullable.getFields()[step];
    if (!f) throw new Error(`GraphQL ${String(nullable)} has no field ${step}`);
    type = f.type;
    description = f.description ?? '';
  }
  return { type, description };
}

/** What the GraphQL schema says of a value: its type decides, then the bounds its description states. */
export function graphqlSays(location: { type: GraphQLInputType; description: string }, value: unknown): SchemaVerdict {
  let typeFits = true;
  const coerced: unknown = coerceInputValue(value, location.type, () => {
    typeFits = false;
  });
  // The DateTime scalar reads a malformed timestamp as an invalid Date rather than refusing it.
  if (!typeFits || (coerced instanceof Date && Number.isNaN(coerced.getTime()))) return 'refuse';
  const named = getNamedType(location.type);
  // Types that need no stated bounds: enums, booleans and timestamps are whole in the type.
  const typeIsWhole = isEnumType(named) || ['Boolean', 'DateTime'].includes(named.name);
  const d = location.description;
  if (Array.isArray(value)) {
    const exactly = /Exactly (\d+) values/.exec(d);
    const between = /(\d+) to (\d+) values/.exec(d);
    const atMost = /At most (\d+) values/.exec(d);
    const atLeast = /At least (\d+) values?/.exec(d);
    const min = exactly ? Number(exactly[1]) : between ? Number(between[1]) : atLeast ? Number(atLeast[1]) : undefined;
    const max = exactly ? Number(exactly[1]) : between ? Number(between[2]) : atMost ? Number(atMost[1]) : undefined;
    if ((min !== undefined && value.length < min) || (max !== undefined && value.length > max)) return 'refuse';
    if (typeIsWhole) return 'accept';
    const each = /each from (\S+) to (less than )?(\S+?)\.(?:\s|$)/.exec(d);
    if (!each || value.some((v) => typeof v !== 'number')) return 'silent';
    return value.every((v) => inRange(each, v as number) === 'accept') ? 'accept' : 'refuse';
  }
  if (typeIsWhole) return 'accept';
  if (typeof value === 'number') return inRange(/(?:^|\. )From (\S+) to (less than )?(\S+?)\.(?:\s|$)/.exec(d), value);
  if (typeof value === 'string') {
    const m = /up to (\d+) digits, and up to (\d+) after the point/.exec(d);
    return m ? (new RegExp(`^\\d{1,${m[1]}}(\\.\\d{1,${m[2]}})?$`).test(value) ? 'accept' : 'refuse') : 'silent';
  }
  return 'silent';
}

function inRange(m: RegExpExecArray | null, value: number): SchemaVerdict {
  if (!m) return 'silent';
  const [min, below, max] = [Number(m[1]), !!m[2], Number(m[3])];
  return value >= min && (below ? value < max : value <= max) ? 'accept' : 'refuse';
}

// ---- Building requests and reading schemas ---------------------------------------------------

/** A copy of `base` with `value` at `at` (numbers index lists, created as needed). */
export function withValue(base: Record<string, unknown>, at: (string | number)[], value: unknown): Record<string, unknown> {
  const root = structuredClone(base);
  let node: Record<string | number, unknown> = root;
  at.forEach((step, i) => {
    if (i === at.length - 1) node[step] = value;
    else node = (node[step] ??= typeof at[i + 1] === 'number' ? [] : {}) as Record<string | number, unknown>;
  });
  return root;
}

/** A query string read the way its OpenAPI parameter says (numbers, booleans, form-style lists). */
export function fromQueryText(s: Record<string, unknown>, textValue: string): unknown {
  // `list=` is the empty list, as the service reads it (commaList drops empty items).
  if (s.type === 'array') return textValue === '' ? [] : textValue.split(',').map((t) => fromQueryText(s.items as Record<string, unknown>, t));
  if ((s.type === 'number' || s.type === 'integer') && /^-?\d+(\.\d+)?$/.test(textValue)) return Number(textValue);
  if (s.type === 'boolean' && (textValue === 'true' || textValue === 'false')) return textValue === 'true';
  return textValue;
}

/** The input type (or Query.field, for an argument) and field a GraphQL case reaches. */
export function graphqlOwner(schema: GraphQLSchema, field: string, at: (string | number)[]): string {
  const named = at.filter((s): s is string => typeof s === 'string');
  if (named.length === 1) return `Query.${field}.${named[0]}`;
  const parent = graphqlLocation(schema, field, at.slice(0, at.lastIndexOf(last(named))));
  return `${getNamedType(parent.type).name}.${named.at(-1)}`;
}

export function isBoundedSchema(doc: OpenAPIObject, raw: Record<string, unknown>): boolean {
  const s = resolveRef(doc, raw);
  return s.type === 'number' || s.type === 'integer' || s.type === 'array' || Array.isArray(s.enum) || (s.type === 'string' && typeof s.pattern === 'string');
}

/** Dotted paths of the bounded properties of a body schema, nested objects and lists of objects included. */
export function bodyProperties(doc: OpenAPIObject, raw: Record<string, unknown>, prefix = '', seen = new Set<string>()): string[] {
  const s = resolveRef(doc, raw);
  return Object.entries((s.properties ?? {}) as Record<string, Record<string, unknown>>).flatMap(([name, prop]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    const p = resolveRef(doc, prop);
    const items = p.type === 'array' ? resolveRef(doc, p.items as Record<string, unknown>) : null;
    const nested = p.properties ? p : items?.properties ? items : null;
    const ref = String(prop.$ref ?? (prop.allOf as { $ref?: string }[] | undefined)?.[0]?.$ref ?? (p.items as { $ref?: string } | undefined)?.$ref ?? '');
    if (nested && !seen.has(ref)) return [...(items ? [path] : []), ...bodyProperties(doc, nested, path, new Set([...seen, ref]))];
    return isBoundedSchema(doc, prop) ? [path] : [];
  });
}
