// Where an export's plan keeps its files while the ZIP is downloaded: a directory under TMPDIR,
// removed when the download ends or breaks off (plan-export.ts). A server killed mid-export cannot
// remove it, so its name says whose it is — `silo-export-<host>-<pid>-<random>` — and a server
// starting removes those of its own host whose process is gone, and those of its own pid made
// before it started (a container restarted under the same hostname often gets the same pid, as
// upload-lock.ts notes). A directory of another host (several hosts may share a TMPDIR) or of a
// process still running is left alone; so are the unnamed ones of versions before this one.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { processAlive } from '../../db/data-dir-lock';

const PREFIX = 'silo-export-';

/** The host's name as the directory names carry it: letters, digits, `.` and `_` only, at most 63. */
export const hostTag = (name = os.hostname()) => name.replace(/[^A-Za-z0-9._]/g, '_').slice(0, 63) || 'host';

/** A new directory for an export's plan (mode 0700, as mkdtemp makes it). */
export function makeExportDir(tmp = os.tmpdir()): Promise<string> {
  return mkdtemp(path.join(tmp, `${PREFIX}${hostTag()}-${process.pid}-`));
}

/** A plan's directory (makeExportDir) and its removal, safe to call twice (the ZIP's end and its abort). */
export async function planDir(tmp = os.tmpdir()): Promise<{ dir: string; dispose: () => Promise<void> }> {
  const dir = await makeExportDir(tmp);
  let disposed: Promise<void> | undefined;
  return { dir, dispose: () => (disposed ??= rm(dir, { recursive: true, force: true })) };
}

/** When this process started (ms): a directory of its pid made before is a predecessor's. */
const startedAt = Date.now() - process.uptime() * 1000;

const madeBefore = async (dir: string, t: number) => ((await stat(dir).catch(() => undefined))?.mtimeMs ?? Number.POSITIVE_INFINITY) < t;

/** Removes the export directories of this host that no running download can own; answers their names. */
export async function sweepExportDirs(tmp = os.tmpdir(), alive: (pid: number) => boolean = processAlive): Promise<string[]> {
  const mine = `${PREFIX}${hostTag()}-`;
  const removed: string[] = [];
  for (const name of await readdir(tmp).catch(() => [] as string[])) {
    if (!name.startsWith(mine)) continue;
    const pid = Number(/^(\d+)-/.exec(name.slice(mine.length))?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0) continue;
    const dir = path.join(tmp, name);
    const owned = pid === process.pid ? !(await madeBefore(dir, startedAt)) : alive(pid);
    if (owned) continue;
    await rm(dir, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
