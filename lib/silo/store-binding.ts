// A blob store belongs to one database. Deleting a file frees the bytes nothing in *its* database
// refers to, so a store shared by two databases loses files; the store therefore records the
// database that first used it, and a server refuses to start on another database's store.
import type { Db } from '../db/client';
import { databaseId } from '../db/database-id';
import type { BlobStore } from '../storage/blob-store';

/** Claims `store` for this database (the first time) or checks that it is this database's; throws StoreOfAnotherDatabase. */
export async function bindStore(db: Db, store: BlobStore): Promise<string> {
  const id = await databaseId(db);
  await store.claim(id);
  return id;
}

/**
 * Until stores were kept apart, a PostgreSQL database kept its files in `$DATA_DIR/blobs`, the
 * embedded database's folder, by default. Now it gets a folder of its own: starting on that new,
 * empty folder while the old one holds files would make every stored file answer "missing".
 * Returns why the server must not start, or undefined.
 */
export async function movedDefaultProblem(
  db: Db,
  o: { store: BlobStore; storeDir: string; oldStore: BlobStore; oldDir: string },
): Promise<string | undefined> {
  if (await any(o.store.listBlobs())) return undefined;
  if (!(await any(o.oldStore.listBlobs()))) return undefined;
  const stored = await db.file.count({ where: { stored: true } });
  if (!stored) return undefined;
  return (
    `this PostgreSQL database's files now default to ${o.storeDir} (one folder per database), which holds none of its ` +
    `${stored} stored files, while ${o.oldDir} (the folder every database shared before) holds files. ` +
    `If they are this database's, set STORAGE_DIR=${o.oldDir}, or copy them (cp -al ${o.oldDir}/sha256 ${o.storeDir}/) and ` +
    `run npm run fsck -- --fix; see docs/api.md, Storage`
  );
}

async function any(items: AsyncIterable<unknown>): Promise<boolean> {
  for await (const _ of items) return true;
  return false;
}
