import { readFile } from 'node:fs/promises';
import type { IntrospectionQuery } from 'graphql';
import { INTROSPECTION_QUERY, printIntrospection } from '../src/common/schema-printer.js';
import { createTestServer, SMALL_CATALOG, type TestServer } from './setup/test-app.js';

describe('published contract (e2e)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer({ catalog: SMALL_CATALOG });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('serves the GraphQL schema committed as schema.gql (run npm run docs:generate after changing it)', async () => {
    const res = await t.http().post('/graphql').send({ query: INTROSPECTION_QUERY }).expect(200);
    const served = printIntrospection(res.body.data as IntrospectionQuery);
    expect(served).toBe(await readFile('schema.gql', 'utf8'));
  });

  it('has no Mutation type: the HTTP surface changes nothing', async () => {
    const res = await t.graphql<{ __schema: { queryType: { name: string }; mutationType: null } }>('{ __schema { queryType { name } mutationType { name } } }');
    expect(res.data.__schema).toEqual({ queryType: { name: 'Query' }, mutationType: null });
  });

  it('serves the OpenAPI document committed as openapi.json, and its UI at /docs', async () => {
    const res = await t.http().get('/openapi.json').expect(200);
    expect(res.body).toEqual(JSON.parse(await readFile('openapi.json', 'utf8')));
    expect(res.body.openapi).toMatch(/^3\./);
    const docs = await t.http().get('/docs').redirects(1).expect(200);
    expect(docs.text).toContain('swagger-ui');
  });

  it('exposes Prometheus metrics with per-route request counts and latency histograms', async () => {
    await t.http().get('/v1/gpus').expect(200);
    const res = await t.http().get('/metrics').expect(200);
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/v1\/gpus",status="200"\} \d+/);
    expect(res.text).toMatch(/http_request_duration_seconds_bucket\{le="[0-9.]+",method="GET",route="\/v1\/gpus"\}/);
  });

  it('answers liveness and readiness, naming the catalog version', async () => {
    await t.http().get('/health/live').expect(200);
    const ready = await t.http().get('/health/ready').expect(200);
    expect(ready.body.info.catalog).toMatchObject({ status: 'up', version: 'fixture-1' });
    expect(ready.body.info.database).toMatchObject({ status: 'up', pendingMigrations: 0 });
  });

  it('answers unknown routes with 404 problem+json', async () => {
    const res = await t.http().get('/v1/nothing-here').expect(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 404, title: 'Not Found' });
  });
});
