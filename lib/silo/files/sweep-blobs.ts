// Frees blobs no stored file refers to: bytes a crash left between placing them and recording the
// file, and bytes a delete could not free (a read-only store answered the delete 204 anyway).
// Every candidate goes through freeBlobs, which takes the hash's lock and counts references
// again: an upload placing the same bytes holds that lock from before the rename until its file
// row commits, so the sweep either runs before it (and the upload places the bytes anew) or
// after it (and sees the reference). A referenced blob is never taken.
import type { Db } from '../../db/client';
import type { BlobStore } from '../../storage/blob-store';
import { freeBlobs } from './blobs';

const BATCH = 500;

export interface BlobSweep {
  /** blobs the store holds that no stored file refers to, as seen before freeing */
  unreferenced: number;
  freed: number;
}

export async function sweepBlobs(db: Db, store: BlobStore): Promise<BlobSweep> {
  const result: BlobSweep = { unreferenced: 0, freed: 0 };
  let failure: unknown;
  const free = async (hashes: string[]) => {
    result.unreferenced += hashes.length;
    // One failing blob must not stop the others; the first failure is reported at the end.
    result.freed += await freeBlobs(db, store, hashes).catch((err) => ((failure ??= err), 0));
  };
  let batch: string[] = [];
  for await (const blob of store.listBlobs()) {
    batch.push(blob.hash);
    if (batch.length >= BATCH) {
      await free(await unreferencedAmong(db, batch));
      batch = [];
    }
  }
  if (batch.length) await free(await unreferencedAmong(db, batch));
  // Rows of the blobs table whose bytes were freed by hand or never placed.
  for (let after = ''; ; ) {
    const rows = await db.$queryRaw<{ hash: string }[]>`
      SELECT b.hash FROM blobs b WHERE b.hash > ${after}
        AND NOT EXISTS (SELECT 1 FROM files f WHERE f.hash = b.hash AND f.stored)
      ORDER BY b.hash LIMIT ${BATCH}`;
    if (!rows.length) break;
    after = rows[rows.length - 1].hash;
    await freeBlobs(db, store, rows.map((r) => r.hash)).catch((err) => (failure ??= err));
  }
  if (failure) throw failure;
  return result;
}

/** The hashes of `hashes` that no stored file refers to. */
export async function unreferencedAmong(db: Db, hashes: string[]): Promise<string[]> {
  if (!hashes.length) return [];
  const referenced = await db.$queryRaw<{ hash: string }[]>`SELECT DISTINCT hash FROM files WHERE stored AND hash = ANY(${hashes}::text[])`;
  const ref = new Set(referenced.map((r) => r.hash));
  return hashes.filter((h) => !ref.has(h));
}
