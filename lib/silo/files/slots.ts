// Version bookkeeping. A slot is one file identity in an entry (category + key or name); every
// version is its own row, the slot's current_id points at the current one, and seq numbers the
// versions. Making a version current is one UPDATE of the slot row, so racing replacements
// serialise on that row and every one of them gets its own version number: none is lost.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import type { File } from '../../db/generated/client';
import { ApiError } from '../../errors';

type Tx = Omit<Db, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

export async function ensureSlot(db: Tx, entryId: string, category: string, key: string): Promise<string> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO file_slots (id, entry_id, category, key) VALUES (${randomUUID()}::uuid, ${entryId}::uuid, ${category}, ${key})
    ON CONFLICT (entry_id, category, key) DO UPDATE SET key = EXCLUDED.key
    RETURNING id::text`;
  return rows[0].id;
}

export class AlreadyStored extends Error {}

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

/** Earlier stored versions of a file, newest first; for a placeholder, every stored version of its slot. */
export async function previousOf(db: Tx, file: File): Promise<File[]> {
  return db.file.findMany({
    where: {
      slotId: file.slotId,
      stored: true,
      id: { not: file.id },
      ...(file.version !== null ? { version: { lt: file.version } } : {}),
    },
    orderBy: { version: 'desc' },
  });
}

/** An entry's files as the API lists them: each slot's current version, or its newest placeholder. */
export async function currentFiles(db: Tx, entryId: string): Promise<File[]> {
  const slots = await db.fileSlot.findMany({
    where: { entryId },
    include: { files: { where: { stored: false }, orderBy: { createdAt: 'desc' }, take: 1 } },
    orderBy: [{ category: 'asc' }, { key: 'asc' }],
  });
  const currentIds = slots.map((s) => s.currentId).filter((id): id is string => !!id);
  const current = new Map((await db.file.findMany({ where: { id: { in: currentIds } } })).map((f) => [f.id, f]));
  return slots.flatMap((s) => (s.currentId ? [current.get(s.currentId)!] : s.files)).filter(Boolean);
}
