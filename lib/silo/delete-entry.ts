// DELETE /silo/v1/entries/{id}: the entry, all its files and versions; bytes freed when unreferenced.
import type { Db } from '../db/client';
import type { Scope } from '../db/scope';
import type { BlobStore } from '../storage/blob-store';
import { notFound } from '../errors';
import { findEntry } from './find-entry';
import { markLeased, releaseBytes, type RemovedFile } from './files/delete-file';

export interface DeleteEntryOptions {
  db: Db;
  store: BlobStore;
  scope: Scope;
  id: string;
}

export async function deleteEntry({ db, store, scope, id }: DeleteEntryOptions): Promise<void> {
  const entry = await findEntry({ db, scope, id });
  const removed = await db.$transaction(async (tx) => {
    // Slots before files, in one order, as a completing upload locks them (complete-placeholder.ts).
    await tx.$queryRaw`SELECT 1 FROM file_slots WHERE entry_id = ${entry.id}::uuid ORDER BY id FOR UPDATE`;
    const rows = await tx.$queryRaw<RemovedFile[]>`DELETE FROM files WHERE entry_id = ${entry.id}::uuid RETURNING id::text, hash, stored`;
    // A delete racing this one got there first: the loser answers 404 like any later request.
    if (!(await tx.entry.deleteMany({ where: { id: entry.id } })).count) throw notFound('Entry not found');
    return markLeased(tx, rows);
  });
  await releaseBytes(db, store, removed);
}
