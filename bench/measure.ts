// Shared by the benchmarks: the machine's own limits (fsync'd disk write, SHA-256) measured on
// the bytes of the run, the resident memory of a process group, and the CPU time of a process.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';

export const MB = 1e6;

/** The CPU time a /proc stat file (a process's or a thread's) reports: utime + stime, in clock ticks (1/100 s). */
export function cpuTicksOf(statFile: string): number {
  const fields = readFileSync(statFile, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
/** CPU time (clock ticks) of every process named postgres on the machine (the server a bench's database is on), by pid. */
export function postgresTicks(): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${p}/comm`, 'utf8').trim() === 'postgres') ticks.set(p, cpuTicksOf(`/proc/${p}/stat`));
    } catch {
      // ended since the listing
    }
  }
  return ticks;
}

/**
 * The ticks spent between two postgresTicks readings by the processes alive at the second: one that
 * ended meanwhile took its own along (counting its whole life out would make the sum negative).
 */
export function postgresTicksBetween(before: Map<string, number>, after: Map<string, number>): number {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return ticks;
}

const CHUNK = 1024 * 1024;
const block = randomBytes(CHUNK);

/** Writes `size` random bytes to `file` with fsync and returns the rate: the disk's limit. */
export async function diskWriteMBps(file: string, size: number): Promise<number> {
  const fh = await open(file, 'w');
  const t = performance.now();
  for (let done = 0; done < size; done += CHUNK) await fh.write(block.subarray(0, Math.min(CHUNK, size - done)));
  await fh.sync();
  await fh.close();
  return size / MB / ((performance.now() - t) / 1000);
}

/** Hashes the same bytes diskWriteMBps wrote: the SHA-256 limit, and the file's digest. */
export function sha256MBps(size: number): { mbps: number; digest: string } {
  const h = createHash('sha256');
  const t = performance.now();
  for (let done = 0; done < size; done += CHUNK) h.update(block.subarray(0, Math.min(CHUNK, size - done)));
  const digest = h.digest('hex');
  return { mbps: size / MB / ((performance.now() - t) / 1000), digest };
}

/** Resident memory of a whole process group, in MB. */
export function groupRssMB(pgid: number): number {
  const out = execFileSync('ps', ['-o', 'rss=', '-g', String(pgid)], { encoding: 'utf8' });
  return (
    out
      .split('\n')
      .filter(Boolean)
      .reduce((a, l) => a + Number(l.trim()), 0) / 1024
  );
}

/** groupRssMB, or 0 once the group is gone (ps finds none of it). */
export function liveGroupRssMB(pgid: number): number {
  try {
    return groupRssMB(pgid);
  } catch {
    return 0;
  }
}

/** Samples a group's RSS every 50 ms until stopped (0 once it is gone); returns the peak. */
export function watchRss(pgid: number) {
  let peak = liveGroupRssMB(pgid);
  const timer = setInterval(() => {
    peak = Math.max(peak, liveGroupRssMB(pgid));
  }, 50);
  const stop = () => {
    clearInterval(timer);
    return peak;
  };
  return { stop };
}

/** `count` sizes summing to `total`, from a few hundred bytes to about twice the mean: a varied archive. */
export function variedSizes(total: number, count: number): number[] {
  const weights = Array.from({ length: count }, (_, i) => 0.01 + ((i * 7919) % 1000) / 500);
  const sum = weights.reduce((a, b) => a + b, 0);
  const out = weights.map((w) => Math.max(200, Math.floor((w / sum) * total)));
  out[0] += total - out.reduce((a, b) => a + b, 0);
  return out;
}
