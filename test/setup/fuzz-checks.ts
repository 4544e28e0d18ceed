// The checks every fuzzer applies to an answer, whatever produced the input (test/fuzz.e2e-spec.ts
// mutates hand-written documents, test/schema-fuzz.e2e-spec.ts derives them from openapi.json and
// schema.gql): no 5xx (or, over GraphQL, no INTERNAL_SERVER_ERROR, GraphQL's 5xx), nothing
// internal leaked, every REST error a well-formed problem+json, every GraphQL error with a code.

/** What the checks read of an answer: supertest's Response has this shape, and so do fetch answers once read. */
export interface Answer {
  status: number;
  text: string;
  headers: Record<string, unknown>;
  body: unknown;
}

// Internals that must never reach a client. Only what random input cannot plausibly echo back.
const LEAK = /\n\s*at \S|\bat (?:async )?[\w$.<>]+ \((?:file|node):|node_modules|PrismaClient|Invalid `prisma|\/dist\/src\//;

function show(sent: unknown, res: Answer): string {
  const text = typeof sent === 'string' ? sent : JSON.stringify(sent);
  return `sent: ${text === undefined ? '(nothing)' : text.slice(0, 3000)}\ngot ${res.status}: ${res.text.slice(0, 2000)}`;
}

/** REST: no 5xx; a non-2xx is problem+json with type, title, status, detail, code (and valid errors). */
export function checkRest(sent: unknown, res: Answer): void {
  const fail = (why: string) => {
    throw new Error(`${why}\n${show(sent, res)}`);
  };
  if (res.status >= 500) fail(`5xx answer`);
  if (LEAK.test(res.text) && !LEAK.test(typeof sent === 'string' ? sent : (JSON.stringify(sent) ?? ''))) fail('the answer exposes internals');
  // 304 (If-None-Match) has no body by definition.
  if (res.status < 300 || res.status === 304) return;
  if (!String(res.headers['content-type']).includes('application/problem+json')) fail('a non-2xx answer that is not application/problem+json');
  const b = res.body as Record<string, unknown>;
  if (typeof b.type !== 'string' || typeof b.title !== 'string' || typeof b.detail !== 'string' || typeof b.code !== 'string' || b.status !== res.status) {
    fail('a problem+json without type, title, detail, code or the right status');
  }
  if (b.errors !== undefined) {
    const ok =
      Array.isArray(b.errors) && b.errors.every((e: { field?: unknown; message?: unknown }) => typeof e.field === 'string' && typeof e.message === 'string');
    if (!ok) fail('errors is not a list of { field, message }');
  }
  if (b.code === 'REQUEST.INVALID' && !(Array.isArray(b.errors) && b.errors.length > 0)) fail('a validation error without errors[]');
}

/** GraphQL: no 5xx and no INTERNAL_SERVER_ERROR; every error has extensions.code and no stacktrace. */
export function checkGraphql(sent: unknown, res: Answer): void {
  const fail = (why: string) => {
    throw new Error(`${why}\n${show(sent, res)}`);
  };
  if (res.status >= 500) fail('5xx answer');
  // A body that is not a JSON object never reaches GraphQL: the HTTP layer answers it in the
  // service's REST error format, which must then be well-formed.
  if (String(res.headers['content-type']).includes('application/problem+json')) return checkRest(JSON.stringify(sent) ?? '', res);
  if (LEAK.test(res.text) && !LEAK.test(JSON.stringify(sent) ?? '')) fail('the answer exposes internals');
  const errors = (res.body as { errors?: { message?: unknown; extensions?: Record<string, unknown> }[] } | null)?.errors;
  if (res.status >= 300 && !errors?.length) fail('a non-2xx answer without errors');
  for (const e of errors ?? []) {
    if (typeof e.message !== 'string') fail('an error without a message');
    if (typeof e.extensions?.code !== 'string') fail('an error without extensions.code');
    if (e.extensions?.code === 'INTERNAL_SERVER_ERROR') fail('INTERNAL_SERVER_ERROR (a server fault) for a client input');
    if (e.extensions && ('stacktrace' in e.extensions || 'exception' in e.extensions)) fail('an error exposing a stack trace');
  }
}
