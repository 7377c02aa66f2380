// One process per embedded database: PGlite has no lock of its own, and two processes on one data
// directory corrupt it. The server and the scripts (fsck, verify-events, the seed) hold
// <DATA_DIR>/db.lock while they run; a lock whose process is gone (killed, crashed) is taken over.
import { randomUUID } from 'node:crypto';
import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The lock of the embedded database under `dataDir` (DATA_DIR). */
export const embeddedLockFile = (dataDir: string) => path.join(dataDir, 'db.lock');

interface Holder {
  pid: number;
  host: string;
  what: string;
  since: string;
}

export class DataDirInUse extends Error {
  override readonly name = 'DataDirInUse';
  constructor(
    readonly lockFile: string,
    readonly holder: Holder,
  ) {
    super(
      holder.host === os.hostname()
        ? `the embedded database is in use by ${holder.what} (pid ${holder.pid}, since ${holder.since}); stop it first`
        : `the embedded database is in use by ${holder.what} (pid ${holder.pid} on host ${holder.host}); stop it first, or remove ${lockFile} if it is no longer running`,
    );
  }
}

/**
 * A script's lock on an embedded database that must exist already (fsck, verify-events): it never
 * creates one, since an empty database would make every blob look unreferenced and every chain
 * empty. Throws when there is none under `dataDir`, else as lockDataDir; returns the release.
 */
export function lockExistingEmbedded(dataDir: string, what: string): () => void {
  const dir = path.join(dataDir, 'db');
  if (!existsSync(path.join(dir, 'PG_VERSION'))) throw new Error(`no embedded database at ${dir} (is DATA_DIR right?)`);
  return lockDataDir(embeddedLockFile(dataDir), what);
}

/** Takes the lock for `what` ("the Silo server", "fsck") or throws DataDirInUse; returns its release. */
export function lockDataDir(lockFile: string, what: string): () => void {
  const me: Holder = { pid: process.pid, host: os.hostname(), what, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    // Written aside and linked into place: the lock appears whole or not at all, and link fails
    // when it exists, so of two processes exactly one takes it.
    const tmp = `${lockFile}.${randomUUID()}`;
    writeFileSync(tmp, `${JSON.stringify(me)}\n`, { flag: 'wx' });
    let taken = false;
    try {
      linkSync(tmp, lockFile);
      taken = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkQuietly(tmp);
    }
    if (taken) {
      const release = () => {
        if (readHolder(lockFile)?.pid === process.pid) unlinkQuietly(lockFile);
      };
      process.once('exit', release);
      return release;
    }
    const holder = readHolder(lockFile);
    // A holder on another host (a container sharing the volume) cannot be checked: never guess.
    if (holder && (holder.host !== os.hostname() || (holder.pid !== process.pid && processAlive(holder.pid))))
      throw new DataDirInUse(lockFile, holder);
    unlinkQuietly(lockFile); // stale: its process is gone
  }
  throw new Error(`could not take the lock ${lockFile}`);
}

function readHolder(lockFile: string): Holder | undefined {
  try {
    const h = JSON.parse(readFileSync(lockFile, 'utf8')) as Holder;
    return typeof h.pid === 'number' ? h : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid runs on this host (EPERM: it runs, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function unlinkQuietly(file: string) {
  try {
    unlinkSync(file);
  } catch {}
}
