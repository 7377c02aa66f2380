// Byte paths on Node's req/res: serving a stored file, receiving an upload, an upload's status.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { File } from '../db/generated/client';
import { ApiError } from '../errors';
import { fileHeaders, matchesEtag, parseRange, rangeApplies } from '../silo/files/file-headers';
import { receiveUpload } from '../silo/files/receive-upload';
import { uploadProgress } from '../silo/files/upload-window';
import type { UrlSigner } from '../silo/files/file-url';
import type { Db } from '../db/client';
import type { BlobStore } from '../storage/blob-store';
import { config } from '../config';
import { fileRecord } from '../silo/files/file-record';
import { idleGuarded } from './idle-body';
import { sendJson } from './node-adapter';

/** The bytes of a stored file (from `from.store`, wherever it keeps them), with the contract's fetch headers. */
export async function serveFile(req: IncomingMessage, res: ServerResponse, from: { store: BlobStore }, file: File, download: boolean) {
  if (!file.stored) throw new ApiError('not_stored', 'The bytes of this file have not been uploaded yet');
  const size = Number(file.size);
  const fetchable = { ...file, size, lastModified: file.storedAt ?? file.createdAt };
  const headers = fileHeaders(fetchable, download);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  if (matchesEtag(req.headers['if-none-match'] ?? null, file.hash)) {
    res.statusCode = 304;
    return void res.end();
  }
  const ifRange = (req.headers['if-range'] as string | undefined) ?? null;
  const asked = rangeApplies(ifRange, fetchable) ? ((req.headers.range as string | undefined) ?? null) : null;
  const range = parseRange(asked, size);
  if (range.kind === 'unsatisfiable') {
    throw new ApiError('range_not_satisfiable', `The file has ${size} bytes`, { headers: { 'Content-Range': `bytes */${size}` } });
  }
  if (range.kind === 'partial') {
    res.statusCode = 206;
    res.setHeader('Content-Range', `bytes ${range.range.start}-${range.range.end}/${size}`);
    res.setHeader('Content-Length', range.range.end - range.range.start + 1);
  } else {
    res.statusCode = 200;
    res.setHeader('Content-Length', size);
  }
  if (req.method === 'HEAD' || size === 0) return void res.end();
  const stream = await from.store.read(file.hash, range.kind === 'partial' ? range.range : undefined, size);
  await pipeline(stream, res);
}

export interface UploadDeps {
  db: Db;
  store: BlobStore;
  signer: UrlSigner;
  /** a stored private file's url needs credentials for PUT too (find-file.ts assertMayRead) */
  authorizeStored?: (file: File) => Promise<void>;
  /** the body of the 200 once the bytes are stored; the full record (with `previous`) unless said */
  storedBody?: (file: File) => Promise<unknown>;
}

/** PUT of an upload's bytes: placeholder (receive) or stored file (compare), on Node's req/res. */
export async function acceptUpload(req: IncomingMessage, res: ServerResponse, d: UploadDeps, file: File) {
  const idleMs = config().UPLOAD_IDLE_TIMEOUT_SECONDS * 1000;
  const length = req.headers['content-length'];
  const outcome = await receiveUpload({
    db: d.db,
    store: d.store,
    file,
    source: idleGuarded(req, idleMs),
    contentRange: (req.headers['content-range'] as string) ?? null,
    declaredLength: length === undefined ? undefined : Number(length),
    idleMs,
    authorizeStored: d.authorizeStored,
  });
  if (outcome.kind === 'partial') {
    res.statusCode = 204;
    res.setHeader('Upload-Offset', outcome.offset);
    res.setHeader('Upload-Length', Number(file.size));
    return void res.end();
  }
  sendJson(res, { status: 200, body: await (d.storedBody ?? ((f: File) => fileRecord(d, f)))(outcome.file) });
}

/** HEAD of an upload: how many bytes are held, for a resume (tus-style headers). */
export async function uploadStatus(res: ServerResponse, d: Pick<UploadDeps, 'db' | 'store'>, file: File) {
  const progress = await uploadProgress(d.db, d.store, file);
  res.statusCode = 204;
  res.setHeader('Upload-Offset', progress.offset);
  res.setHeader('Upload-Length', progress.length);
  res.setHeader('Cache-Control', 'no-store');
  res.end();
}
