// PUT of the raw bytes to a placeholder's url (docs/api.md, Uploads): streamed, counted and hashed as they
// arrive; resumable with Content-Range; stored only when size and sha256 match the placeholder.
// One upload at a time per placeholder holds its lease (upload-lock.ts) from before the first
// byte is written until it answers; a delete meanwhile removes the rows but leaves the held bytes
// to the upload, which then answers 404 and drops them itself. The lease's generation fences the
// held copy: an upload that took a lapsed lease over adopts the bytes held so far (the client
// resumes from HEAD's Upload-Offset), and the stalled holder it replaced can neither add to them,
// drop them nor complete the file.
import type { Db } from '../../db/client';
import type { File } from '../../db/generated/client';
import type { CreatedBy } from '../../schemas/files';
import { ApiError, isApiError } from '../../errors';
import { log } from '../../log';
import { isBlobTooLarge, isHeldByNewerLease, type BlobStore } from '../../storage/blob-store';
import { FACTS_MAX_BYTES, InvoiceFactsReader } from '../../invoices/read-facts';
import { withPlacedBlob } from './blobs';
import { factColumns, setFactsSql, tappedForFacts } from './file-facts';
import { compareWithStored } from './compare-stored';
import { parseUploadRange, type UploadRange } from './content-range';
import { fileNotFound } from './find-file';
import { lockForCompletion } from './complete-placeholder';
import { makeCurrent } from './replace-file';
import { versionStored } from '../../metrics.mjs';
import { lockVersionBlob, placementLock } from '../retention/blob-locks';
import { assertLeaseHeld, isLeaseLost, LeaseLost, renewUploadLease, uploadBusyNow, withUploadLease, type UploadLease } from './upload-lock';
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
  /** UPLOAD_IDLE_TIMEOUT_SECONDS in ms; paces the lease's renewals (the source itself enforces the timeout) */
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
  // A lapsed lease's holder on another host may still be alive (stalled past its lease): adopt the
  // bytes it made durable, so nothing it writes from now on reaches them. (A dead holder of this
  // host is known dead: its lease is taken without tookOver and its bytes are built on as they are.)
  const held = lease.tookOver
    ? await o.store.adoptHeld(f.id, lease.generation).catch((err) => lostLease(o, lease, err))
    : await o.store.heldSize(f.id);
  if (range && range.start !== held)
    throw new ApiError('offset_mismatch', `The upload holds ${held} bytes; continue from there`, {
      headers: { 'Upload-Offset': String(held), 'Upload-Length': String(size) },
    });
  const limit = range?.end !== undefined ? range.end + 1 : size;
  const fence = { generation: lease.generation, check: () => assertLeaseHeld(o.db, lease) };
  // The facts are read from the bytes as they pass when this request carries them from the first;
  // a resumed upload's are read from the store once it is stored (withStoredFacts).
  const start = range?.start ?? 0;
  const reader = start === 0 ? new InvoiceFactsReader(f.mime) : null;
  const source = reader ? tappedForFacts(whileLeased(o.source, lease), reader) : whileLeased(o.source, lease);
  // A retained version's bytes are placed locked (a store with locks): known now, they are created
  // locked where the store stages them at the blob's own key; the version keeps at least that.
  const lock = await placementLock(o.db, o.store, f);
  const got = await o.store
    .receive(f.id, source, { offset: range?.start ?? 0, maxBytes: limit, expectedHash: f.hash, lease: fence, lock })
    .catch(async (err) => {
      // Too many bytes: the store kept what was held before this request (item 10 of issue 9).
      if (isBlobTooLarge(err)) throw tooLarge(limit, size);
      if (isApiError(err) && err.key === 'not_found') await o.store.dropHeld(f.id);
      return lostLease(o, lease, err);
    });
  if (range?.end !== undefined && range.end < size - 1) return { kind: 'partial', offset: got.size };
  if (got.size !== size) {
    await dropWhileHolding(o, lease);
    throw new ApiError('size_mismatch', `Received ${got.size} bytes; the placeholder says ${size}`);
  }
  if (got.hash !== f.hash) {
    await dropWhileHolding(o, lease);
    throw new ApiError('checksum_mismatch', `The bytes have sha256 ${got.hash}; the placeholder says ${f.hash}`);
  }
  const facts = reader?.result();
  await keepLease(o, lease);
  // The completion is fenced in its transaction, before the held copy is placed: the lease must
  // still be this generation's, under the file's row lock, which a takeover must share first.
  const file = await withPlacedBlob(
    o.db,
    o.store,
    { uploadId: f.id, hash: got.hash, size },
    async (tx) => {
      // The version is the placeholder author's: whoever holds its url sends the bytes they named.
      await makeCurrent(tx, f, { actor: (f.createdBy as CreatedBy | null) ?? null }, facts, lock);
      return tx.file.findUniqueOrThrow({ where: { id: f.id } });
    },
    (tx) => lockForCompletion(tx, f, lease),
    { lock },
  );
  versionStored(file.size);
  await lockVersionBlob(o.db, o.store, file);
  return { kind: 'stored', file: reader ? file : await withStoredFacts(o, file) };
}

/**
 * A version whose bytes came in several requests: its facts are read from the store once it is
 * stored (its first 512 bytes, then, if they are XML, the rest up to the reader's bound) and
 * written to its fact columns alone. The version is stored whatever happens here: a read that
 * fails leaves it without facts, never fails the upload.
 */
async function withStoredFacts(o: ReceiveUploadOptions, file: File): Promise<File> {
  const size = Number(file.size);
  if (size === 0 || size > FACTS_MAX_BYTES) return file;
  return storeFacts(o, file, size).catch((err) => {
    log.warn({ err, fileId: file.id }, 'invoice facts not read');
    return file;
  });
}

async function storeFacts(o: ReceiveUploadOptions, file: File, size: number): Promise<File> {
  const reader = new InvoiceFactsReader(file.mime);
  const stream = await o.store.read(file.hash, { start: 0, end: size - 1 }, size);
  try {
    for await (const chunk of stream) {
      reader.write(chunk);
      if (!reader.wanted) break;
    }
  } finally {
    stream.destroy();
  }
  const facts = reader.result();
  if (!facts) return file;
  await o.db.$executeRaw`UPDATE files SET ${setFactsSql(facts)} WHERE id = ${file.id}::uuid AND stored`;
  return { ...file, ...factColumns(facts), facts };
}

/** The held copy goes after a failed check, unless another upload holds it now (then it is that one's). */
async function dropWhileHolding(o: ReceiveUploadOptions, lease: UploadLease): Promise<void> {
  await assertLeaseHeld(o.db, lease).then(
    () => o.store.dropHeld(lease.fileId),
    () => {},
  );
}

/** A store write refused by the fence (the lease is gone) ends the upload like a lost renewal; anything else goes on. */
async function lostLease(o: ReceiveUploadOptions, lease: UploadLease, err: unknown): Promise<never> {
  if (!isLeaseLost(err) && !isHeldByNewerLease(err)) throw err;
  const why = lease.lost ?? 'taken';
  // Nobody can take a lease on a deleted file, so its held copy is this upload's to drop.
  if (why === 'deleted') await o.store.dropHeld(lease.fileId);
  throw await leaseGone(o, why, lease);
}

/** The bytes of `source`, until the lease's renewals find it gone (then the store stops: lostLease). */
async function* whileLeased(source: Source, lease: UploadLease): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    if (lease.lost) throw new LeaseLost(`the upload lease of ${lease.fileId} is ${lease.lost}`);
    yield chunk;
  }
}

/** Renews the lease now or ends the upload (before placing the bytes: the last word on who holds it). */
async function keepLease(o: ReceiveUploadOptions, lease: UploadLease): Promise<void> {
  const state = lease.lost ?? (await renewUploadLease(o.db, lease));
  if (state === 'held') return;
  // Nobody can take a lease on a deleted file, so its held copy is this upload's to drop.
  if (state === 'deleted') await o.store.dropHeld(lease.fileId);
  throw await leaseGone(o, state, lease);
}

/** A deleted file answers 404; a lease another upload took over (this one stalled past it) 409 with Retry-After. */
const leaseGone = async (o: ReceiveUploadOptions, why: 'deleted' | 'taken', lease: UploadLease) =>
  why === 'deleted' ? fileNotFound() : uploadBusyNow(o.db, lease.fileId);

const tooLarge = (limit: number, size: number) =>
  new ApiError(
    'too_large',
    limit < size ? `This chunk is longer than its Content-Range says` : `More bytes than the placeholder's size (${size})`,
  );
