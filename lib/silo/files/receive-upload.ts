// PUT of the raw bytes to a placeholder's url (docs/api.md, Uploads): streamed, counted and hashed as they
// arrive; resumable with Content-Range; stored only when size and sha256 match the placeholder.
// One upload at a time per placeholder holds its lease (upload-lock.ts) from before the first
// byte is written until it answers; a delete meanwhile removes the rows but leaves the held bytes
// to the upload, which then answers 404 and drops them itself.
import type { Db } from '../../db/client';
import type { File } from '../../db/generated/client';
import { ApiError, isApiError } from '../../errors';
import { isBlobTooLarge, type BlobStore } from '../../storage/blob-store';
import { withPlacedBlob } from './blobs';
import { compareWithStored } from './compare-stored';
import { parseUploadRange, type UploadRange } from './content-range';
import { fileNotFound } from './find-file';
import { lockForCompletion } from './complete-placeholder';
import { makeCurrent } from './replace-file';
import { renewUploadLease, uploadBusy, withUploadLease, type UploadLease } from './upload-lock';
import { assertUploadOpen } from './upload-window';

type Source = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export interface ReceiveUploadOptions {
  db: Db;
  store: BlobStore;
  file: File;
  source: Source;
  contentRange: string | null;
  /** the request's Content-Length, when it sent one: too many bytes are refused before reading */
  declaredLength?: number;
  /** UPLOAD_IDLE_TIMEOUT_SECONDS in ms; sizes the lease (the source itself enforces the timeout) */
  idleMs?: number;
  /** Runs before any byte is read when the file is stored: a stored private file's url needs credentials. */
  authorizeStored?: (file: File) => Promise<void>;
}

const DEFAULT_IDLE_MS = 60_000;

export type UploadOutcome =
  /** every byte is stored: 200 with the record */
  | { kind: 'stored'; file: File }
  /** a chunk that ends before the file does was held: 204 with Upload-Offset */
  | { kind: 'partial'; offset: number };

export async function receiveUpload(o: ReceiveUploadOptions): Promise<UploadOutcome> {
  let file = o.file;
  if (!file.stored) {
    const range = parseUploadRange(o.contentRange, Number(file.size));
    refuseDeclaredExcess(o.declaredLength, range, Number(file.size));
    const outcome = await withUploadLease(
      o.db,
      file.id,
      o.idleMs ?? DEFAULT_IDLE_MS,
      async (lease): Promise<UploadOutcome | undefined> => (lease.file.stored ? undefined : receiveHeld(o, lease, range)),
    );
    if (outcome) return outcome;
    // Stored meanwhile (another upload or an inline completion won): compare, as for any stored file.
    file = (await o.db.file.findUnique({ where: { id: file.id } })) ?? throwGone();
  }
  await o.authorizeStored?.(file);
  return { kind: 'stored', file: await compareWithStored(file, o.source, o.declaredLength) };
}

const throwGone = (): never => {
  throw fileNotFound();
};

/** A Content-Length that cannot fit the range (or the file) is refused before a byte is read. */
function refuseDeclaredExcess(declared: number | undefined, range: UploadRange | undefined, size: number) {
  if (declared === undefined || !Number.isFinite(declared)) return;
  const limit = range?.end !== undefined ? range.end + 1 : size;
  if ((range?.start ?? 0) + declared > limit) throw tooLarge(limit, size);
}

async function receiveHeld(o: ReceiveUploadOptions, lease: UploadLease, range: UploadRange | undefined): Promise<UploadOutcome> {
  const f = lease.file;
  const size = Number(f.size);
  await assertUploadOpen(o.db, o.store, f, lease);
  // A lapsed lease's holder on another host may still be alive (stalled past its lease) and flush
  // one last batch into the held copy: never build on it, start over. (A dead holder of this host
  // is known dead: its lease is taken without tookOver and its bytes are built on.)
  if (lease.tookOver) await o.store.dropHeld(f.id);
  const held = await o.store.heldSize(f.id);
  if (range && range.start !== held)
    throw new ApiError('offset_mismatch', `The upload holds ${held} bytes; continue from there`, {
      headers: { 'Upload-Offset': String(held), 'Upload-Length': String(size) },
    });
  const limit = range?.end !== undefined ? range.end + 1 : size;
  const got = await o.store
    .receive(f.id, whileLeased(o.source, lease), { offset: range?.start ?? 0, maxBytes: limit, expectedHash: f.hash })
    .catch(async (err) => {
      // Too many bytes: the store kept what was held before this request (item 10 of issue 9).
      if (isBlobTooLarge(err)) throw tooLarge(limit, size);
      if (isApiError(err) && err.key === 'not_found') await o.store.dropHeld(f.id);
      throw err;
    });
  if (range?.end !== undefined && range.end < size - 1) return { kind: 'partial', offset: got.size };
  if (got.size !== size) {
    await o.store.dropHeld(f.id);
    throw new ApiError('size_mismatch', `Received ${got.size} bytes; the placeholder says ${size}`);
  }
  if (got.hash !== f.hash) {
    await o.store.dropHeld(f.id);
    throw new ApiError('checksum_mismatch', `The bytes have sha256 ${got.hash}; the placeholder says ${f.hash}`);
  }
  await keepLease(o, lease);
  const file = await withPlacedBlob(o.db, o.store, { uploadId: f.id, hash: got.hash, size }, async (tx) => {
    await lockForCompletion(tx, f, lease);
    await makeCurrent(tx, f);
    return tx.file.findUniqueOrThrow({ where: { id: f.id } });
  });
  return { kind: 'stored', file };
}

/** The bytes of `source`, until the lease's renewals find it gone (then 404 or 409, see leaseGone). */
async function* whileLeased(source: Source, lease: UploadLease): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    if (lease.lost) throw leaseGone(lease.lost);
    yield chunk;
  }
}

/** Renews the lease now or ends the upload (before placing the bytes: the last word on who holds it). */
async function keepLease(o: ReceiveUploadOptions, lease: UploadLease): Promise<void> {
  const state = lease.lost ?? (await renewUploadLease(o.db, lease));
  if (state === 'held') return;
  // Nobody can take a lease on a deleted file, so its held copy is this upload's to drop.
  if (state === 'deleted') await o.store.dropHeld(lease.fileId);
  throw leaseGone(state);
}

/** A deleted file answers 404; a lease another upload took over (this one stalled past it) 409. */
const leaseGone = (why: 'deleted' | 'taken') => (why === 'deleted' ? fileNotFound() : uploadBusy());

const tooLarge = (limit: number, size: number) =>
  new ApiError(
    'too_large',
    limit < size ? `This chunk is longer than its Content-Range says` : `More bytes than the placeholder's size (${size})`,
  );
