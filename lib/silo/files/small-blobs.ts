// Small blobs kept in the database: the bytes of an inline file up to SMALL_BLOB_MAX_BYTES live
// in their `blobs` row (`data`), written by the same autocommit statement that records the file
// (insertCurrent with its bytes, replace-file.ts). A file, its version and its bytes are then one
// commit: one round trip instead of a transaction's four, and the database's write-ahead log
// makes the bytes durable, its group commit sharing one flush among the requests that commit
// together, where a blob file costs a write, two fsyncs and a rename each (bench/RESULTS.md).
// Larger bytes, uploads and anything stored before go to the blob store as ever; a hash may be in
// both, and is read from the database first. Freeing a blob deletes its row (blobs.ts freeBlobs),
// and its bytes with it.
import { Readable } from 'node:stream';
import { SMALL_BLOB_CEILING } from '../../config';
import type { Tx } from '../../db/client';
import type { BlobStore, ByteRange } from '../../storage/blob-store';
import { SizedLru } from '../../sized-lru';

/** The largest SMALL_BLOB_MAX_BYTES may be: no blob over this size is in the database. */
export { SMALL_BLOB_CEILING };

/**
 * Bytes by hash, for reads (32 MiB, least recently used). A hash names its bytes forever, so a
 * cached value can never be wrong: only a freed blob's may linger, and no stored file refers to it
 * to be read through.
 */
const g = globalThis as unknown as { __siloSmallBlobs?: SizedLru<Buffer> };
const cache = () => (g.__siloSmallBlobs ??= new SizedLru<Buffer>(32 * 1024 * 1024));

/** The bytes of `hash` when the database holds them, else undefined (they are in the blob store, or gone). */
export async function databaseBytes(db: Tx, hash: string, opts = { cached: true }): Promise<Buffer | undefined> {
  const cached = opts.cached ? cache().get(hash) : undefined;
  if (cached) return cached;
  // As base64 text: the embedded database's driver parses a bytea column one byte at a time.
  const rows = await db.$queryRaw<
    { data: string }[]
  >`SELECT encode(data, 'base64') AS data FROM blobs WHERE hash = ${hash} AND data IS NOT NULL`;
  if (!rows.length) return undefined;
  const bytes = Buffer.from(rows[0].data, 'base64');
  if (opts.cached) cache().set(hash, bytes, bytes.length);
  return bytes;
}

/** Forgets cached bytes of a freed blob (this process's; another's is harmless: see the cache above). */
export const forgetBytes = (hash: string) => cache().delete(hash);

/**
 * The bytes of `hash` (a range of them), from the database or the blob store. `size` (the file's):
 * bytes over SMALL_BLOB_CEILING are never in the database, and a large file's read asks it nothing.
 */
export async function readBlob(db: Tx, store: BlobStore, hash: string, range?: ByteRange, size?: number): Promise<Readable> {
  if (size !== undefined && size > SMALL_BLOB_CEILING) return store.read(hash, range, size);
  const bytes = await databaseBytes(db, hash);
  if (!bytes) return store.read(hash, range, size);
  return Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes], { objectMode: false });
}

/** Whether the bytes of `hash` are held, in the database or the blob store. */
export async function blobExists(db: Tx, store: BlobStore, hash: string): Promise<boolean> {
  return (await store.exists(hash)) || (await databaseBytes(db, hash)) !== undefined;
}
