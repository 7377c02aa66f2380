// The console upload queue's network replaced at its seam (UploadTransport) for its tests
// (lib/console/upload/queue.test.ts): each call is recorded and waits until the test settles it.
import type { FileRecord } from '../schemas/records';
import type { SendOptions } from '../console/upload/send-bytes';
import type { PlaceholderRequest, UploadTransport } from '../console/upload/transport';

export interface Pending<T> {
  resolve(v: T): void;
  reject(e: unknown): void;
}

/** A transport whose calls are recorded and settled by the test. */
export function fakeNet() {
  const hashes: (Pending<string> & { file: File; progress(n: number): void })[] = [];
  const placeholders: { entryId: string; body: PlaceholderRequest; fileId?: string }[] = [];
  const sends: (Pending<FileRecord> & { o: SendOptions })[] = [];
  const heads: string[] = [];
  let urls = 0;
  let head: (url: string) => Promise<number> = async () => 0;
  const abortable = <T>(signal: AbortSignal, push: (p: Pending<T>) => void) =>
    new Promise<T>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new DOMException('Cancelled', 'AbortError')), { once: true });
      push({ resolve, reject });
    });
  const net: UploadTransport = {
    hash: (file, progress, signal) => abortable(signal, (p) => hashes.push({ ...p, file, progress })),
    placeholder: async (entryId, body, fileId) => {
      placeholders.push({ entryId, body, fileId });
      return record(body.name, fileId ?? `f-${body.name}`, `/upload/${++urls}`);
    },
    offset: (url) => {
      heads.push(url);
      return head(url);
    },
    send: (o) => abortable(o.signal, (p) => sends.push({ ...p, o })),
  };
  return {
    net,
    hashes,
    placeholders,
    sends,
    heads,
    answerHead: (fn: typeof head) => {
      head = fn;
    },
  };
}

export const record = (name: string, id: string, url: string, stored = false) => ({ id, name, url, stored, entry_id: 'e1' }) as FileRecord;
