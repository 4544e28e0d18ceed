import type { OpenAPIObject } from '@nestjs/swagger';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { AtMostOneOf, ExactlyOneOf } from '../inputs/input-field.js';
import { finishOpenApiDocument } from './finish-document.js';

// The rules of the body's class, found by its schema name.
@ExactlyOneOf('rps', 'profile')
@AtMostOneOf('version', 'asOf')
class Ask {}

/** A 3.0 document as @nestjs/swagger writes it: a nullable reference, a nullable string, a boolean exclusiveMaximum. */
const generated = (): OpenAPIObject => ({
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths: {
    '/v1/things': {
      get: {
        parameters: [{ in: 'query', name: 'currency', schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } }, 'text/csv': {} } } },
      },
    },
    '/v1/catalog/versions': { get: { responses: { '200': { description: 'ok' } } } },
    '/v1/estimates': {
      post: {
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Ask' } } } },
        responses: { '200': { description: 'ok' }, '422': { description: 'The workload cannot be served' } },
      },
    },
    '/health/live': { get: { responses: { '200': { description: 'ok' } } } },
  },
  components: {
    schemas: {
      [Ask.name]: {
        type: 'object',
        properties: {
          version: { type: 'string' },
          asOf: { type: 'string' },
          rps: { type: 'number' },
          profile: { type: 'array', items: { type: 'number' } },
          part: { $ref: '#/components/schemas/Part' },
        },
      },
      Part: { type: 'object', properties: { n: { type: 'number' } } },
      Money: { type: 'object', required: ['amount'], properties: { amount: { type: 'string' } } },
      Thing: {
        type: 'object',
        required: ['upfront', 'name', 'share'],
        properties: {
          upfront: { type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/Money' }] },
          name: { type: 'string', nullable: true },
          share: { type: 'number', minimum: 0, maximum: 1, exclusiveMaximum: true },
          money: { allOf: [{ $ref: '#/components/schemas/Money' }], description: 'one reference' },
        },
      },
    },
  },
});

describe('finishOpenApiDocument', () => {
  const doc = finishOpenApiDocument(generated(), { servers: [] });
  const validator = () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    return ajv.compile({ $ref: 'doc#/components/schemas/Thing' });
  };

  it('writes nullable values so that a JSON Schema 2020-12 validator accepts null and still checks the object', () => {
    const valid = validator();
    expect(valid({ upfront: null, name: null, share: 0.5 })).toBe(true);
    expect(valid({ upfront: { amount: '1.00' }, name: 'x', share: 0 })).toBe(true);
    // Still checked when not null: a Money without amount, and a share of 1 (exclusive maximum).
    expect(valid({ upfront: {}, name: 'x', share: 0.5 })).toBe(false);
    expect(valid({ upfront: null, name: 'x', share: 1 })).toBe(false);
    expect(JSON.stringify(doc)).not.toContain('nullable');
    expect(doc.openapi).toBe('3.1.0');
  });

  it('makes request bodies as strict as the validation: no unknown property, at any depth, and the rules across fields', () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    const valid = ajv.compile({ $ref: 'doc#/components/schemas/Ask' });
    expect(valid({ rps: 1 })).toBe(true);
    expect(valid({ profile: [1], version: 'v', part: { n: 1 } })).toBe(true);
    expect(valid({ rps: 1, extra: true })).toBe(false);
    expect(valid({ rps: 1, part: { n: 1, extra: 1 } })).toBe(false);
    // Exactly one of rps and profile.
    expect(valid({})).toBe(false);
    expect(valid({ rps: 1, profile: [1] })).toBe(false);
    // At most one of version and asOf.
    expect(valid({ rps: 1, version: 'v', asOf: 'a' })).toBe(false);
    // A schema only answers carry stays open to additions.
    expect(doc.components?.schemas?.Thing).not.toHaveProperty('additionalProperties');
  });

  it('lists the errors each operation can answer as problem+json, with Retry-After on 429 and 503', () => {
    const things = doc.paths['/v1/things']?.get?.responses ?? {};
    expect(Object.keys(things).sort()).toEqual(['200', '304', '400', '401', '422', '429', '431', '500', '503']);
    expect(things['400']).toMatchObject({ content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });
    expect(things['503']).toMatchObject({ headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } });
    const estimate = doc.paths['/v1/estimates']?.post?.responses ?? {};
    // 404: the body names a catalog version.
    expect(Object.keys(estimate).sort()).toEqual(['200', '400', '401', '404', '413', '415', '422', '429', '431', '500', '503']);
    expect(estimate['422']).toMatchObject({ description: 'The workload cannot be served' });
    // Health needs no key and keeps its own answers.
    expect(doc.paths['/health/live']?.get).toMatchObject({ security: [], responses: { '200': { description: 'ok' } } });
    expect(Object.keys(doc.paths['/health/live']?.get?.responses ?? {})).toEqual(['200']);
  });

  it('documents 304 and the ETag only where the response cache answers them, and CSV as a string with its cursor header', () => {
    expect(doc.paths['/v1/catalog/versions']?.get?.responses).not.toHaveProperty('304');
    const ok = doc.paths['/v1/things']?.get?.responses['200'] as { content: Record<string, unknown>; headers: Record<string, unknown> };
    expect(ok.content['text/csv']).toMatchObject({ schema: { type: 'string' } });
    expect(Object.keys(ok.headers).sort()).toEqual(['Cache-Control', 'ETag', 'X-Next-Cursor']);
  });

  it('lists the configured servers, or this service', () => {
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) as unknown }]);
    expect(finishOpenApiDocument(generated(), { servers: ['https://gpu-cost.example.com', 'https://eu.example.com'] }).servers).toEqual([
      { url: 'https://gpu-cost.example.com' },
      { url: 'https://eu.example.com' },
    ]);
  });
});
