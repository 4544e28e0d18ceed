// scripts/test-prerequisites.mjs, which npm test and .ci/run run before jest: what it decides about
// missing programs, and what a user without apt rights sees.
import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { plan, PREREQUISITES } from '../scripts/test-prerequisites.mjs';

const byName = (name: string) => {
  const found = PREREQUISITES.find((p) => p.name.startsWith(name));
  if (!found) throw new Error(`no prerequisite ${name}`);
  return found;
};

describe(plan.name, () => {
  const chromium = byName('Chromium');
  const prometheus = byName('Prometheus');
  const nginx = byName('nginx');

  it('does nothing when every program is there', () => {
    expect(plan({ missing: [], isRoot: false, hasAptGet: true })).toEqual({ action: 'none' });
  });

  it("installs the missing programs' Debian packages as root with apt-get", () => {
    expect(plan({ missing: [chromium, prometheus, nginx], isRoot: true, hasAptGet: true })).toEqual({
      action: 'install',
      packages: ['chromium', 'prometheus', 'nginx'],
    });
  });

  it('stops without apt rights, in one line that names what is missing, what needs it and the command', () => {
    const decision = plan({ missing: [chromium, prometheus], isRoot: false, hasAptGet: true });
    expect(decision).toEqual({
      action: 'stop',
      line: 'npm test needs Chromium (the dashboard and GraphiQL browser tests), Prometheus and promtool (the measurement tests), which this machine lacks: sudo apt-get install -y chromium prometheus, then run npm test again.',
    });
  });

  it('names the packages for another package manager where there is no apt-get, even as root', () => {
    expect(plan({ missing: [nginx], isRoot: true, hasAptGet: false })).toEqual({
      action: 'stop',
      line: 'npm test needs nginx (the fleet test), which this machine lacks: install nginx with your package manager, then run npm test again.',
    });
  });

  it('knows each program the tests start by its Debian package', () => {
    expect(PREREQUISITES.flatMap((p) => p.packages).sort()).toEqual([
      'chromium',
      'fonts-noto-color-emoji',
      'nginx',
      'postgresql',
      'prometheus',
      'redis-server',
    ]);
  });
});

describe('scripts/test-prerequisites.mjs run by a user without apt rights', () => {
  it('stops with exit code 1 and one line naming the apt-get command, on a PATH without prometheus', async () => {
    // A copy the user nobody can read, and a PATH with a shell and apt-get only: Prometheus, which is
    // found on the PATH alone, is missing whatever this machine has installed.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'prerequisites-'));
    try {
      await mkdir(path.join(dir, 'bin'));
      await copyFile('scripts/test-prerequisites.mjs', path.join(dir, 'test-prerequisites.mjs'));
      await symlink('/bin/sh', path.join(dir, 'bin', 'sh'));
      await symlink('/usr/bin/apt-get', path.join(dir, 'bin', 'apt-get'));
      await chmod(dir, 0o755);
      const script = [process.execPath, path.join(dir, 'test-prerequisites.mjs')];
      const [command, args] = process.getuid?.() === 0 ? ['/usr/sbin/runuser', ['-u', 'nobody', '--', ...script]] : [script[0] ?? 'node', script.slice(1)];
      const result = await promisify(execFile)(command, args, { env: { PATH: path.join(dir, 'bin'), HOME: dir } }).then(
        ({ stderr }) => ({ code: 0, stderr }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
      expect(result.code).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^npm test needs .*Prometheus and promtool \(the measurement tests\).*: sudo apt-get install -y (\S+ )*prometheus( \S+)*, then run npm test again\.$/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
