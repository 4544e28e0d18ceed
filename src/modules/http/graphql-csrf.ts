// Apollo Server's CSRF prevention (csrfPrevention, on by default): a GraphQL request that a
// browser would send cross-site without a CORS preflight (a GET, or a POST with a "simple"
// content type) is refused unless it carries a header that forces one. The response cache answers
// GraphQL GETs before Apollo sees them (http-hooks.ts), so it asks this first. The rule is
// Apollo's (@apollo/server, preventCsrf.ts), with its default headers.

/** Headers a browser sends cross-site only after a preflight (Apollo's recommended set). */
const PREFLIGHT_HEADERS = ['x-apollo-operation-name', 'apollo-require-preflight'] as const;
/** Content types a cross-site form or fetch may send without a preflight. */
const SIMPLE_CONTENT_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

// A MIME type's essence as the WHATWG parser reads it (type/subtype, both HTTP tokens), or null.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MIME = new RegExp(`^(${TOKEN})/(${TOKEN})[\\t\\n\\r ]*(?:;|$)`);

function essence(contentType: string): string | null {
  const match = MIME.exec(contentType.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, ''));
  return match ? `${match[1]}/${match[2]}`.toLowerCase() : null;
}

/** True when Apollo would let the request through its CSRF check. */
export function preflightForced(headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  const contentType = headers['content-type'];
  if (contentType !== undefined) {
    const type = essence(Array.isArray(contentType) ? contentType.join(', ') : contentType);
    // Apollo lets an unreadable content type through: no browser sends one without a preflight.
    if (type === null || !SIMPLE_CONTENT_TYPES.has(type)) return true;
  }
  return PREFLIGHT_HEADERS.some((name) => {
    const value = headers[name];
    return value !== undefined && (Array.isArray(value) ? value.join(', ') : value).length > 0;
  });
}
