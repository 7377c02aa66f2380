// `npm run fsck`: does the blob store hold every blob the database refers to, with the right size
// and bytes, and on a local disk still read-only (a blob file is placed 0444: one that became
// writable was changed by hand, even if its bytes still hash right); what does it hold that nothing
// refers to (blobs, held upload copies)? And what did someone do past the database's guards: a
// retained or held version whose blob is gone (retained-gone.ts), a version the event log recorded
// as made whose row is gone with no record of its delete (vanished-versions.ts). The store is the
// one the server reads (small blobs kept in the database in front of it: database-store.ts). With `fix`,
// unreferenced blobs are freed through freeBlobs (the server's locked path, so a racing upload is
// never hurt) and dead held copies dropped as the upload sweep does.
import { createHash } from 'node:crypto';
import { SMALL_BLOB_CEILING } from '../config';
import type { Db } from '../db/client';
import { UUID } from '../schemas/common';
import type { BlobInfo, BlobStore } from '../storage/blob-store';
import { keptBatches, storeIn, type DatabaseStore } from '../storage/database-store';
import { LocalDiskStore } from '../storage/local-disk';
import { underBlobLock } from './files/blobs';
import { type RetainedGone, retainedGone } from './retained-gone';
import { type VanishedVersion, vanishedVersions } from './vanished-versions';
import { sweepBlobs, unreferencedAmong } from './files/sweep-blobs';
import { sweepUploads } from './files/sweep-uploads';
import { isUploadExpired } from './files/upload-window';

const BATCH = 500;

export interface FsckOptions {
  /** free unreferenced blobs and drop dead held copies */
  fix?: boolean;
  /** hash every referenced blob's bytes (default); false checks sizes (and a local disk's file modes) only */
  verifyBytes?: boolean;
  /** called after each referenced blob is checked */
  progress?: (checked: number) => void;
}

export interface BadBlob {
  hash: string;
  /** the size the files record */
  size: number;
  /** stored files that refer to it */
  files: number;
  example: { fileId: string; entryId: string; name: string };
  /** writable: a local disk's blob file that is no longer read-only (its size and, unless quick, bytes are right) */
  problem: 'missing' | 'wrong_size' | 'wrong_bytes' | 'writable';
  /** what the store holds instead */
  actual?: { size: number; hash?: string };
}

export interface HeldCopy {
  uploadId: string;
  size: number;
  modifiedAt: Date;
  /** uploading: a placeholder's resumable bytes; expired / orphan: the sweep drops it; scratch: a request's temporary copy */
  state: 'uploading' | 'expired' | 'orphan' | 'scratch';
}

export interface FsckReport {
  referenced: { blobs: number; bytes: number };
  bad: BadBlob[];
  unreferenced: BlobInfo[];
  held: HeldCopy[];
  /** retained or held versions whose blob is gone (its bytes, or its row of `blobs`) */
  retainedGone: RetainedGone[];
  /** versions the event log recorded as made whose row is gone, with no record of their delete */
  vanished: VanishedVersion[];
  /** with fix: blobs freed, held copies dropped */
  freed: number;
  dropped: number;
}

/** Whether the report names anything wrong (npm run fsck exits 1). */
export const hasProblems = (r: FsckReport) => r.bad.length + r.retainedGone.length + r.vanished.length > 0;

export async function fsck(db: Db, store: BlobStore, opts: FsckOptions = {}): Promise<FsckReport> {
  const report: FsckReport = {
    referenced: { blobs: 0, bytes: 0 },
    bad: [],
    unreferenced: [],
    held: [],
    retainedGone: [],
    vanished: [],
    freed: 0,
    dropped: 0,
  };
  for (let after = ''; ; ) {
    // recorded: the blob's row in `blobs` (the server writes it before any file points at it, and frees it only after none does)
    const rows = await db.$queryRaw<{ hash: string; size: bigint; files: number; recorded: boolean }[]>`
      SELECT f.hash, max(f.size) AS size, count(*)::int AS files, EXISTS (SELECT 1 FROM blobs b WHERE b.hash = f.hash) AS recorded
      FROM files f WHERE f.stored AND f.hash > ${after}
      GROUP BY f.hash ORDER BY f.hash LIMIT ${BATCH}`;
    if (!rows.length) break;
    after = rows[rows.length - 1].hash;
    for (const group of groups(rows)) {
      const kept = await keptAmong(store, group, opts);
      for (const row of group) {
        await checkReferenced(db, store, row, kept.get(row.hash), opts, report);
        opts.progress?.(report.referenced.blobs);
      }
    }
  }
  report.vanished = await vanishedVersions(db);
  report.unreferenced = await unreferencedBlobs(db, store);
  report.held = await heldCopies(db, store);
  if (opts.fix) {
    report.freed = (await sweepBlobs(db, store)).freed;
    report.dropped = await sweepUploads(db, store);
  }
  return report;
}

/** One referenced blob, its bytes the database keeps when read in its batch (`bytes`): into `report`. */
async function checkReferenced(
  db: Db,
  store: BlobStore,
  row: { hash: string; size: bigint; files: number; recorded: boolean },
  bytes: Buffer | undefined,
  opts: FsckOptions,
  report: FsckReport,
): Promise<void> {
  const expected = { hash: row.hash, size: Number(row.size), files: row.files };
  report.referenced.blobs++;
  report.referenced.bytes += expected.size;
  // A problem is looked at again under the blob's lock: a file deleted (and its bytes
  // freed) by a running server between the two reads is no problem.
  if (bytes ? keptProblem(bytes, expected) : await problemOf(store, expected, opts)) {
    const confirmed = await underBlobLock(db, row.hash, async (tx) => {
      const still = await tx.file.findFirst({
        where: { hash: row.hash, stored: true },
        select: { id: true, entryId: true, name: true },
      });
      const problem = still && (await problemOf(storeIn(store, tx), expected, opts));
      return problem && { ...problem, example: { fileId: still.id, entryId: still.entryId, name: still.name } };
    });
    if (confirmed) report.bad.push({ ...expected, ...confirmed });
    const gone = confirmed && confirmed.problem === 'missing' && (await retainedGone(db, row.hash, 'bytes'));
    if (gone) return void report.retainedGone.push(gone);
  }
  if (!row.recorded) await unrecorded(db, row.hash, report);
}

/** A referenced blob without its row: named when a retained or held version points at it (looked at again, as a free may have raced the page). */
async function unrecorded(db: Db, hash: string, report: FsckReport): Promise<void> {
  const gone = await underBlobLock(db, hash, async (tx) =>
    (await tx.blob.count({ where: { hash } })) ? undefined : retainedGone(tx, hash, 'row'),
  );
  if (gone) report.retainedGone.push(gone);
}

/** `rows` in keptMany's batches (keptBatches). */
function* groups<R extends { size: bigint }>(rows: R[]): Iterable<R[]> {
  let group: R[] = [];
  const batches = keptBatches();
  for (const row of rows) {
    if (batches.next(Number(row.size))) {
      yield group;
      group = [];
    }
    group.push(row);
  }
  if (group.length) yield group;
}

/**
 * The bytes the database keeps of the small blobs among `rows`, in one statement instead of two per
 * blob (an archive holds millions): when bytes are hashed and the store keeps bytes in the database
 * (DatabaseStore.keptMany). A blob missing from the answer is checked alone (problemOf), as every
 * blob is otherwise.
 */
async function keptAmong(store: BlobStore, rows: { hash: string; size: bigint }[], opts: FsckOptions): Promise<Map<string, Buffer>> {
  const many = (store as Partial<DatabaseStore>).keptMany?.bind(store);
  if (!many || opts.verifyBytes === false) return new Map();
  const small = rows.filter((r) => Number(r.size) <= SMALL_BLOB_CEILING).map((r) => r.hash);
  return small.length ? many(small) : new Map();
}

/** A blob the database keeps, checked as problemOf checks it (it has no file to be writable). */
function keptProblem(bytes: Buffer, want: { hash: string; size: number }): Pick<BadBlob, 'problem' | 'actual'> | undefined {
  if (bytes.length !== want.size) return { problem: 'wrong_size', actual: { size: bytes.length } };
  const hash = createHash('sha256').update(bytes).digest('hex');
  return hash === want.hash ? undefined : { problem: 'wrong_bytes', actual: { size: bytes.length, hash } };
}

/** What a fetch serves, checked: the store answers wherever it keeps the bytes (the database's first). */
async function problemOf(
  store: BlobStore,
  want: { hash: string; size: number },
  opts: FsckOptions,
): Promise<Pick<BadBlob, 'problem' | 'actual'> | undefined> {
  const size = await store.blobSize(want.hash);
  if (size === undefined) return { problem: 'missing' };
  if (size !== want.size) return { problem: 'wrong_size', actual: { size } };
  if (opts.verifyBytes !== false) {
    const hasher = createHash('sha256');
    for await (const chunk of await store.read(want.hash)) hasher.update(chunk as Buffer);
    const hash = hasher.digest('hex');
    if (hash !== want.hash) return { problem: 'wrong_bytes', actual: { size, hash } };
  }
  // One stat: cheap enough for --quick too. (Bytes the database keeps have no file: not writable.)
  if (await diskOf(store)?.blobWritable(want.hash)) return { problem: 'writable' };
  return undefined;
}

/** The local disk under `store` (itself, or the one a DatabaseStore wraps), whose blob files must be read-only. */
function diskOf(store: BlobStore): LocalDiskStore | undefined {
  const s = (store as Partial<DatabaseStore>).inner ?? store;
  return s instanceof LocalDiskStore ? s : undefined;
}

async function unreferencedBlobs(db: Db, store: BlobStore): Promise<BlobInfo[]> {
  const out: BlobInfo[] = [];
  let batch: BlobInfo[] = [];
  const flush = async () => {
    const unref = new Set(
      await unreferencedAmong(
        db,
        batch.map((b) => b.hash),
      ),
    );
    out.push(...batch.filter((b) => unref.has(b.hash)));
    batch = [];
  };
  for await (const blob of store.listBlobs()) {
    batch.push(blob);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return out;
}

async function heldCopies(db: Db, store: BlobStore): Promise<HeldCopy[]> {
  const held = await store.listHeld();
  const ids = held.map((h) => h.uploadId).filter((id) => UUID.test(id));
  const files = new Map(
    (await db.file.findMany({ where: { id: { in: ids } }, select: { id: true, stored: true, uploadExpiresAt: true } })).map((f) => [
      f.id,
      f,
    ]),
  );
  const now = Date.now();
  const out: HeldCopy[] = [];
  for (const h of held) {
    const f = files.get(h.uploadId);
    const state: HeldCopy['state'] = !UUID.test(h.uploadId)
      ? 'scratch'
      : !f || f.stored
        ? 'orphan'
        : isUploadExpired(f, now)
          ? 'expired'
          : 'uploading';
    out.push({ uploadId: h.uploadId, size: await store.heldSize(h.uploadId), modifiedAt: h.modifiedAt, state });
  }
  return out;
}
