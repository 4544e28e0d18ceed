// Which methods each path answers, for the 405 of a known path asked with another method
// (problem-details.filter.ts). Fastify's router answers "no route" for both an unknown path and
// a known path with a wrong method; the table tells them apart.
import type { FastifyInstance } from 'fastify';

interface Route {
  pattern: RegExp;
  methods: Set<string>;
}

const tables = new WeakMap<FastifyInstance, Map<string, Route>>();

/** Records every route added from now on (call before the application registers its routes). */
export function recordRoutes(fastify: FastifyInstance): void {
  const table = new Map<string, Route>();
  tables.set(fastify, table);
  fastify.addHook('onRoute', ({ method, url }) => {
    const path = trimSlash(url);
    let route = table.get(path);
    if (!route) table.set(path, (route = { pattern: patternOf(path), methods: new Set() }));
    for (const m of Array.isArray(method) ? method : [method]) route.methods.add(m.toUpperCase());
  });
}

/** The methods a path answers, sorted, or none for a path no route matches. */
export function allowedMethods(fastify: FastifyInstance, url: string): string[] {
  const table = tables.get(fastify);
  if (!table) return [];
  const q = url.indexOf('?');
  const path = trimSlash(q < 0 ? url : url.slice(0, q));
  const methods = new Set<string>();
  for (const route of table.values()) if (route.pattern.test(path)) for (const m of route.methods) methods.add(m);
  return [...methods].sort();
}

// Routes are registered with ignoreTrailingSlash (app.setup.ts): `/v1/gpus/` is `/v1/gpus`.
function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** find-my-way's syntax as a regular expression: `:name` is one segment, `*` the rest. */
function patternOf(path: string): RegExp {
  const source = path
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}
