// GET /silo/v1/folders: every folder of one owner and environment that holds entries (or has a
// folder below it that does), with the entries at or below it, sorted by folder (code points).
// One grouped read of the entry_folders index; not paged (a workspace has far fewer folders than entries).
import type { Db } from '../db/client';
import type { Target } from '../db/scope';
import type { FolderRecord } from '../schemas/entries';

export async function listFolders(db: Db, target: Target): Promise<{ list: FolderRecord[] }> {
  const list = await db.$queryRaw<FolderRecord[]>`
    SELECT prefix AS folder, count(*)::int AS entries FROM entry_folders
    WHERE owner_id = ${target.ownerId}::uuid AND sandbox = ${target.sandbox}
    GROUP BY prefix ORDER BY prefix COLLATE "C"`;
  return { list };
}
