// PUT of the raw bytes to a placeholder's url (contract §4): streamed, counted and hashed as they
// arrive; resumable with Content-Range; stored only when size and sha256 match the placeholder.
import type { Db } from '../../db/client';
import type { File } from '../../db/generated/client';
import { ApiError } from '../../errors';
import { isBlobTooLarge, type BlobStore } from '../../storage/blob-store';
import { parseUploadRange } from './content-range';
import { withPlacedBlob } from './blobs';
import { makeCurrent } from './slots';
import { withUploadLock } from './upload-lock';
import { randomUUID } from 'node:crypto';

export interface ReceiveUploadOptions {
  db: Db;
  store: BlobStore;
  file: File;
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  contentRange: string | null;
}

export type UploadOutcome =
  /** every byte is stored: 200 with the record */
  | { kind: 'stored'; file: File }
  /** a chunk that ends before the file does was held: 204 with Upload-Offset */
  | { kind: 'partial'; offset: number };

export async function receiveUpload(o: ReceiveUploadOptions): Promise<UploadOutcome> {
  if (o.file.stored) return { kind: 'stored', file: await compareWithStored(o) };
  return withUploadLock(o.file.id, async () => {
    const f = o.file;
    const size = Number(f.size);
    if (f.uploadExpiresAt && f.uploadExpiresAt.getTime() <= Date.now()) {
      await o.store.dropHeld(f.id);
      throw new ApiError('upload_url_expired', 'The upload url has expired; repeat the file request for a fresh one');
    }
    const range = parseUploadRange(o.contentRange, size);
    const held = await o.store.heldSize(f.id);
    if (range && range.start !== held)
      throw new ApiError('offset_mismatch', `The upload holds ${held} bytes; continue from there`, {
        headers: { 'Upload-Offset': String(held), 'Upload-Length': String(size) },
      });
    const limit = range?.end !== undefined ? range.end + 1 : size;
    const got = await o.store.receive(f.id, o.source, { offset: range?.start ?? 0, maxBytes: limit, expectedHash: f.hash }).catch((err) => {
      if (isBlobTooLarge(err)) throw tooLarge(limit, size);
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
    const file = await withPlacedBlob(o.db, o.store, { uploadId: f.id, hash: got.hash, size }, async (tx) => {
      await makeCurrent(tx, f);
      return tx.file.findUniqueOrThrow({ where: { id: f.id } });
    });
    return { kind: 'stored', file };
  });
}

const tooLarge = (limit: number, size: number) =>
  new ApiError('too_large', limit < size ? `This chunk is longer than its Content-Range says` : `More bytes than the placeholder's size (${size})`);

/** Bytes sent again to a stored file: the same bytes answer 200, other bytes 409; nothing changes. */
async function compareWithStored(o: ReceiveUploadOptions): Promise<File> {
  const scratch = `verify-${randomUUID()}`;
  const size = Number(o.file.size);
  try {
    const got = await o.store.receive(scratch, o.source, { offset: 0, maxBytes: size }).catch((err) => {
      if (isBlobTooLarge(err)) throw new ApiError('conflict', 'The file is stored already, with other bytes');
      throw err;
    });
    if (got.size !== size || got.hash !== o.file.hash) throw new ApiError('conflict', 'The file is stored already, with other bytes');
    return o.file;
  } finally {
    await o.store.dropHeld(scratch);
  }
}
