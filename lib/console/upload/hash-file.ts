// The SHA-256 a file's placeholder carries. Files that fit a memory budget are read whole and
// hashed by the browser's own SHA-256 (WebCrypto: BoringSSL with the CPU's SHA instructions, several
// times hash-wasm's rate). Larger files, and pages without WebCrypto (plain http to another host:
// not a secure context), stream through hash-wasm in a Web Worker and are never whole in memory.
import type { HashMessage } from './hash-worker';

/**
 * Bytes of files read whole for the native digest at any one time, across the queue's parallel
 * uploads: a file that would take the total above it streams instead. 256 MiB keeps the page well
 * inside a renderer's memory on a modest laptop while covering the documents the console is for.
 */
export const NATIVE_HASH_BUDGET = 256 * 1024 * 1024;

export type HashMethod = 'native' | 'stream';

/** Which way a file of `size` bytes is hashed while `held` bytes are already read whole. */
export function chooseHashMethod(size: number, held: number, budget: number, hasWebCrypto: boolean): HashMethod {
  return hasWebCrypto && held + size <= budget ? 'native' : 'stream';
}

let held = 0;

/**
 * The budget in force. The UI tests lower it (window.siloNativeHashBudget, set before the page
 * loads) so that a small file takes the streaming path; nothing else sets it.
 */
function budget(): number {
  const override = (globalThis as { siloNativeHashBudget?: unknown }).siloNativeHashBudget;
  return typeof override === 'number' ? override : NATIVE_HASH_BUDGET;
}

export async function hashFile(file: File, onProgress: (done: number) => void, signal: AbortSignal): Promise<string> {
  const hasWebCrypto = typeof crypto !== 'undefined' && crypto.subtle !== undefined;
  if (chooseHashMethod(file.size, held, budget(), hasWebCrypto) === 'stream') return hashInWorker(file, onProgress, signal);
  held += file.size;
  try {
    return await hashNative(file, signal);
  } finally {
    held -= file.size;
  }
}

/** Reads the file whole (one read, the fastest way here) and digests it; the buffer is dropped after. */
async function hashNative(file: File, signal: AbortSignal): Promise<string> {
  signal.throwIfAborted();
  const bytes = await file.arrayBuffer();
  signal.throwIfAborted();
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  signal.throwIfAborted();
  return toHex(new Uint8Array(digest));
}

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** Runs the hash worker for one file; aborting the signal terminates the worker. */
function hashInWorker(file: File, onProgress: (done: number) => void, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./hash-worker.ts', import.meta.url), { type: 'module' });
    const stop = () => {
      worker.terminate();
      reject(new DOMException('Cancelled', 'AbortError'));
    };
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    worker.onmessage = (e: MessageEvent<HashMessage>) => {
      const m = e.data;
      if (m.type === 'progress') return onProgress(m.done);
      signal.removeEventListener('abort', stop);
      worker.terminate();
      if (m.type === 'done') resolve(m.sha256);
      else reject(new Error(m.message));
    };
    worker.onerror = (e) => {
      signal.removeEventListener('abort', stop);
      worker.terminate();
      reject(new Error(e.message || 'The hashing worker failed'));
    };
    worker.postMessage({ file });
  });
}
