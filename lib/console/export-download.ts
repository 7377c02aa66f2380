// The console's download of an auditor's export (docs/api.md, Export): fetched with the session and
// X-Silo-Owner, counted against its Content-Length for the progress shown, and handed to the
// browser as a file. The bytes are gathered into Blobs of 64 MiB (the browser keeps a large Blob's
// data in its own storage, on disk when it must), so the page's memory does not grow with the export.
import { parse as parseContentDisposition } from 'content-disposition';
import { ApiFailure, failure } from './api';

export const exportPath = (from: string, to: string) => `/silo/v1/export?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

const PART = 64 * 1024 * 1024;

export interface ExportProgress {
  received: number;
  total: number;
}

export async function downloadExport(o: {
  owner: string;
  sandbox?: boolean;
  from: string;
  to: string;
  signal?: AbortSignal;
  onProgress(p: ExportProgress): void;
}): Promise<{ blob: Blob; name: string }> {
  const headers: Record<string, string> = { 'X-Silo-Owner': o.owner };
  if (o.sandbox) headers['X-Silo-Sandbox'] = 'true';
  let res: Response;
  try {
    res = await fetch(exportPath(o.from, o.to), { headers, credentials: 'same-origin', signal: o.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiFailure('The server could not be reached; check your connection and try again', 0, 'network');
  }
  if (!res.ok || !res.body) {
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {}
    throw failure(res.status, body);
  }
  const total = Number(res.headers.get('content-length') ?? 0);
  const name = parseContentDisposition(res.headers.get('content-disposition') ?? '').parameters.filename || 'silo-export.zip';
  const parts: Blob[] = [];
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let received = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pending.push(value);
    pendingBytes += value.length;
    received += value.length;
    if (pendingBytes >= PART) {
      parts.push(new Blob(pending as BlobPart[]));
      pending = [];
      pendingBytes = 0;
    }
    o.onProgress({ received, total });
  }
  parts.push(new Blob(pending as BlobPart[]));
  if (total && received !== total)
    throw new ApiFailure(`The export broke off after ${received} of ${total} bytes; try again`, 0, 'network');
  return { blob: new Blob(parts, { type: 'application/zip' }), name };
}
