// The bytes of a placeholder: PUT {url} with XMLHttpRequest (fetch has no upload progress), and
// HEAD {url} for the offset to resume from after a dropped connection.
import { ApiFailure, failure } from '../api';
import type { FileRecord } from '../../schemas/records';

export class ConnectionLost extends Error {
  constructor() {
    super('The connection dropped; retry to resume where it stopped');
    this.name = 'ConnectionLost';
  }
}

/** Bytes the server holds for this placeholder (0 when it holds none or cannot say). */
export async function uploadOffset(url: string): Promise<number> {
  const res = await fetch(url, { method: 'HEAD', cache: 'no-store' });
  if (res.status === 403) throw new ApiFailure('The upload link expired', 403, 'upload_url_expired');
  if (!res.ok) return 0;
  return Number(res.headers.get('Upload-Offset') ?? 0) || 0;
}

export interface SendOptions {
  url: string;
  file: File;
  mime: string;
  /** resume from here (bytes the server already holds) */
  offset: number;
  onProgress(sentTotal: number): void;
  signal: AbortSignal;
}

export function sendBytes(o: SendOptions): Promise<FileRecord> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', o.url);
    xhr.setRequestHeader('Content-Type', o.mime);
    // A resumed upload sends only the rest, saying where it starts.
    if (o.offset > 0) xhr.setRequestHeader('Content-Range', `bytes ${o.offset}-${o.file.size - 1}/${o.file.size}`);
    xhr.upload.onprogress = (e) => o.onProgress(o.offset + e.loaded);
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body) return resolve(body as FileRecord);
      reject(failure(xhr.status, body, xhr.getResponseHeader('Retry-After')));
    };
    xhr.onerror = () => reject(new ConnectionLost());
    xhr.ontimeout = () => reject(new ConnectionLost());
    xhr.onabort = () => reject(new DOMException('Cancelled', 'AbortError'));
    o.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(o.offset > 0 ? o.file.slice(o.offset) : o.file);
  });
}
