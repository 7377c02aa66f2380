// Probe (issue 11): the PUT bodies bench/console-put-probe.ts cannot measure under Playwright, whose
// Network domain copies an in-memory request body into its CDP events. Debian's Chromium is driven
// here over a bare CDP websocket with only Page/DOM/Runtime in use, so an ArrayBuffer or Uint8Array
// body costs what it costs a user. Variants: xhr-file (the File), xhr-ab / xhr-u8 / xhr-blob (the
// buffer read for hashing, as is or in a Blob), fetch-file / fetch-ab, read-ab-then-xhr-file (the
// console's order: read whole and digest, then the File). "before it" is the read, not in the PUT.
// Run: npx tsx bench/console-put-rawcdp.ts   (PROBE=a,b,…  ROUNDS=…)
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { setupLinkIn, startServer } from '../e2e/fixtures/server';
import { call } from './console-world';
import { MB, diskWriteMBps, sha256MBps } from './measure';

const SIZE = Number(process.env.BENCH_BYTES ?? 200 * MB);
const VARIANTS = (process.env.PROBE ?? 'xhr-file,xhr-ab,xhr-u8,xhr-blob,fetch-file,fetch-ab,read-ab-then-xhr-file').split(',');
const ROUNDS = Number(process.env.ROUNDS ?? 2);

async function main() {
  const dir = path.resolve('tmp', 'bench-console-put-rawcdp');
  await mkdir(dir, { recursive: true });
  const source = path.join(dir, 'dropped.bin');
  await diskWriteMBps(source, SIZE);
  const { digest } = sha256MBps(SIZE);
  const server = await startServer({ database: 'pglite' });
  const profile = await mkdtemp(path.join(os.tmpdir(), 'probe-chromium-'));
  const chrome = spawn(
    '/usr/bin/chromium',
    ['--headless', '--no-sandbox', '--disable-gpu', `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'],
    {
      stdio: 'ignore',
    },
  );
  try {
    let token: string | null = null;
    for (let i = 0; i < 200 && !token; i++) {
      const l = setupLinkIn(server.output());
      if (l) token = new URL(l).searchParams.get('token');
      else await new Promise((r) => setTimeout(r, 100));
    }
    await call('POST', `${server.url}/admin/v1/setup`, {}, { token, name: 'Bench', email: 'b@example.com', password: 'bench password 1' });
    const owner = await call('POST', `${server.url}/admin/v1/owners`, { Authorization: `Bearer ${server.adminKey}` }, { name: 'bench' });
    const auth = { Authorization: `Bearer ${owner.api_keys[0].key}` };

    let port = '';
    for (let i = 0; i < 100 && !port; i++) {
      port = await readFile(path.join(profile, 'DevToolsActivePort'), 'utf8').then(
        (s) => s.split('\n')[0],
        () => '',
      );
      if (!port) await new Promise((r) => setTimeout(r, 100));
    }
    const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    const pageTarget = targets.find((t: { type: string }) => t.type === 'page');
    const ws = new WebSocket(pageTarget.webSocketDebuggerUrl, { maxPayload: 1 << 30 });
    await new Promise((r) => ws.once('open', r));
    let id = 0;
    const pending = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
    ws.on('message', (d) => {
      const m = JSON.parse(String(d));
      if (m.id) pending.get(m.id)?.(m);
    });
    // biome-ignore lint/suspicious/noExplicitAny: a bare CDP client
    const send = (method: string, params: object = {}): Promise<any> =>
      new Promise((res, rej) => {
        const i = ++id;
        pending.set(i, (m) => (m.error ? rej(new Error(JSON.stringify(m.error))) : res(m.result)));
        ws.send(JSON.stringify({ id: i, method, params }));
      });
    await send('Page.enable');
    await send('Page.navigate', { url: `${server.url}/signin` });
    await new Promise((r) => setTimeout(r, 2000));
    await send('Runtime.evaluate', {
      expression: `(() => { const i = document.createElement('input'); i.type = 'file'; i.id = 'probe'; document.body.append(i); })()`,
    });
    const doc = await send('DOM.getDocument');
    const q = await send('DOM.querySelector', { nodeId: doc.root.nodeId, selector: '#probe' });
    await send('DOM.setFileInputFiles', { nodeId: q.nodeId, files: [source] });

    for (let round = 0; round < ROUNDS; round++) {
      for (const v of VARIANTS) {
        const entry = (await call('POST', `${server.url}/silo/v1/entries`, auth, { name: `probe ${v}` })).id;
        const ph = await call('POST', `${server.url}/silo/v1/entries/${entry}/files`, auth, {
          name: 'dropped.bin',
          mime: 'application/octet-stream',
          sha256: digest,
          size: SIZE,
          category: 'attachment',
        });
        const expr = `(async () => {
          const v = ${JSON.stringify(v)}, url = ${JSON.stringify(ph.url)};
          const f = document.getElementById('probe').files[0];
          let body = f;
          let t0 = performance.now();
          if (v.startsWith('read-') || v.endsWith('-ab') || v.endsWith('-u8') || v.endsWith('-blob')) {
            const ab = await f.arrayBuffer();
            if (v.startsWith('read-')) { await crypto.subtle.digest('SHA-256', ab); }
            else body = v.endsWith('-ab') ? ab : v.endsWith('-u8') ? new Uint8Array(ab) : new Blob([ab]);
          }
          const prep = performance.now() - t0;
          const t = performance.now();
          let events = 0;
          if (v.includes('xhr')) {
            await new Promise((res, rej) => {
              const xhr = new XMLHttpRequest();
              xhr.open('PUT', url);
              xhr.setRequestHeader('Content-Type', 'application/octet-stream');
              xhr.upload.onprogress = () => events++;
              xhr.onload = () => (xhr.status === 200 ? res() : rej(new Error(xhr.status + ' ' + xhr.responseText)));
              xhr.onerror = () => rej(new Error('xhr error'));
              xhr.send(body);
            });
          } else {
            const res = await fetch(url, { method: 'PUT', body, headers: { 'Content-Type': 'application/octet-stream' } });
            if (res.status !== 200) throw new Error(res.status + ' ' + (await res.text()));
            await res.text();
          }
          return JSON.stringify({ put: performance.now() - t, prep, events });
        })()`;
        const out = await send('Runtime.evaluate', { expression: expr, awaitPromise: true, returnByValue: true });
        if (out.exceptionDetails) throw new Error(JSON.stringify(out.exceptionDetails));
        const r = JSON.parse(out.result.value);
        console.log(
          `${v.padEnd(22)} PUT ${r.put.toFixed(0)} ms (${(SIZE / MB / (r.put / 1000)).toFixed(0)} MB/s), before it ${r.prep.toFixed(0)} ms, ${r.events} progress events`,
        );
        await call('DELETE', `${server.url}/silo/v1/entries/${entry}`, auth);
      }
    }
    ws.close();
  } finally {
    chrome.kill();
    await server.stop();
    await rm(profile, { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
