// Writes of a file row take its slot's lock first: the order every write of files and slots
// takes them in (delete-file, delete-entry, complete-placeholder, insertCurrent's upsert). An
// UPDATE of a stored row locks its slot anyway, after the row (the bump_slot_rev trigger,
// prisma/migrations/…_slot_history_revision): taken the other way round, a PATCH and a DELETE of
// one file deadlocked on PostgreSQL (40P01).
import type { Db, Tx } from '../../db/client';
import { isRecordGone } from '../../db/db-errors';
import { fileNotFound } from './find-file';

/** `write` in a transaction holding the slot's row lock; 404 when the file or its slot is gone. */
export async function withSlotLocked<T>(db: Db, file: { id: string; slotId: string }, write: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await db.$transaction(async (tx) => {
      // The strength the trigger's UPDATE of the slot takes: no upgrade later, and a DELETE's or a
      // completion's FOR UPDATE waits for it (as it waits for them).
      const slot = await tx.$queryRaw<unknown[]>`SELECT 1 FROM file_slots WHERE id = ${file.slotId}::uuid FOR NO KEY UPDATE`;
      if (!slot.length) throw fileNotFound();
      return await write(tx);
    });
  } catch (err) {
    if (isRecordGone(err)) throw fileNotFound();
    throw err;
  }
}
