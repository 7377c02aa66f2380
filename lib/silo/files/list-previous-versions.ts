// A file's history: the versions before it in its slot.
import type { Tx } from '../../db/client';
import type { File } from '../../db/generated/client';

/** Earlier stored versions of a file, newest first; for a placeholder, every stored version of its slot. */
export async function listPreviousVersions(db: Tx, file: File): Promise<File[]> {
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
