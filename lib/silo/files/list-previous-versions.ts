// A file's history: the versions before it in its slot.
import type { Tx } from '../../db/client';
import type { File } from '../../db/generated/client';

/** What a file's `previous` shows of each earlier version. */
export type PreviousVersion = Pick<File, 'id' | 'hash' | 'size' | 'createdAt' | 'version' | 'desc' | 'createdBy' | 'restoredFrom'>;

/** Earlier stored versions of a file, newest first; for a placeholder, every stored version of its slot. */
export async function listPreviousVersions(db: Tx, file: File): Promise<PreviousVersion[]> {
  // Versions count from 1: the first has none before it (most files), and no query is needed.
  if (file.version === 1) return [];
  return db.file.findMany({
    where: {
      slotId: file.slotId,
      stored: true,
      id: { not: file.id },
      ...(file.version !== null ? { version: { lt: file.version } } : {}),
    },
    select: { id: true, hash: true, size: true, createdAt: true, version: true, desc: true, createdBy: true, restoredFrom: true },
    orderBy: { version: 'desc' },
  });
}
