// The service's start command is written in three places: package.json's `start` (the quick start)
// and `start:prod` (what the tests and the benchmark start, scripts/service-command.ts), and the
// Dockerfile. The memory settings in them (docs/adr/0004-memory-flags-in-npm-start.md) must agree,
// or what is measured is not what ships.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

interface Start {
  env: Record<string, string>;
  args: string[];
}

/** `A=1 B=2 node --flag file.js` as its environment and node's arguments. */
function parseCommand(command: string): Start {
  const words = command.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [name = '', value = ''] = (words.shift() ?? '').split('=');
    env[name] = value;
  }
  if (words.shift() !== 'node') throw new Error(`not a node command: ${command}`);
  return { env, args: words };
}

describe('the start command', () => {
  it('is the same in npm start, npm run start:prod and the Dockerfile', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> };
    const prod = parseCommand(pkg.scripts['start:prod'] ?? '');
    // npm start first rebuilds when the sources changed (scripts/ensure-built.mjs), then starts the same.
    const start = parseCommand((pkg.scripts.start ?? '').replace(/^node scripts\/ensure-built\.mjs && /, ''));
    expect(start).toEqual(prod);

    const dockerfile = await readFile('Dockerfile', 'utf8');
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[];
    const dockerEnv = Object.fromEntries(
      [...dockerfile.matchAll(/^ENV (.+)$/gm)].flatMap((m) => (m[1] ?? '').split(/\s+/).map((pair) => pair.split('=') as [string, string])),
    );
    expect(cmd).toEqual(['node', ...prod.args]);
    for (const [name, value] of Object.entries(prod.env)) expect([name, dockerEnv[name]]).toEqual([name, value]);
    expect(Object.keys(prod.env).length).toBeGreaterThan(0);
  });
});

describe('the Node version check (scripts/check-node.mjs)', () => {
  /** Runs the check in a copy of the project whose package.json asks for `engines`. */
  const checkWith = async (engines: string): Promise<{ code: number; stderr: string }> => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'check-node-'));
    try {
      await mkdir(path.join(dir, 'scripts'));
      await copyFile('scripts/check-node.mjs', path.join(dir, 'scripts/check-node.mjs'));
      await writeFile(path.join(dir, 'package.json'), JSON.stringify({ engines: { node: engines } }));
      return await promisify(execFile)(process.execPath, [path.join(dir, 'scripts/check-node.mjs')]).then(
        ({ stderr }) => ({ code: 0, stderr }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  it('says in one line which Node is needed and which one runs, and stops', async () => {
    const { code, stderr } = await checkWith('>=99.1');
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^This project needs Node >=99\\.1 .*this is Node ${process.versions.node.replaceAll('.', '\\.')}\\.`)),
    ]);
  });

  it('passes quietly on the Node that runs the tests (package.json asks for it)', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { engines: { node: string } };
    expect(await checkWith(pkg.engines.node)).toEqual({ code: 0, stderr: '' });
  });
});
