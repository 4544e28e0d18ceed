// Which process owns the embedded PostgreSQL of a data folder, so that the admin scripts can work
// beside a running `npm start` instead of failing on its port: the service writes
// `<data folder>.owner.json` (its pid and connection string) once its embedded server runs and
// removes it when it stops; a script that finds a live owner uses that server.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface EmbeddedOwner {
  pid: number;
  url: string;
  port: number;
  startedAt: string;
}

export const ownerFileOf = (dataDir: string): string => `${path.resolve(dataDir)}.owner.json`;

/** Records this process as the owner of the data folder's running server. */
export async function recordOwner(dataDir: string, owner: Omit<EmbeddedOwner, 'pid' | 'startedAt'>): Promise<void> {
  const record: EmbeddedOwner = { pid: process.pid, startedAt: new Date().toISOString(), ...owner };
  await writeFile(ownerFileOf(dataDir), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}

/** Removes the record when this process wrote it. */
export async function forgetOwner(dataDir: string): Promise<void> {
  const owner = await readOwner(dataDir);
  if (owner?.pid === process.pid) await rm(ownerFileOf(dataDir), { force: true });
}

/** The owner of the data folder's server when the record names a process that still runs; else null. */
export async function runningOwner(dataDir: string): Promise<EmbeddedOwner | null> {
  const owner = await readOwner(dataDir);
  return owner && owner.pid !== process.pid && alive(owner.pid) ? owner : null;
}

async function readOwner(dataDir: string): Promise<EmbeddedOwner | null> {
  try {
    const parsed = JSON.parse(await readFile(ownerFileOf(dataDir), 'utf8')) as Partial<EmbeddedOwner>;
    return typeof parsed.pid === 'number' && typeof parsed.url === 'string' && typeof parsed.port === 'number' && typeof parsed.startedAt === 'string'
      ? (parsed as EmbeddedOwner)
      : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
