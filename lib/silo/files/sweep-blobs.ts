// Frees blobs no stored file refers to: bytes a crash left between placing them and recording the
// file, and bytes a delete could not free (a read-only store answered the delete 204 anyway).
// Every candidate goes through freeBlobs, which takes the hash's lock and counts references
// again: an upload placing the same bytes holds that lock from before the rename until its file
// row commits, so the sweep either runs before it (and the upload places the bytes anew) or
// after it (and sees the reference). A referenced blob is never taken.
//
// The server's sweep frees only blobs placed after its database first swept (sweepHorizon):
// older blobs may belong to another database, from the days a PostgreSQL database and the
// embedded one shared `$DATA_DIR/blobs` by default. `npm run fsck -- --fix` frees those, on the
// operator's word.
import type { Db } from '../../db/client';
import type { BlobStore } from '../../storage/blob-store';
import { Prisma } from '../../db/generated/client';
import { freeBlobs, underBlobLock } from './blobs';
import { dropKeptBytes, storeIn } from '../../storage/database-store';

const BATCH = 500;

export interface BlobSweep {
  /** blobs the store holds, every one listed */
  checked: number;
  /** blobs the store holds that no stored file refers to, as seen before freeing (older ones left alone included) */
  unreferenced: number;
  freed: number;
}

export interface BlobSweepOptions {
  /** leave blobs last written before this time alone */
  placedAfter?: Date;
}

/** When this database first swept: blobs older than that are not known to be its own. Made once. */
export async function sweepHorizon(db: Db): Promise<Date> {
  await db.$executeRaw`INSERT INTO settings (name, value) VALUES ('blob_sweep_horizon', ${new Date().toISOString()}) ON CONFLICT (name) DO NOTHING`;
  return new Date((await db.setting.findUniqueOrThrow({ where: { name: 'blob_sweep_horizon' } })).value);
}

export async function sweepBlobs(db: Db, store: BlobStore, opts: BlobSweepOptions = {}): Promise<BlobSweep> {
  const result: BlobSweep = { checked: 0, unreferenced: 0, freed: 0 };
  const placedAfter = opts.placedAfter?.getTime() ?? -Infinity;
  let failure: unknown;
  const free = async (blobs: { hash: string; modifiedAt: Date }[]) => {
    result.checked += blobs.length;
    const unreferenced = new Set(
      await unreferencedAmong(
        db,
        blobs.map((b) => b.hash),
      ),
    );
    result.unreferenced += unreferenced.size;
    const ours = blobs.filter((b) => unreferenced.has(b.hash) && b.modifiedAt.getTime() >= placedAfter).map((b) => b.hash);
    // One failing blob must not stop the others; the first failure is reported at the end.
    result.freed += await freeBlobs(db, store, ours).catch((err) => {
      failure ??= err;
      return 0;
    });
  };
  let batch: { hash: string; modifiedAt: Date }[] = [];
  for await (const blob of store.listBlobs()) {
    batch.push(blob);
    if (batch.length >= BATCH) {
      await free(batch);
      batch = [];
    }
  }
  await free(batch);
  // Rows of the blobs table whose bytes are gone (freed by hand, or never placed), and bytes the
  // database keeps (database-store.ts) for no file, however old (no other database wrote them):
  // rows and kept bytes only, never the wrapped store's, which the listing above leaves to the horizon.
  for (let after = ''; ; ) {
    const rows = await db.$queryRaw<{ hash: string; kept: boolean }[]>`
      SELECT b.hash, b.data IS NOT NULL AS kept FROM blobs b WHERE b.hash > ${after}
        AND NOT EXISTS (SELECT 1 FROM files f WHERE f.hash = b.hash AND f.stored)
      ORDER BY b.hash LIMIT ${BATCH}`;
    if (!rows.length) break;
    after = rows[rows.length - 1].hash;
    for (const { hash, kept } of rows) {
      if (!kept && (await store.exists(hash))) continue;
      await underBlobLock(db, hash, async (tx) => {
        const referenced = Prisma.sql`EXISTS (SELECT 1 FROM files f WHERE f.hash = b.hash AND f.stored)`;
        if (await dropKeptBytes(tx, hash, referenced)) result.freed++;
        // Its kept bytes gone, the store holds the blob only if the store it wraps does.
        if (!(await storeIn(store, tx).exists(hash)))
          await tx.$executeRaw`DELETE FROM blobs b WHERE b.hash = ${hash} AND NOT ${referenced}`;
      }).catch((err) => (failure ??= err));
    }
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
