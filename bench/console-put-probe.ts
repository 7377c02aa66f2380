// Probe (issue 11, console vs curl): in Debian's Chromium, which read of a dropped file and which
// PUT body are fastest for the console's upload. Measured in an open page on the server's origin,
// each PUT to a fresh placeholder (its entry deleted after, so every PUT writes the bytes anew),
// the variants alternating their order round by round:
//   xhr-file        the File itself (what the console sends)
//   hash-xhr-file   the File, right after reading it whole and digesting it (the console's order)
//   xhr-blob        a Blob made from the ArrayBuffer read for hashing
//   xhr-file-noprog the File with no upload progress listener
//   fetch-file      fetch() with the File (no upload progress: for comparison only)
//   overlap-xhr-file the File, read and digested while it uploads (not possible under the
//                   contract, whose placeholder carries the sha256: how much overlap would buy)
// ArrayBuffer / Uint8Array bodies cannot be measured here: Playwright's Network domain copies an
// in-memory request body into its CDP events (at 200 MB the driver dies on a >512 MB string);
// bench/console-put-rawcdp.ts measures them over a bare CDP connection.
// Run: npx tsx bench/console-put-probe.ts   (VARIANTS=a,b,…  ROUNDS=…  READS=1 for the reads too)
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { hiddenFileInput } from './browser-hash';
import { call, consoleWorld } from './console-world';
import { MB, diskWriteMBps, sha256MBps } from './measure';

const SIZE = Number(process.env.BENCH_BYTES ?? 200 * MB);
const VARIANTS = (process.env.VARIANTS ?? 'xhr-file,hash-xhr-file,xhr-blob').split(',');
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const rate = (ms: number) => `${ms.toFixed(0)} ms (${(SIZE / MB / (ms / 1000)).toFixed(0)} MB/s)`;

async function main() {
  const dir = path.resolve('tmp', 'bench-console-put-probe');
  await mkdir(dir, { recursive: true });
  const source = path.join(dir, 'dropped.bin');
  await diskWriteMBps(source, SIZE);
  const { digest } = sha256MBps(SIZE);
  const world = await consoleWorld();
  const auth = { Authorization: `Bearer ${world.ownerKey}` };
  try {
    const page = await world.browser.newPage({ baseURL: world.server.url });
    await page.goto('/signin');
    await hiddenFileInput(page, 'probe', source);

    const times: Record<string, number[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const v of round % 2 ? [...VARIANTS].reverse() : VARIANTS) {
        const entry = (await call('POST', `${world.server.url}/silo/v1/entries`, auth, { name: `probe ${v}` })).id;
        const placeholder = await call('POST', `${world.server.url}/silo/v1/entries/${entry}/files`, auth, {
          name: 'dropped.bin',
          mime: 'application/octet-stream',
          sha256: digest,
          size: SIZE,
          category: 'attachment',
        });
        const r = await page.evaluate(
          async ({ v, url }) => {
            const f = (document.getElementById('probe') as HTMLInputElement).files![0];
            let body: Blob = f;
            const t0 = performance.now();
            if (v === 'xhr-blob') body = new Blob([await f.arrayBuffer()]);
            if (v === 'hash-xhr-file') await crypto.subtle.digest('SHA-256', await f.arrayBuffer());
            const before = performance.now() - t0;
            const t = performance.now();
            // overlap-xhr-file: the digest made while the File uploads (what an upload whose
            // checksum came at its end would allow); its time is until both are done.
            const digesting = v === 'overlap-xhr-file' ? f.arrayBuffer().then((b) => crypto.subtle.digest('SHA-256', b)) : undefined;
            let firstProgress = 0;
            if (v.startsWith('fetch')) {
              const res = await fetch(url, { method: 'PUT', body, headers: { 'Content-Type': 'application/octet-stream' } });
              if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
              await res.text();
            } else {
              await new Promise<void>((resolve, reject) => {
                const xhr = new XMLHttpRequest();
                xhr.open('PUT', url);
                xhr.setRequestHeader('Content-Type', 'application/octet-stream');
                if (v !== 'xhr-file-noprog')
                  xhr.upload.onprogress = () => {
                    if (!firstProgress) firstProgress = performance.now() - t;
                  };
                xhr.onload = () => (xhr.status === 200 ? resolve() : reject(new Error(`${xhr.status} ${xhr.responseText}`)));
                xhr.onerror = () => reject(new Error('the PUT failed'));
                xhr.send(body);
              });
            }
            await digesting;
            return { put: performance.now() - t, before, firstProgress };
          },
          { v, url: placeholder.url },
        );
        times[v] = [...(times[v] ?? []), r.put];
        console.log(
          `${v.padEnd(16)} PUT ${rate(r.put)}; before it ${r.before.toFixed(0)} ms; first progress at ${r.firstProgress.toFixed(0)} ms`,
        );
        await call('DELETE', `${world.server.url}/silo/v1/entries/${entry}`, auth);
      }
    }
    console.log('\nmedian PUT:');
    for (const [v, t] of Object.entries(times)) console.log(`  ${v.padEnd(16)} ${rate(t.sort((a, b) => a - b)[Math.floor(t.length / 2)])}`);

    if (process.env.READS) {
      const reads = await page.evaluate(async (rounds) => {
        const f = (document.getElementById('probe') as HTMLInputElement).files![0];
        const out: [string, number][] = [];
        for (let r = 0; r < rounds; r++) {
          let t = performance.now();
          const viaReader = await new Promise<ArrayBuffer>((resolve, reject) => {
            const fr = new FileReader();
            fr.onload = () => resolve(fr.result as ArrayBuffer);
            fr.onerror = () => reject(fr.error);
            fr.readAsArrayBuffer(f);
          });
          out.push(['FileReader', performance.now() - t]);
          t = performance.now();
          await crypto.subtle.digest('SHA-256', viaReader);
          out.push(['digest', performance.now() - t]);
          t = performance.now();
          await f.arrayBuffer();
          out.push(['file.arrayBuffer()', performance.now() - t]);
          for (const parts of [2, 4, 8]) {
            t = performance.now();
            const whole = new Uint8Array(f.size);
            const step = Math.ceil(f.size / parts);
            await Promise.all(
              Array.from({ length: parts }, async (_, i) =>
                whole.set(new Uint8Array(await f.slice(i * step, (i + 1) * step).arrayBuffer()), i * step),
              ),
            );
            out.push([`${parts} slices at once`, performance.now() - t]);
          }
        }
        return out;
      }, ROUNDS);
      console.log('\nreads of the whole file, and the digest alone:');
      for (const [what, ms] of reads) console.log(`  ${what.padEnd(18)} ${rate(ms)}`);
    }
  } finally {
    await world.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
