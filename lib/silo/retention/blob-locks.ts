// The store seam of retention: a version whose retention is known before its bytes are placed (an
// inline create, an upload completing) has its blob placed locked (placementLock → the store's
// PutObject/CopyObject headers); after a retained version commits, or a version's retention or hold
// changes, its blob's store lock is set to what the versions sharing the blob ask (the latest date,
// compliance over governance, any hold). Stores without locks have no `lock` and this does nothing.
import type { Db, Tx } from '../../db/client';
import { log } from '../../log';
import type { RetentionMode } from '../../schemas/retention';
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

/** The retention a version is stored with at least: what its create asked, or the placement lock's floor. */
export interface RetentionFloor {
  retainUntil: Date | null;
  retentionMode: RetentionMode | null;
}

/**
 * The lock to place a version's bytes with, before they are placed and the version stored: the
 * latest date its entry's rules give now (the database's clock and functions, as the trigger of
 * prisma/sql/retention.sql will a moment later, which can only give a date as late or later) and what
 * its create asked; compliance when either is. Undefined: the store has no locks (no query then),
 * or nothing is retained. No legal hold: a hold lifted before the version commits would leave its
 * blob held with no row asking it, so a hold is set after the commit, as lockVersionBlob does.
 * The version is then stored with at least this (retentionFloor), so that no blob is locked longer
 * than a row says, even when a rule is deleted meanwhile.
 */
export async function placementLock(
  db: Tx,
  store: BlobStore,
  version: { entryId: string; category: string; retainUntil: Date | null; retentionMode: string | null },
): Promise<BlobLock | undefined> {
  if (!store.lock) return undefined;
  const [r] = await db.$queryRaw<{ until: Date | null; compliance: boolean | null }[]>`
    SELECT max("silo_retention_date"(rr."from", rr.years, rr.days, now())) AS until, bool_or(rr.mode = 'compliance') AS compliance
    FROM entries e JOIN retention_rules rr ON rr.owner_id = e.owner_id AND rr.sandbox = e.sandbox
      AND (rr.category IS NULL OR rr.category = ${version.category}) AND "silo_folder_covers"(rr.folder, e.folder)
    WHERE e.id = ${version.entryId}::uuid`;
  const asked = version.retainUntil;
  const until = r?.until && (!asked || r.until > asked) ? r.until : asked;
  if (!until) return undefined;
  const compliance = (!!r?.until && !!r.compliance) || version.retentionMode === 'compliance';
  return { mode: compliance ? 'compliance' : 'governance', retainUntil: until, legalHold: false };
}

/** What a version placed with `lock` is stored with at least. */
export const retentionFloor = (lock: BlobLock | undefined, asked: RetentionFloor): RetentionFloor =>
  lock?.retainUntil ? { retainUntil: lock.retainUntil, retentionMode: lock.mode } : asked;
