// The checks a placeholder's completion (an upload, or its bytes sent inline) makes in the
// transaction that stores it, before makeCurrent. The slot is locked before the file row: the
// order delete-file and delete-entry lock in, so a completion and a delete never deadlock.
import type { Db } from '../../db/client';
import { fileNotFound } from './find-file';
import { uploadBusy, type UploadLease } from './upload-lock';

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/**
 * 404 when the file (or its slot) was deleted meanwhile; 409 when `lease` is no longer ours. The
 * fence of a completion: a takeover reads the file row FOR SHARE before it takes the lease
 * (upload-lock.ts), so under this row lock the lease cannot change hands until the commit.
 */
export async function lockForCompletion(tx: Tx, file: { id: string; slotId: string }, lease: UploadLease): Promise<void> {
  const slot = await tx.$queryRaw<unknown[]>`SELECT 1 FROM file_slots WHERE id = ${file.slotId}::uuid FOR UPDATE`;
  const row = await tx.$queryRaw<unknown[]>`SELECT 1 FROM files WHERE id = ${file.id}::uuid FOR UPDATE`;
  if (!slot.length || !row.length) throw fileNotFound();
  const ours = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM upload_leases
    WHERE file_id = ${lease.fileId}::uuid AND holder = ${lease.holder}::uuid AND generation = ${lease.generation}::bigint`;
  if (!ours.length) throw uploadBusy();
}
