// PATCH /silo/v1/entries/{id}: key, folder, name, meta.
import type { Db } from '../db/client';
import type { Entry } from '../db/generated/client';
import { UNIQUE, isRecordGone, isUniqueViolation } from '../db/db-errors';
import type { Scope } from '../db/scope';
import type { EntryUpdate } from '../schemas/entries';
import { entryNotFound, findEntry, keyTaken } from './find-entry';

export interface UpdateEntryOptions {
  db: Db;
  scope: Scope;
  id: string;
  patch: EntryUpdate;
}

export async function updateEntry({ db, scope, id, patch }: UpdateEntryOptions): Promise<Entry> {
  return updateEntryRow(db, await findEntry({ db, scope, id }), patch);
}

/** The UPDATE of an entry found: 404 when a DELETE committed since it was found, 409 for a taken key. */
export async function updateEntryRow(db: Db, entry: Entry, patch: EntryUpdate): Promise<Entry> {
  try {
    return await db.entry.update({ where: { id: entry.id }, data: patch });
  } catch (err) {
    if (isUniqueViolation(err, UNIQUE.entryKey) && patch.key) throw keyTaken(patch.key);
    if (isRecordGone(err)) throw entryNotFound();
    throw err;
  }
}
