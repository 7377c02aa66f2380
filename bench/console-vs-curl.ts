// Issue 11: a file dropped in the admin console, from the click on "Upload 1 file" until its row
// says stored (hash in the page, placeholder, PUT), against `curl -T` of the same file to a fresh
// placeholder's url in the same run. curl's time is the PUT alone (the strict reading: the
// placeholder's POST is printed beside it); the target is console ≤ 1.5 × curl. Each upload goes
// to a fresh entry and the entry is deleted after it, so every run writes the bytes anew. Also
// prints the browser's SHA-256 rates on this machine: WebCrypto's digest and hash-wasm's.
// Run: npm run bench   (BENCH_BYTES=… for another size, BENCH_ROUNDS=… for more rounds)
import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { NATIVE_HASH_BUDGET } from '../lib/console/upload/hash-file';
import { browserHashRates } from './browser-hash';
import { call, consoleUpload, consoleWorld, reached, type ConsoleWorld } from './console-world';
import { MB, diskWriteMBps, sha256MBps } from './measure';

const SIZE = Number(process.env.BENCH_BYTES ?? 200 * MB);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TARGET = 1.5;
const run = promisify(execFile);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const dir = path.resolve('tmp', 'bench-console-vs-curl');
  await mkdir(dir, { recursive: true });
  const source = path.join(dir, 'dropped.bin');
  console.log(`Silo: console drop → stored vs curl -T, ${(SIZE / MB).toFixed(0)} MB, ${ROUNDS} round(s)\n`);
  await diskWriteMBps(source, SIZE);
  const { mbps: nodeSha, digest } = sha256MBps(SIZE);
  const world = await consoleWorld();
  try {
    const hashPage = await world.browser.newPage({ baseURL: world.server.url });
    await hashPage.goto('/signin');
    const h = await browserHashRates(hashPage, source, Math.min(SIZE, NATIVE_HASH_BUDGET));
    await hashPage.close();
    console.log(
      `SHA-256 in Chromium on ${(h.size / MB).toFixed(0)} MB: WebCrypto digest ${h.native.toFixed(0)} MB/s (after reading the file whole at ${h.read.toFixed(0)} MB/s: ${h.nativeTotal.toFixed(0)} MB/s together), hash-wasm over file.stream() ${h.hashWasm.toFixed(0)} MB/s; Node ${nodeSha.toFixed(0)} MB/s`,
    );
    const method = SIZE <= NATIVE_HASH_BUDGET ? 'WebCrypto, file read whole' : 'hash-wasm streaming in a Web Worker';
    console.log(`the console hashes this file with: ${method}\n`);

    const results: { curl: number; console: number }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const c = await curlUpload(world, source, digest);
      const entry = await world.newEntry(`console ${round}`);
      const t = await consoleUpload(world, entry, source);
      await checkStored(world, entry, digest);
      await world.deleteEntry(entry);
      const total = reached(t, 'stored');
      const hashed = reached(t, 'creating');
      const created = reached(t, 'uploading');
      console.log(
        `round ${round}: curl -T ${s(c.put)} (${(SIZE / MB / (c.put / 1000)).toFixed(0)} MB/s; its placeholder POST ${s(c.placeholder)})`,
      );
      console.log(
        `         console ${s(total)} = hash ${s(hashed)} + placeholder ${s(created - hashed)} + PUT ${s(total - created)} (${(SIZE / MB / ((total - created) / 1000)).toFixed(0)} MB/s) → ${(total / c.put).toFixed(2)} × curl`,
      );
      results.push({ curl: c.put, console: total });
    }
    const best = (k: 'curl' | 'console') => Math.min(...results.map((r) => r[k]));
    const ratio = best('console') / best('curl');
    console.log(`\nbest of ${ROUNDS}: console drop → stored ${s(best('console'))}, curl -T ${s(best('curl'))}`);
    console.log(`ratio ${ratio.toFixed(2)} × (target ≤ ${TARGET}): ${ratio <= TARGET ? 'met' : 'missed'}`);
  } finally {
    await world.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A placeholder made with the API, then `curl -T` of the file to its url; the entry is deleted after. */
async function curlUpload(world: ConsoleWorld, file: string, sha256: string) {
  const entry = await world.newEntry('curl');
  const auth = { Authorization: `Bearer ${world.ownerKey}` };
  let t = performance.now();
  const placeholder = await call('POST', `${world.server.url}/silo/v1/entries/${entry}/files`, auth, {
    name: path.basename(file),
    mime: 'application/octet-stream',
    sha256,
    size: SIZE,
    category: 'attachment',
  });
  const placeholderMs = performance.now() - t;
  const url = new URL(placeholder.url, world.server.url).href;
  t = performance.now();
  await run('curl', ['-sS', '--fail-with-body', '-o', '/dev/null', '-T', file, '-H', 'Content-Type: application/octet-stream', url]);
  const put = performance.now() - t;
  await checkStored(world, entry, sha256);
  await world.deleteEntry(entry);
  return { placeholder: placeholderMs, put };
}

async function checkStored(world: ConsoleWorld, entry: string, sha256: string) {
  const files = await call('GET', `${world.server.url}/silo/v1/entries/${entry}/files`, { Authorization: `Bearer ${world.ownerKey}` });
  const f = files.list[0];
  if (files.list.length !== 1 || !f.stored || f.hash !== sha256 || f.size !== SIZE)
    throw new Error(`not stored as sent: ${JSON.stringify(f)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
