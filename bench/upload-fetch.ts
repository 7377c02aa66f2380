// Streams a large file (default 1 GiB) up through a placeholder's url and back down, against a
// real server, and prints MB/s and the server's RSS growth next to this machine's own limits
// (fsync'd disk write, SHA-256) measured in the same run. Target: upload ≥ 0.8 × the slower limit.
// Run: npm run bench   (BENCH_BYTES=268435456 npm run bench for a quicker run)
import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer } from '../e2e/fixtures/server';
import { MB, diskWriteMBps, groupRssMB, sha256MBps, watchRss } from './measure';

const SIZE = Number(process.env.BENCH_BYTES ?? 1024 ** 3);

async function main() {
  const dir = path.resolve('tmp', 'bench');
  await mkdir(dir, { recursive: true });
  console.log(`Silo upload/fetch benchmark: ${(SIZE / 1024 ** 2).toFixed(0)} MiB\n`);
  const source = path.join(dir, 'source.bin');
  const disk = await diskWriteMBps(source, SIZE);
  const { mbps: sha, digest } = sha256MBps(SIZE);
  const limit = Math.min(disk, sha);
  console.log(`machine: fsync'd disk write ${disk.toFixed(0)} MB/s, SHA-256 ${sha.toFixed(0)} MB/s → limit ${limit.toFixed(0)} MB/s`);

  const server = await startServer({ database: 'pglite' });
  try {
    const auth = { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' };
    const owner = await (
      await fetch(`${server.url}/admin/v1/owners`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'bench' }) })
    ).json();
    const key = { Authorization: `Bearer ${owner.api_keys[0].key}`, 'Content-Type': 'application/json' };
    const entry = await (await fetch(`${server.url}/silo/v1/entries`, { method: 'POST', headers: key, body: '{}' })).json();
    const p = await (
      await fetch(`${server.url}/silo/v1/entries/${entry.id}/files`, {
        method: 'POST',
        headers: key,
        body: JSON.stringify({ name: 'bench.bin', mime: 'application/octet-stream', sha256: digest, size: SIZE }),
      })
    ).json();

    // curl is the client: a separate, lean process, so the numbers are the server's.
    const curl = promisify(execFile);
    const baseline = groupRssMB(server.pid);
    const upRss = watchRss(server.pid);
    let t = performance.now();
    const put = await curl(
      'curl',
      ['-sS', '-o', '-', '-w', '\n%{http_code}', '-T', source, '-H', 'Content-Type: application/octet-stream', p.url],
      { maxBuffer: 1 << 20 },
    );
    const upSeconds = (performance.now() - t) / 1000;
    const upPeak = upRss.stop();
    if (!put.stdout.trim().endsWith('200')) throw new Error(`upload failed: ${put.stdout}`);

    const downRss = watchRss(server.pid);
    t = performance.now();
    const got = await curl('curl', ['-sS', '-o', '/dev/null', '-w', '%{size_download}', p.url]);
    const downSeconds = (performance.now() - t) / 1000;
    const downPeak = downRss.stop();
    if (Number(got.stdout) !== SIZE) throw new Error(`fetched ${got.stdout} bytes, expected ${SIZE}`);

    const up = SIZE / MB / upSeconds;
    const down = SIZE / MB / downSeconds;
    console.log(
      `upload:  ${up.toFixed(0)} MB/s = ${(up / limit).toFixed(2)} × limit (target ≥ 0.80); server RSS peak − baseline ${Math.max(0, upPeak - baseline).toFixed(0)} MB (target ≤ 100)`,
    );
    console.log(
      `fetch:   ${down.toFixed(0)} MB/s = ${(down / disk).toFixed(2)} × disk write; server RSS peak − baseline ${Math.max(0, downPeak - baseline).toFixed(0)} MB`,
    );
    console.log(`server RSS baseline ${baseline.toFixed(0)} MB`);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
