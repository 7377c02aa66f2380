// DELETE …/files/{id}: a current file goes with its whole history; an earlier version goes alone.
import type { Db } from '../../db/client';
import type { File } from '../../db/generated/client';
import type { BlobStore } from '../../storage/blob-store';
import { log } from '../../log';
import { appendEvent } from '../../events/append-event';
import { type EventActor, eventActorFor } from '../../events/catalogue';
import { Prisma } from '../../db/generated/client';
import { refusedByDatabase } from '../../db/db-errors';
import { answer, type DeleteRefused, guardDelete } from '../retention/delete-guard';
import { freeBlobs } from './blobs';

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

export interface RemovedFile {
  id: string;
  hash: string;
  stored: boolean;
  /** a placeholder whose upload holds a live lease: its held bytes are left to that upload */
  leased?: boolean;
}

export interface DeleteFileOptions {
  db: Db;
  store: BlobStore;
  file: File;
  /** who deletes it (null: the admin key) */
  actor: EventActor | null;
  /** an administrator overrides governance retention (retention/delete-guard.ts) */
  bypassGovernance?: boolean;
}

/** The versions (or the placeholder) a delete removed, as its file.deleted record lists them. */
interface DeletedRow extends RemovedFile {
  version: number | null;
  name: string;
  size: bigint;
}

export async function deleteFile({ db, store, file, actor, bypassGovernance = false }: DeleteFileOptions): Promise<void> {
  const outcome = await db
    .$transaction(async (tx): Promise<RemovedFile[] | DeleteRefused> => {
      // The slot row first, locked as a completion locks it (complete-placeholder.ts): which file is
      // current cannot change between reading it and deleting.
      const [slot] = await tx.$queryRaw<{ id: string; current_id: string | null }[]>`
      SELECT id::text, current_id::text FROM file_slots WHERE id = ${file.slotId}::uuid FOR UPDATE`;
      if (!slot) return [];
      const whole = slot.current_id === file.id;
      const refused = await guardDelete(tx, whole ? Prisma.sql`f.slot_id = ${slot.id}::uuid` : Prisma.sql`f.id = ${file.id}::uuid`, {
        actor: eventActorFor(actor),
        chain: { ownerId: null },
        entryId: file.entryId,
        fileId: file.id,
        version: file.version,
        bypassGovernance,
        refused: 'file.delete_refused',
      });
      if (refused) return refused;
      const rows =
        slot.current_id === file.id
          ? await tx.$queryRaw<
              DeletedRow[]
            >`DELETE FROM files WHERE slot_id = ${slot.id}::uuid RETURNING id::text, hash, stored, version, name, size`
          : await tx.$queryRaw<
              DeletedRow[]
            >`DELETE FROM files WHERE id = ${file.id}::uuid RETURNING id::text, hash, stored, version, name, size`;
      await tx.$executeRaw`DELETE FROM file_slots s WHERE s.id = ${slot.id}::uuid AND NOT EXISTS (SELECT 1 FROM files f WHERE f.slot_id = s.id)`;
      if (rows.length)
        await appendEvent(tx, {
          ownerId: null,
          type: 'file.deleted',
          actor: eventActorFor(actor),
          entryId: file.entryId,
          fileId: file.id,
          version: file.version,
          data: {
            category: file.category,
            key: file.key,
            whole: slot.current_id === file.id,
            versions: rows.map((r) => ({
              id: r.id,
              version: r.version,
              name: r.name,
              sha256: r.hash,
              size: Number(r.size),
              stored: r.stored,
            })),
          },
        });
      return markLeased(tx, rows);
    })
    .catch(refusedByDatabase);
  await releaseBytes(db, store, answer(outcome));
}

/**
 * Marks removed placeholders that an upload holds the lease of. Run after the DELETE, in its
 * transaction: a lease is taken with the file row locked FOR SHARE, so it either committed before
 * the DELETE got the row (and this later statement sees it) or finds the row gone and takes none.
 */
export async function markLeased(tx: Tx, rows: RemovedFile[]): Promise<RemovedFile[]> {
  const ids = rows.filter((r) => !r.stored).map((r) => r.id);
  if (!ids.length) return rows;
  const live = await tx.$queryRaw<{ id: string }[]>`
    SELECT file_id::text AS id FROM upload_leases WHERE file_id = ANY(${ids}::uuid[]) AND expires_at > now()`;
  const leased = new Set(live.map((l) => l.id));
  return rows.map((r) => ({ ...r, leased: leased.has(r.id) }));
}

/**
 * After rows are gone: drop held partial uploads nobody is writing and free blobs nothing refers
 * to. The delete has happened whatever this does: bytes it cannot free now (a read-only store) are
 * logged and left to the sweeps (sweep-uploads.ts, sweep-blobs.ts).
 */
export async function releaseBytes(db: Db, store: BlobStore, files: RemovedFile[]): Promise<void> {
  const later = (err: unknown) => log.warn({ err }, 'bytes not freed yet; the sweep will');
  for (const f of files) if (!f.stored && !f.leased) await store.dropHeld(f.id).catch(later);
  await freeBlobs(
    db,
    store,
    files.filter((f) => f.stored).map((f) => f.hash),
  ).catch(later);
}
