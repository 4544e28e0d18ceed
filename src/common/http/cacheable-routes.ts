// Which REST reads the response cache and HTTP caching serve (ETag, Cache-Control, 304): the rule
// the HTTP layer applies (modules/http/response-cache.ts) and the OpenAPI document states per
// operation (common/openapi/finish-document.ts).
const NOT_CACHED = new Set(['/v1/catalog/versions', '/v1/catalog/diff']);

/** Does a GET of this REST route get an ETag, Cache-Control and 304 answers? */
export const isHttpCacheableGet = (route: string): boolean => route.startsWith('/v1/') && !NOT_CACHED.has(route);
