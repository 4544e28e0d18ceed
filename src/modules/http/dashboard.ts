// The web dashboard (web/, built by `npm run build` into dist/web/) as static files at /: one route
// per file (no wildcard, so every API route and the not-found answer stay as they are), the
// pre-compressed copies the build writes (.br, .gz) when the browser accepts them. Its files get
// the service's Content-Security-Policy like every answer (app.setup.ts, CSP_DIRECTIVES): scripts
// from this origin only, no inline script, no eval, nothing from another origin.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** Serves `dir` at / when it holds a built dashboard; answers whether it does. */
export async function serveDashboard(app: NestFastifyApplication, dir: string): Promise<boolean> {
  if (!dir) return false;
  const root = path.resolve(dir);
  if (!existsSync(path.join(root, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    // The page at / is the route below: @fastify/static's own index misses the pre-compressed
    // copies with wildcard off (a 404 for any browser that sends Accept-Encoding).
    index: false,
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    // Hashed file names under assets/ never change; the page itself is checked on every load.
    cacheControl: false,
    setHeaders: (reply, file) => {
      void reply.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app
    .getHttpAdapter()
    .getInstance()
    .get('/', (_request, reply) => reply.sendFile('index.html'));
  return true;
}
