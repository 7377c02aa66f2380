// DELETE …/files/{id}: a current file goes with its whole history; an earlier version goes alone.
import type { Db } from '../../db/client';
import type { File } from '../../db/generated/client';
import type { BlobStore } from '../../storage/blob-store';
import { freeBlobs } from './blobs';

export interface RemovedFile {
  id: string;
  hash: string;
  stored: boolean;
}

export async function deleteFile(db: Db, store: BlobStore, file: File): Promise<void> {
  const removed = await db.$transaction(async (tx) => {
    const slot = await tx.fileSlot.findUnique({ where: { id: file.slotId } });
    if (!slot) return [];
    const rows =
      slot.currentId === file.id
        ? await tx.$queryRaw<RemovedFile[]>`DELETE FROM files WHERE slot_id = ${slot.id}::uuid RETURNING id::text, hash, stored`
        : await tx.$queryRaw<RemovedFile[]>`DELETE FROM files WHERE id = ${file.id}::uuid RETURNING id::text, hash, stored`;
    await tx.$executeRaw`DELETE FROM file_slots s WHERE s.id = ${slot.id}::uuid AND NOT EXISTS (SELECT 1 FROM files f WHERE f.slot_id = s.id)`;
    return rows;
  });
  await releaseBytes(db, store, removed);
}

/**
 * After rows are gone: drop held partial uploads and free blobs nothing refers to. The delete has
 * happened whatever this does: bytes it cannot free now (a read-only store) are logged and left
 * to the sweeps (sweep-uploads.ts, sweep-blobs.ts).
 */
export async function releaseBytes(db: Db, store: BlobStore, files: RemovedFile[]): Promise<void> {
  const later = (err: unknown) => console.error(JSON.stringify({ level: 'warn', msg: 'bytes not freed yet; the sweep will', error: String(err) }));
  for (const f of files) if (!f.stored) await store.dropHeld(f.id).catch(later);
  await freeBlobs(db, store, files.filter((f) => f.stored).map((f) => f.hash)).catch(later);
}
