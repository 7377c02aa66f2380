// Runs the hash worker for one file; aborting the signal terminates the worker.
import type { HashMessage } from './hash-worker';

export function hashFile(file: File, onProgress: (done: number) => void, signal: AbortSignal): Promise<string> {
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
