// How the service is started in production, read from package.json's `start:prod` script (the one
// place that says it: environment assignments, then `node`, its flags and the bundle), so that the
// benchmark and the tests start the very same thing. docs/operations.md, "Operating it", says why these settings.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function packageJson(): string {
  // This file runs from scripts/ (tests) and from dist/scripts/ (the benchmark).
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error('package.json not found');
  }
}

export function serviceCommand(): { env: Record<string, string>; args: string[] } {
  const pkg = JSON.parse(readFileSync(packageJson(), 'utf8')) as { scripts: Record<string, string> };
  const words = (pkg.scripts['start:prod'] ?? '').trim().split(/\s+/);
  const env: Record<string, string> = {};
  for (let word = words[0]; word !== undefined && /^[A-Z_][A-Z0-9_]*=/.test(word); word = words[0]) {
    words.shift();
    const at = word.indexOf('=');
    env[word.slice(0, at)] = word.slice(at + 1);
  }
  if (words.shift() !== 'node') throw new Error('package.json start:prod must start with node (after environment assignments)');
  return { env, args: words };
}
