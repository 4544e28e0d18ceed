// Holds the service to its OpenAPI document: every answer an e2e test receives through
// TestServer.http() is checked against openapi.json (which test/contract.e2e-spec.ts holds equal to
// the served document) with a standard JSON Schema 2020-12 validator (ajv): its status must be
// documented for the operation, its media type too, and its body must match the schema.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type OpenApi = { paths: Record<string, Record<string, Operation>> };

export interface ReceivedResponse {
  method: string;
  /** Path with query string, as sent. */
  url: string;
  status: number;
  contentType: string | undefined;
  body: unknown;
  text: string | undefined;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

export class OpenApiContract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: { template: string; pattern: RegExp }[];

  constructor(private readonly doc: OpenApi) {
    addFormats.default(this.ajv);
    this.ajv.addSchema(doc, 'openapi.json');
    this.routes = Object.keys(doc.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    }));
  }

  static fromFile(file = 'openapi.json'): OpenApiContract {
    return new OpenApiContract(JSON.parse(readFileSync(file, 'utf8')) as OpenApi);
  }

  /** Compiles every response schema now, so that no request a test times pays for a compilation. */
  warm(): this {
    for (const [template, ops] of Object.entries(this.doc.paths)) {
      for (const [method, operation] of Object.entries(ops)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          for (const [mediaType, media] of Object.entries(response.content ?? {})) {
            if (media.schema !== undefined) this.validator(this.refOf(template, method, status, mediaType));
          }
        }
      }
    }
    return this;
  }

  private refOf(template: string, method: string, status: string, mediaType: string): string {
    return `openapi.json#/${pointer('paths', template, method, 'responses', status, 'content', mediaType, 'schema')}`;
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    return validate;
  }

  /**
   * What is wrong with a response by the document, or [] when it conforms. Requests to a path or
   * method the document does not describe (unknown routes, GraphQL) are not its business: [].
   */
  violations(res: ReceivedResponse): string[] {
    const path = res.url.split('?')[0] ?? res.url;
    const method = res.method.toLowerCase() === 'head' ? 'get' : res.method.toLowerCase();
    const route = this.routes.find((r) => r.pattern.test(path));
    const operation = route ? this.doc.paths[route.template]?.[method] : undefined;
    if (!route || !operation) return [];
    const where = `${res.method} ${res.url} → ${res.status}`;
    const documented = operation.responses[String(res.status)] ?? operation.responses.default;
    if (!documented) return [`${where}: status ${res.status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`];
    const hasBody = res.method.toLowerCase() !== 'head' && res.status !== 304 && res.status !== 204 && (res.text ?? '') !== '';
    if (!hasBody) return [];
    const mediaType = res.contentType?.split(';')[0]?.trim().toLowerCase() ?? '(none)';
    const content = documented.content ?? {};
    if (!Object.hasOwn(content, mediaType))
      return [`${where}: media type ${mediaType} is not documented (documented: ${Object.keys(content).join(', ') || 'none'})`];
    if (content[mediaType]?.schema === undefined) return [];
    const validate = this.validator(this.refOf(route.template, method, documented === operation.responses.default ? 'default' : String(res.status), mediaType));
    const body = mediaType.includes('json') ? res.body : res.text;
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${where}: body${e.instancePath} ${e.message ?? 'is invalid'} (${e.schemaPath})`);
  }
}
