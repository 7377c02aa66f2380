// GET …/entries/{entry_id}/files (and an entry's attachments): each slot's current version, or
// its newest placeholder.
import type { Tx } from '../../db/client';
import type { File } from '../../db/generated/client';

export async function listFiles(db: Tx, entryId: string): Promise<File[]> {
  const slots = await db.fileSlot.findMany({
    where: { entryId },
    include: { files: { where: { stored: false }, orderBy: { createdAt: 'desc' }, take: 1 } },
    orderBy: [{ category: 'asc' }, { key: 'asc' }],
  });
  const currentIds = slots.map((s) => s.currentId).filter((id): id is string => !!id);
  const current = new Map((await db.file.findMany({ where: { id: { in: currentIds } } })).map((f) => [f.id, f]));
  return slots.flatMap((s) => (s.currentId ? (current.get(s.currentId) ?? []) : s.files));
}
