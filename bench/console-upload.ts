// A 1 GiB file uploaded through the admin console in Debian's Chromium, the way an operator does:
// chosen in the dropzone, hashed in the page's Web Worker, sent to the placeholder's url. Prints
// the browser's hashing and upload rates and both sides' memory next to the machine's limits
// measured in the same run. Run: npm run bench   (BENCH_BYTES=… for another size)
import { chromium } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { startServer } from '../e2e/fixtures/server';
import { MB, diskWriteMBps, groupRssMB, sha256MBps, watchRss } from './measure';

const SIZE = Number(process.env.BENCH_BYTES ?? 1024 ** 3);
const ADMIN = { email: 'bench@example.com', password: 'bench password 1' };

async function main() {
  const dir = path.resolve('tmp', 'bench-console');
  await mkdir(dir, { recursive: true });
  console.log(`Silo console upload benchmark: ${(SIZE / 1024 ** 2).toFixed(0)} MiB in Chromium\n`);
  const source = path.join(dir, 'big.bin');
  const disk = await diskWriteMBps(source, SIZE);
  const { mbps: sha, digest } = sha256MBps(SIZE);
  const limit = Math.min(disk, sha);
  console.log(`machine: fsync'd disk write ${disk.toFixed(0)} MB/s, SHA-256 (Node) ${sha.toFixed(0)} MB/s → limit ${limit.toFixed(0)} MB/s`);

  const server = await startServer({ database: 'pglite' });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const token = /setup\?token=(\S+)/.exec(await waitFor(() => server.output(), /setup\?token=\S+/))![1];
    await post(`${server.url}/admin/v1/setup`, {}, { token, name: 'Bench', ...ADMIN });
    const owner = await post(`${server.url}/admin/v1/owners`, { Authorization: `Bearer ${server.adminKey}` }, { name: 'bench' });
    const entry = await post(`${server.url}/silo/v1/entries`, { Authorization: `Bearer ${owner.api_keys[0].key}` }, { name: 'big' });

    const page = await browser.newPage({ baseURL: server.url });
    await page.goto('/signin');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/workspaces$/);
    await page.goto(`/workspaces/${owner.id}/entries/${entry.id}`);
    await page.locator('input[type=file]').setInputFiles(source);

    const row = page.getByTestId('upload-row');
    const serverBase = groupRssMB(server.pid);
    const serverRss = watchRss(server.pid);
    const browserRss = watchChromium();
    const browserBase = browserRss.now();
    const t0 = performance.now();
    await page.getByRole('button', { name: 'Upload 1 file' }).click();
    await row.and(page.locator('[data-status=creating],[data-status=uploading],[data-status=stored]')).waitFor({ timeout: 600_000 });
    const t1 = performance.now();
    await row.and(page.locator('[data-status=stored]')).waitFor({ timeout: 600_000 });
    const t2 = performance.now();
    const serverPeak = serverRss.stop();
    const browserPeak = browserRss.stop();

    const files = await (await fetch(`${server.url}/silo/v1/entries/${entry.id}/files`, { headers: { Authorization: `Bearer ${owner.api_keys[0].key}` } })).json();
    const stored = files.list.find((f: { name: string }) => f.name === 'big.bin');
    if (stored?.hash !== digest || !stored.stored) throw new Error(`stored file does not match: ${JSON.stringify(stored)}`);

    const hash = SIZE / MB / ((t1 - t0) / 1000);
    const up = SIZE / MB / ((t2 - t1) / 1000);
    console.log(`browser SHA-256 (hash-wasm, Web Worker): ${hash.toFixed(0)} MB/s = ${(hash / sha).toFixed(2)} × Node's`);
    console.log(`upload (placeholder + PUT from the page): ${up.toFixed(0)} MB/s = ${(up / limit).toFixed(2)} × limit`);
    console.log(`total drop → stored: ${((t2 - t0) / 1000).toFixed(1)} s`);
    console.log(`server RSS peak − baseline ${Math.max(0, serverPeak - serverBase).toFixed(0)} MB (target ≤ 100)`);
    console.log(`browser (every chromium process on the machine) RSS peak − baseline ${Math.max(0, browserPeak - browserBase).toFixed(0)} MB for a ${(SIZE / 1024 ** 2).toFixed(0)} MiB file`);
  } finally {
    await browser.close();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Peak RSS of every chromium process (the benchmark's browser and its renderers and workers). */
function watchChromium() {
  const rss = () => {
    try {
      const out = execFileSync('ps', ['-C', 'chromium', '-o', 'rss='], { encoding: 'utf8' });
      return out.split('\n').filter(Boolean).reduce((a, l) => a + Number(l.trim()), 0) / 1024;
    } catch {
      return 0;
    }
  };
  let peak = rss();
  const timer = setInterval(() => (peak = Math.max(peak, rss())), 100);
  return { now: rss, stop: () => (clearInterval(timer), peak) };
}

async function post(url: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(url, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function waitFor(read: () => string, re: RegExp): Promise<string> {
  for (let i = 0; i < 200; i++) {
    if (re.test(read())) return read();
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not seen: ${re}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
