// An export's plan directory says whose it is (export-dirs.ts), and a starting server removes those
// of its host that no running download can own: a process that is gone, or its own pid's from
// before it started. Another host's, a running process's, its own new ones and other names stay.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostTag, makeExportDir, sweepExportDirs } from './export-dirs';

/** The pid of a process that has ended. */
async function endedPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

describe('export directories left behind', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'silo-export-dirs-test-'));
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  it('names a new one by host and pid, under the given directory, mode 0700', async () => {
    const dir = await makeExportDir(tmp);
    expect(path.dirname(dir)).toBe(tmp);
    expect(path.basename(dir)).toMatch(new RegExp(`^silo-export-${hostTag().replace(/\./g, '\\.')}-${process.pid}-\\w{6}$`));
    expect(hostTag('db-1.example')).toBe('db_1.example');
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    await rm(dir, { recursive: true });
  });

  it("removes those of this host's processes that are gone and its own pid's from before it started; leaves the rest", async () => {
    const host = hostTag();
    const dead = await endedPid();
    const running = spawn('sleep', ['30']);
    try {
      const make = async (name: string) => {
        await mkdir(path.join(tmp, name));
        await writeFile(path.join(tmp, name, 'files.csv'), 'x');
        return name;
      };
      const gone = await make(`silo-export-${host}-${dead}-aaaaaa`);
      const predecessor = await make(`silo-export-${host}-${process.pid}-bbbbbb`);
      const old = new Date(Date.now() - process.uptime() * 1000 - 60_000);
      await utimes(path.join(tmp, predecessor), old, old);
      const kept = [
        await make(`silo-export-${host}-${running.pid}-cccccc`), // a running process's
        await make(`silo-export-${host}-${process.pid}-dddddd`), // this process's own, made now
        await make(`silo-export-other_host-${dead}-eeeeee`), // another host's
        await make('silo-export-ffffff'), // an unnamed one (before this version)
        await make(`silo-export-${host}x-${dead}-gggggg`), // a host whose name only begins like this one's
        await make('something-else'),
      ];
      const removed = await sweepExportDirs(tmp);
      expect(removed.sort()).toEqual([gone, predecessor].sort());
      expect((await readdir(tmp)).sort()).toEqual(kept.sort());
    } finally {
      running.kill();
    }
  });

  it('answers nothing for a directory that is not there', async () => {
    expect(await sweepExportDirs(path.join(tmp, 'missing'))).toEqual([]);
  });
});
