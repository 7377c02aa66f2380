// DELETE /silo/v1/entries/{id}: the entry, all its files and versions; bytes freed when unreferenced.
import type { Db } from '../db/client';
import type { Scope } from '../access/principal';
import type { BlobStore } from '../storage/blob-store';
import { findEntry } from './entries';
import { releaseBytes, type RemovedFile } from './files/delete-file';

export async function deleteEntry(db: Db, store: BlobStore, scope: Scope, id: string): Promise<void> {
  const entry = await findEntry(db, scope, id);
  const removed = await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<RemovedFile[]>`DELETE FROM files WHERE entry_id = ${entry.id}::uuid RETURNING id::text, hash, stored`;
    await tx.entry.delete({ where: { id: entry.id } });
    return rows;
  });
  await releaseBytes(db, store, removed);
}
