/// <reference lib="webworker" />
// Web Worker: the SHA-256 of a File, read in slices so the whole file is never in memory, with
// progress after each slice. One worker per file; the page terminates it to cancel.
import { createSHA256 } from 'hash-wasm';

const SLICE = 8 * 1024 * 1024;

export type HashMessage = { type: 'progress'; done: number } | { type: 'done'; sha256: string } | { type: 'error'; message: string };

const post = (m: HashMessage) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(m);

self.onmessage = async (event: MessageEvent<{ file: File }>) => {
  const { file } = event.data;
  try {
    const sha = await createSHA256();
    sha.init();
    for (let offset = 0; offset < file.size; offset += SLICE) {
      const end = Math.min(offset + SLICE, file.size);
      sha.update(new Uint8Array(await file.slice(offset, end).arrayBuffer()));
      post({ type: 'progress', done: end });
    }
    post({ type: 'done', sha256: sha.digest('hex') });
  } catch (err) {
    post({ type: 'error', message: `Could not read ${file.name}: ${(err as Error).message}` });
  }
};
