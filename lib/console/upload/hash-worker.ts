/// <reference lib="webworker" />
// Web Worker: the SHA-256 of a File above the native digest's memory budget (see hash-file.ts), read
// as a stream so the whole file is never in memory, with progress every few MB. One worker per
// file; the page terminates it to cancel.
import { createSHA256 } from 'hash-wasm';

const REPORT_EVERY = 8 * 1024 * 1024;

export type HashMessage = { type: 'progress'; done: number } | { type: 'done'; sha256: string } | { type: 'error'; message: string };

const post = (m: HashMessage) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(m);

self.onmessage = async (event: MessageEvent<{ file: File }>) => {
  const { file } = event.data;
  try {
    const sha = await createSHA256();
    sha.init();
    const reader = file.stream().getReader();
    let done = 0;
    let reported = 0;
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) break;
      sha.update(value);
      done += value.byteLength;
      if (done - reported >= REPORT_EVERY) {
        reported = done;
        post({ type: 'progress', done });
      }
    }
    post({ type: 'progress', done });
    post({ type: 'done', sha256: sha.digest('hex') });
  } catch (err) {
    post({ type: 'error', message: `Could not read ${file.name}: ${(err as Error).message}` });
  }
};
