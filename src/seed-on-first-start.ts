// The first start against an empty database: the catalog in CATALOG_DIR is imported and published
// by the admin script (`catalog.js seed`, the bundle beside this one) in a process of its own, so
// that the service never loads the catalog's write code (docs/architecture.md, "Boundaries").
// A second or two on the first start only; every later start finds a catalog and skips this.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from './config/app-config.js';

/** The admin script: dist/app/catalog.js beside the bundled service, or dist/scripts/catalog.js beside dist/src. */
function catalogScript(): string {
  const candidates = ['./catalog.js', '../scripts/catalog.js'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`the catalog admin script is missing (looked for ${candidates.join(', ')}); run npm run build`);
  return found;
}

/** Runs `catalog.js seed` against `databaseUrl`; rejects with what the script printed when it fails. */
export async function seedOnFirstStart(config: AppConfig, databaseUrl: string): Promise<void> {
  const script = catalogScript();
  const child = spawn(process.execPath, [script, 'seed'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, CATALOG_DIR: config.CATALOG_DIR },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(output.trim() || `catalog.js seed exited with ${code}`);
}
