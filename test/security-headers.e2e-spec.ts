// helmet's security headers on every kind of answer the service gives, whoever makes it: a route,
// a cached copy, a 304, a refusal of the request gate, a validation error, a 404, a body too
// large, the pages and their files. The expected values are helmet 8's defaults as its
// documentation lists them, with the service's Content-Security-Policy (docs/operations.md, "Operating it").
import type { Response } from 'supertest';
import { createTestServer, type TestServer } from './setup/test-app.js';

const HELMET: Record<string, string> = {
  'content-security-policy':
    "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

const CHEAPEST = '/v1/offers/cheapest?gpu=h100-sxm-80gb&preset=GDPR_PERSONAL_DATA';

describe('security headers (e2e)', () => {
  let t: TestServer;
  let limited: TestServer;
  beforeAll(async () => {
    t = await createTestServer();
    limited = await createTestServer({ db: t.db, env: { RATE_LIMIT_PER_MINUTE: '1' } });
  });
  afterAll(async () => {
    await limited.stop();
    await t.stop();
  });

  it("are helmet's on every kind of answer, each once", async () => {
    const etag = (await t.http().get(CHEAPEST).expect(200)).headers.etag as string;
    await t.http().get(CHEAPEST).expect(200);
    await limited.http().get('/v1/gpus').expect(200);
    const answers: Record<string, Response> = {
      'REST answer': await t.http().get('/v1/gpus').expect(200),
      'cached answer': await t.http().get(CHEAPEST).expect(200),
      'not modified': await t.http().get(CHEAPEST).set('If-None-Match', etag).expect(304),
      'CSV answer': await t.http().get('/v1/offers?gpu=l4-24gb').set('Accept', 'text/csv').expect(200),
      estimate: await t
        .http()
        .post('/v1/estimates')
        .send({ model: { preset: 'llama-3-8b' }, workload: { requestsPerSecond: 1, avgInputTokens: 500, avgOutputTokens: 200 } })
        .expect(200),
      'GraphQL answer': await t.http().post('/graphql').send({ query: '{ gpus { slug } }' }).expect(200),
      'validation error': await t.http().get('/v1/offers?limit=0').expect(400),
      'body too large': await t
        .http()
        .post('/v1/estimates')
        .set('content-type', 'application/json')
        // Over the estimate route's 9 MiB (it carries measurements): answered on the declared length.
        .set('content-length', String(10 * 1024 * 1024))
        .expect(413),
      'rate limited': await limited.http().get('/v1/gpus').expect(429),
      'unknown route': await t.http().get('/no-such-page').expect(404),
      liveness: await t.http().get('/health/live').expect(200),
      metrics: await t.http().get('/metrics').expect(200),
      'OpenAPI UI': await t.http().get('/docs').expect(200),
      'dashboard page': await t.http().get('/').expect(200),
    };
    for (const [name, res] of Object.entries(answers)) {
      // Equal values also mean each was written once: a header sent twice arrives joined with a comma.
      const sent = Object.fromEntries(Object.keys(HELMET).map((header) => [header, res.headers[header] as unknown]));
      expect([name, sent]).toEqual([name, HELMET]);
    }
  });
});
