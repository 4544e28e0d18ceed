import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { firstClosedFolder, uidOf } from './startup-checks.js';

describe(firstClosedFolder.name, () => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'closed-folder-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const me = process.getuid?.() ?? 0;

  it("lets a folder's owner in by the owner's bit, and others only by the others' bit", () => {
    const data = path.join(base, 'postgres');
    mkdirSync(data);
    chmodSync(base, 0o755);
    chmodSync(data, 0o700);
    // 0700, owned by the user that enters: open (an initialised data folder is postgres' own).
    expect(firstClosedFolder(data, me)).toBeNull();
    // The same folder for anyone else: closed.
    expect(firstClosedFolder(data, me + 12345)).toBe(data);
    // A closed folder above it closes the way for others, even to a folder that does not exist yet.
    chmodSync(base, 0o750);
    expect(firstClosedFolder(path.join(base, 'postgres', 'not-yet'), me + 12345)).toBe(base);
    chmodSync(base, 0o755);
  });
});

describe(uidOf.name, () => {
  it('reads the uid of a user from a passwd file, and null for one that is not there', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'passwd-')), 'passwd');
    writeFileSync(file, 'root:x:0:0:root:/root:/bin/bash\npostgres:x:105:110:PostgreSQL:/var/lib/postgresql:/bin/bash\n');
    expect(uidOf('postgres', file)).toBe(105);
    expect(uidOf('root', file)).toBe(0);
    expect(uidOf('nobody', file)).toBeNull();
    expect(uidOf('postgres', path.join(path.dirname(file), 'missing'))).toBeNull();
    rmSync(path.dirname(file), { recursive: true, force: true });
  });
});
