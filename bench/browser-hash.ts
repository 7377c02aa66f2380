// The browser's own SHA-256 rates on a file chosen from disk, measured in an already open page on
// a secure origin (localhost): WebCrypto's digest of the whole file read into memory, and
// hash-wasm's incremental SHA-256 over file.stream() (what the console's worker does for files
// above its memory budget). Both run on the page's main thread here: the rates are the hashes',
// not the worker's messaging.
import type { Page } from '@playwright/test';
import path from 'node:path';
import { MB } from './measure';

export interface BrowserHashRates {
  /** file.arrayBuffer() alone, then crypto.subtle.digest on it, in MB/s of the file */
  read: number;
  native: number;
  /** read + digest, as the console does it */
  nativeTotal: number;
  hashWasm: number;
  digests: { native: string; hashWasm: string };
  /** bytes hashed */
  size: number;
}

/** Rates on the file's first `maxBytes` (the native digest holds them all in memory). */
/** A hidden `<input type=file id=…>` added to the page, holding `file`: how a bench hands the page a File. */
async function hiddenFileInput(page: Page, id: string, file: string) {
  await page.evaluate((id) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = id;
    input.hidden = true;
    document.body.append(input);
  }, id);
  await page.setInputFiles(`#${id}`, file);
}

export async function browserHashRates(page: Page, file: string, maxBytes: number): Promise<BrowserHashRates> {
  await page.addScriptTag({ path: path.resolve('node_modules/hash-wasm/dist/sha256.umd.min.js') });
  await hiddenFileInput(page, 'bench-hash-input', file);
  const r = await page.evaluate(async (max) => {
    const whole = (document.getElementById('bench-hash-input') as HTMLInputElement).files![0];
    const f = whole.size > max ? whole.slice(0, max) : whole;
    let t = performance.now();
    let buf: ArrayBuffer | null = await f.arrayBuffer();
    const read = performance.now() - t;
    t = performance.now();
    const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', buf));
    const digest = performance.now() - t;
    buf = null;
    const { createSHA256 } = (window as unknown as { hashwasm: typeof import('hash-wasm') }).hashwasm;
    t = performance.now();
    const sha = await createSHA256();
    sha.init();
    const reader = f.stream().getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      sha.update(value);
    }
    const hashWasm = sha.digest('hex');
    const stream = performance.now() - t;
    // (no named helper functions in here: tsx would wrap them in a __name the page lacks)
    const native = Array.from(bytes, (x) => x.toString(16).padStart(2, '0')).join('');
    return { size: f.size, read, digest, stream, native, hashWasm };
  }, maxBytes);
  const rate = (ms: number) => r.size / MB / (ms / 1000);
  return {
    read: rate(r.read),
    native: rate(r.digest),
    nativeTotal: rate(r.read + r.digest),
    hashWasm: rate(r.stream),
    digests: { native: r.native, hashWasm: r.hashWasm },
    size: r.size,
  };
}
