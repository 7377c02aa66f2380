// Placing verified bytes under their hash, and freeing bytes nothing refers to.
// Both take a transaction-scoped advisory lock on the hash: a placement holds it from putting
// the bytes in place until the stored file that refers to them commits, and a free holds it
// while it looks for references and deletes, so a free never removes bytes that a racing upload
// is about to point at. The blobs table records what the store holds. Inside these transactions
// the store is asked through the transaction (storeIn): it may keep bytes in the database.
import type { Db } from '../../db/client';
import { Prisma } from '../../db/generated/client';
import { log } from '../../log';
import { isBlobLocked, type BlobStore, type PlaceOptions } from '../../storage/blob-store';
import { storeIn } from '../../storage/database-store';
import { BACKUP_RUNNING } from '../backup/backup-lease';

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];
const TX = { timeout: 120_000, maxWait: 120_000 };

const LOCK_SPACE = 7230201;
/** The SQL that takes the lock of `hash` until its transaction ends. */
export const hashLock = (hash: string) => Prisma.sql`pg_advisory_xact_lock(hashtextextended(${hash}, ${LOCK_SPACE}))`;
const lockHash = (tx: Tx, hash: string) => tx.$executeRaw`SELECT ${hashLock(hash)}`;
/**
 * The lock and the record in one round trip: the CTE runs first, as the INSERT reads it. A row
 * there already is written again: the same work as a new one, whoever recorded it.
 */
const lockAndRecord = (tx: Tx, blob: { hash: string; size: number }) => tx.$executeRaw`
  WITH locked AS (SELECT ${hashLock(blob.hash)})
  INSERT INTO blobs (hash, size) SELECT ${blob.hash}, ${blob.size} FROM locked ON CONFLICT (hash) DO UPDATE SET size = EXCLUDED.size`;

/**
 * Commits the held copy `uploadId` as blob `hash` and runs `refer` (which makes a stored file point
 * at it) in one transaction. `guard`, when given, runs in it before the copy is placed (an upload's
 * lease check: a holder that lost its lease must not place what its successor holds); `place.lock`
 * goes with the placement (S3 Object Lock: on the CopyObject or PutObject that places it).
 */
export async function withPlacedBlob<T>(
  db: Db,
  store: BlobStore,
  blob: { uploadId: string; hash: string; size: number },
  refer: (tx: Tx) => Promise<T>,
  guard?: (tx: Tx) => Promise<void>,
  /** the lock to place it with (a store with locks: S3 Object Lock) */
  place?: PlaceOptions,
): Promise<T> {
  // The transaction runs again after a deadlock (retry.ts), but the held copy moves once: a run
  // after it finds the bytes in place (a free in between took them: commitHeld fails, held gone).
  let placed = false;
  try {
    return await db.$transaction(async (tx) => {
      await lockAndRecord(tx, blob);
      await guard?.(tx);
      if (!placed || !(await storeIn(store, tx).exists(blob.hash))) {
        await store.commitHeld(blob.uploadId, blob.hash, place);
        placed = true;
      }
      return refer(tx);
    }, TX);
  } catch (err) {
    // The bytes may now be in place with nothing referring to them.
    await freeBlobs(db, store, [blob.hash]).catch(() => {});
    throw err;
  }
}

class BytesGone extends Error {}

/**
 * Records blob `hash`, whose bytes the caller put in place before (outside any lock, so no
 * transaction waits on the disk), and runs `refer` in one transaction. Under the lock the bytes
 * are looked for again: a free or the sweep may have taken them meanwhile, as nothing referred to
 * them yet. Then nothing is written and the answer is false: place them under the lock instead.
 */
export async function withRecordedBlob<T>(
  db: Db,
  store: BlobStore,
  blob: { hash: string; size: number },
  refer: (tx: Tx) => Promise<T>,
): Promise<T | false> {
  try {
    return await db.$transaction(async (tx) => {
      await lockAndRecord(tx, blob);
      if (!(await storeIn(store, tx).exists(blob.hash))) throw new BytesGone();
      return refer(tx);
    }, TX);
  } catch (err) {
    if (err instanceof BytesGone) return false;
    // The bytes may now be in place with nothing referring to them.
    await freeBlobs(db, store, [blob.hash]).catch(() => {});
    throw err;
  }
}

/** Runs `refer` with blob `hash` safe from being freed; false when its bytes are gone. */
export async function withExistingBlob<T>(db: Db, store: BlobStore, hash: string, refer: (tx: Tx) => Promise<T>): Promise<T | false> {
  return db.$transaction(async (tx) => {
    await lockHash(tx, hash);
    if (!(await storeIn(store, tx).exists(hash))) return false;
    return refer(tx);
  }, TX);
}

/** Runs `fn` with blob `hash` locked: no placement or free of those bytes happens meanwhile (fsck's second look). */
export async function underBlobLock<T>(db: Db, hash: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx) => {
    await lockHash(tx, hash);
    return fn(tx);
  }, TX);
}

/**
 * Deletes the bytes of each hash that no stored file refers to any more; returns how many it
 * freed. Every hash is tried; the first failure (a read-only store) is thrown at the end, and
 * what it left is collected by the sweep of unreferenced blobs (sweep-blobs.ts). A blob the store
 * keeps under a lock (S3 Object Lock refused the delete: BlobLocked) is no failure: it is logged
 * and kept, with its row, and a later sweep tries again.
 */
export async function freeBlobs(db: Db, store: BlobStore, hashes: Iterable<string>): Promise<number> {
  let freed = 0;
  let failure: unknown;
  for (const hash of [...new Set(hashes)].sort()) {
    try {
      const done = await db.$transaction(async (tx) => {
        await lockHash(tx, hash);
        // A backup running keeps every blob (backup-lease.ts): the sweep frees this one later.
        const refs = await tx.$queryRaw<{ n: number; backup: boolean }[]>`
          SELECT count(*)::int AS n, ${BACKUP_RUNNING} AS backup FROM files WHERE hash = ${hash} AND stored`;
        if (refs[0].n > 0 || refs[0].backup) return false;
        await storeIn(store, tx).delete(hash);
        await tx.$executeRaw`DELETE FROM blobs WHERE hash = ${hash}`;
        return true;
      }, TX);
      if (done) freed++;
    } catch (err) {
      if (isBlobLocked(err))
        log.warn({ hash, refusal: (err.cause as Error | undefined)?.message }, 'blob kept: the store refused to delete it (a lock)');
      else failure ??= err;
    }
  }
  if (failure) throw failure;
  return freed;
}
