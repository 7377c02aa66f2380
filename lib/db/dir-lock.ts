// One process per embedded database: PGlite keeps its data directory open in memory, and a second
// process writing the same files would corrupt it. The owner's pid sits in <dir>/silo.pid; a pid
// file whose process is gone (a crash, a SIGKILL) is taken over.
import { openSync, readFileSync, renameSync, unlinkSync, writeFileSync, closeSync } from 'node:fs';
import path from 'node:path';

export class DirectoryInUse extends Error {
  override readonly name = 'DirectoryInUse';
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `another Silo process (pid ${pid}) is using the embedded database in ${dir}; stop it first, ` +
        `or run several instances on PostgreSQL (DATABASE_URL)`,
    );
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A recycled pid of some other program does not hold the directory.
  try {
    return /node/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true;
  }
}

/** Takes the directory for this process (until it exits) or throws DirectoryInUse. */
export function lockDirectory(dir: string): () => void {
  const file = path.join(dir, 'silo.pid');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeFileSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return release(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number(readFileSync(file, 'utf8').trim());
    if (holder === process.pid) return release(file);
    if (alive(holder)) throw new DirectoryInUse(dir, holder);
    // Stale: replace it atomically, then loop to confirm nobody else did the same.
    const tmp = `${file}.${process.pid}`;
    writeFileSync(tmp, `${process.pid}\n`);
    renameSync(tmp, file);
    if (Number(readFileSync(file, 'utf8').trim()) === process.pid) return release(file);
  }
  throw new Error(`could not take ${file}`);
}

function release(file: string) {
  const unlock = () => {
    try {
      if (Number(readFileSync(file, 'utf8').trim()) === process.pid) unlinkSync(file);
    } catch {}
  };
  process.once('exit', unlock);
  return unlock;
}
