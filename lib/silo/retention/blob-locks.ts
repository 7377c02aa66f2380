// The store seam of retention: after a retained version commits, or a version's retention or hold
// changes, its blob's store lock is set to what the versions sharing the blob ask (the latest date,
// compliance over governance, any hold). Stores without locks have no `lock` and this does nothing.
import type { Db } from '../../db/client';
import { log } from '../../log';
import type { BlobLock, BlobStore } from '../../storage/blob-store';

/**
 * Sets the store lock of each of `hashes` to what all its stored versions ask, after their commit.
 * `lifted`: a hold was lifted, so the store hears of blobs that ask nothing any more too.
 */
export async function lockBlobs(db: Db, store: BlobStore, hashes: Iterable<string>, lifted = false): Promise<void> {
  if (!store.lock) return;
  const unique = [...new Set(hashes)];
  if (!unique.length) return;
  const rows = await db.$queryRaw<{ hash: string; until: Date | null; compliance: boolean | null; hold: boolean | null }[]>`
    SELECT hash, max(retain_until) AS until, bool_or(retention_mode = 'compliance') AS compliance, bool_or(legal_hold) AS hold
    FROM files WHERE hash = ANY(${unique}::text[]) AND stored GROUP BY hash`;
  for (const r of rows) {
    const lock: BlobLock = {
      mode: r.until ? (r.compliance ? 'compliance' : 'governance') : null,
      retainUntil: r.until,
      legalHold: !!r.hold,
    };
    if (!lock.retainUntil && !lock.legalHold && !lifted) continue;
    // The rows decide what may be deleted; the store's lock is a second wall. A failure is logged,
    // and the next change of the blob's versions sets it again.
    await store.lock(r.hash, lock).catch((err) => log.error({ err, hash: r.hash }, 'blob lock not set'));
  }
}

/** After a version commits: its blob's lock, when the version is retained or held (nothing to ask otherwise). */
export async function lockVersionBlob(
  db: Db,
  store: BlobStore,
  f: { hash: string; stored: boolean; retainUntil: Date | null; legalHold: boolean },
): Promise<void> {
  if (store.lock && f.stored && (f.retainUntil || f.legalHold)) await lockBlobs(db, store, [f.hash]);
}
