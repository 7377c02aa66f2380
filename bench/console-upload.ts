// A 1 GiB file uploaded through the admin console in Debian's Chromium, the way an operator does:
// chosen in the dropzone, hashed in the page (above the native digest's budget: hash-wasm in a Web
// Worker), sent to the placeholder's url. Prints the browser's hashing and upload rates and both
// sides' memory next to the machine's limits measured in the same run. Run: npm run bench   (BENCH_BYTES=… for another size)
import { execFileSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { NATIVE_HASH_BUDGET } from '../lib/console/upload/hash-file';
import { call, consoleUpload, consoleWorld, reached } from './console-world';
import { MB, diskWriteMBps, groupRssMB, sha256MBps, watchRss } from './measure';

const SIZE = Number(process.env.BENCH_BYTES ?? 1024 ** 3);

async function main() {
  const dir = path.resolve('tmp', 'bench-console');
  await mkdir(dir, { recursive: true });
  console.log(`Silo console upload benchmark: ${(SIZE / 1024 ** 2).toFixed(0)} MiB in Chromium\n`);
  const source = path.join(dir, 'big.bin');
  const disk = await diskWriteMBps(source, SIZE);
  const { mbps: sha, digest } = sha256MBps(SIZE);
  const limit = Math.min(disk, sha);
  console.log(
    `machine: fsync'd disk write ${disk.toFixed(0)} MB/s, SHA-256 (Node) ${sha.toFixed(0)} MB/s → limit ${limit.toFixed(0)} MB/s`,
  );

  const world = await consoleWorld();
  try {
    const entry = await world.newEntry('big');
    const serverBase = groupRssMB(world.server.pid);
    const serverRss = watchRss(world.server.pid);
    const browserRss = watchChromium();
    const browserBase = browserRss.now();
    const timeline = await consoleUpload(world, entry, source);
    const serverPeak = serverRss.stop();
    const browserPeak = browserRss.stop();

    const files = await call('GET', `${world.server.url}/silo/v1/entries/${entry}/files`, { Authorization: `Bearer ${world.ownerKey}` });
    const stored = files.list.find((f: { name: string }) => f.name === 'big.bin');
    if (stored?.hash !== digest || !stored.stored) throw new Error(`stored file does not match: ${JSON.stringify(stored)}`);

    const hashed = reached(timeline, 'creating');
    const total = reached(timeline, 'stored');
    const hash = SIZE / MB / (hashed / 1000);
    const up = SIZE / MB / ((total - hashed) / 1000);
    const method = SIZE <= NATIVE_HASH_BUDGET ? 'WebCrypto, file read whole' : 'hash-wasm, Web Worker';
    console.log(`browser SHA-256 (${method}): ${hash.toFixed(0)} MB/s = ${(hash / sha).toFixed(2)} × Node's`);
    console.log(`upload (placeholder + PUT from the page): ${up.toFixed(0)} MB/s = ${(up / limit).toFixed(2)} × limit`);
    console.log(`total drop → stored: ${(total / 1000).toFixed(1)} s`);
    console.log(`server RSS peak − baseline ${Math.max(0, serverPeak - serverBase).toFixed(0)} MB (target ≤ 100)`);
    console.log(
      `browser (every chromium process on the machine) RSS peak − baseline ${Math.max(0, browserPeak - browserBase).toFixed(0)} MB for a ${(SIZE / 1024 ** 2).toFixed(0)} MiB file`,
    );
  } finally {
    await world.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Peak RSS of every chromium process (the benchmark's browser and its renderers and workers). */
function watchChromium() {
  const rss = () => {
    try {
      const out = execFileSync('ps', ['-C', 'chromium', '-o', 'rss='], { encoding: 'utf8' });
      return (
        out
          .split('\n')
          .filter(Boolean)
          .reduce((a, l) => a + Number(l.trim()), 0) / 1024
      );
    } catch {
      return 0;
    }
  };
  let peak = rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 100);
  const stop = () => {
    clearInterval(timer);
    return peak;
  };
  return { now: rss, stop };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
