import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { embeddedDataDir } from './database-url.js';
import { ensureSharedFolder } from './embedded-runtime.js';
import { StartupError } from './startup-checks.js';

const asRoot = process.getuid?.() === 0;
// Only root can own a folder as root and hand one to another user.
const itAsRoot = asRoot ? it : it.skip;

describe(embeddedDataDir.name, () => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'data-dir-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const project = path.join(base, 'project');
  mkdirSync(project);
  const config = { EMBEDDED_PG_DATA_DIR: '.data/postgres', EMBEDDED_PG_SHARED_DIR: '/var/tmp/gpu-cost-api' };

  it("keeps the data in the project's folder when the postgres user can enter it, or when not root", () => {
    chmodSync(base, 0o755);
    expect(embeddedDataDir(config, { uid: 0, cwd: project })).toEqual({ dir: path.join(project, '.data/postgres'), movedFrom: null });
    chmodSync(base, 0o700);
    expect(embeddedDataDir(config, { uid: 1000, cwd: project })).toEqual({ dir: path.join(project, '.data/postgres'), movedFrom: null });
  });

  it('moves the default data folder of a closed project under the shared folder, one folder per checkout', () => {
    chmodSync(base, 0o700);
    const moved = embeddedDataDir(config, { uid: 0, cwd: project });
    expect(moved.movedFrom).toBe(path.join(project, '.data/postgres'));
    expect(moved.dir).toMatch(/^\/var\/tmp\/gpu-cost-api\/data\/postgres-[0-9a-f]{12}$/);
    // The same checkout finds the same folder (the service and its admin scripts); another does not.
    expect(embeddedDataDir(config, { uid: 0, cwd: project }).dir).toBe(moved.dir);
    mkdirSync(path.join(base, 'other'), { recursive: true });
    expect(embeddedDataDir(config, { uid: 0, cwd: path.join(base, 'other') }).dir).not.toBe(moved.dir);
  });

  it('uses a folder named in EMBEDDED_PG_DATA_DIR where it is, even when closed (the start-up check then says so)', () => {
    chmodSync(base, 0o700);
    const named = { ...config, EMBEDDED_PG_DATA_DIR: path.join(base, 'mine') };
    expect(embeddedDataDir(named, { uid: 0, cwd: project })).toEqual({ dir: path.join(base, 'mine'), movedFrom: null });
  });
});

describe(ensureSharedFolder.name, () => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'shared-folder-'));
  chmodSync(base, 0o755);
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  itAsRoot('creates a folder of root that others may enter, with its sub-folder, whatever the umask', async () => {
    const previous = process.umask(0o077);
    try {
      const data = await ensureSharedFolder(path.join(base, 'fresh'), 'data');
      expect(data).toBe(path.join(base, 'fresh', 'data'));
      for (const dir of [path.join(base, 'fresh'), data]) expect((statSync(dir).mode & 0o777).toString(8)).toBe('755');
    } finally {
      process.umask(previous);
    }
  });

  it('refuses a folder that others may write, or that another user owns: root would load code from it', async () => {
    const writable = path.join(base, 'writable');
    mkdirSync(writable);
    chmodSync(writable, 0o777);
    await expect(ensureSharedFolder(writable)).rejects.toThrow(StartupError);
    await expect(ensureSharedFolder(writable)).rejects.toThrow(/is not a folder of root that only root may write \(found uid \d+, mode 777\)/);
    if (asRoot) {
      const foreign = path.join(base, 'foreign');
      mkdirSync(foreign, { mode: 0o755 });
      chownSync(foreign, 12345, 12345);
      await expect(ensureSharedFolder(foreign)).rejects.toThrow(/found uid 12345, mode 755/);
    }
  });

  itAsRoot('refuses a folder behind one the postgres user cannot enter', async () => {
    const closed = path.join(base, 'closed');
    mkdirSync(closed, { mode: 0o700 });
    chmodSync(closed, 0o700);
    await expect(ensureSharedFolder(path.join(closed, 'shared'))).rejects.toThrow(`lies behind ${closed}, which the user postgres may not enter`);
  });
});
