// The dashboard's build: web/ → dist/web/, which the service serves at / (src/modules/http/dashboard.ts).
// Everything is bundled (no CDN); the service's Content-Security-Policy allows scripts and styles
// from its own origin only, so nothing may be inlined into index.html. Each script, style and the
// page are also written brotli- and gzip-compressed, which the service sends to browsers that
// accept them (it does not compress on the fly).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';

const outDir = path.resolve(import.meta.dirname, '../dist/web');

function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    async closeBundle() {
      const files = await readdir(outDir, { recursive: true });
      for (const file of files.filter((f) => /\.(js|css|html|svg)$/.test(f))) {
        const full = path.join(outDir, file);
        const body = await readFile(full);
        await writeFile(`${full}.gz`, gzipSync(body, { level: 9 }));
        await writeFile(`${full}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [preact(), precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    // Never inline an asset as a data: URL.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: { proxy: { '/graphql': 'http://127.0.0.1:3000' } },
});
