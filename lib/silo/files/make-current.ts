// Making a version current. Every version is its own row, the slot's current_id points at the
// current one, and seq numbers the versions. It is one UPDATE of the slot row, so racing
// replacements serialise on that row and every one of them gets its own version number: none is lost.
import type { Tx } from '../../db/client';
import { ApiError } from '../../errors';

class AlreadyStored extends Error {}

/** Marks a placeholder stored and makes it the current version of its slot, in the caller's transaction. */
export async function makeCurrent(tx: Tx, file: { id: string; slotId: string }): Promise<void> {
  const marked = await tx.$executeRaw`
    UPDATE files SET stored = true, stored_at = now(), upload_expires_at = NULL WHERE id = ${file.id}::uuid AND stored = false`;
  if (marked !== 1) throw new AlreadyStored();
  const rows = await tx.$queryRaw<{ seq: number }[]>`
    UPDATE file_slots SET seq = seq + 1, current_id = ${file.id}::uuid WHERE id = ${file.slotId}::uuid RETURNING seq`;
  if (!rows.length) throw new ApiError('not_found', 'The file was deleted');
  await tx.$executeRaw`UPDATE files SET version = ${rows[0].seq} WHERE id = ${file.id}::uuid`;
}
