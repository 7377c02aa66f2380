// PATCH /silo/v1/entries/{id}: key, folder, name, meta.
import type { Db } from '../db/client';
import type { Entry } from '../db/generated/client';
import { UNIQUE, isUniqueViolation } from '../db/db-errors';
import type { Scope } from '../db/scope';
import type { EntryUpdate } from '../schemas/entries';
import { findEntry, keyTaken } from './find-entry';

export interface UpdateEntryOptions {
  db: Db;
  scope: Scope;
  id: string;
  patch: EntryUpdate;
}

export async function updateEntry({ db, scope, id, patch }: UpdateEntryOptions): Promise<Entry> {
  const entry = await findEntry({ db, scope, id });
  try {
    return await db.entry.update({ where: { id: entry.id }, data: patch });
  } catch (err) {
    if (isUniqueViolation(err, UNIQUE.entryKey) && patch.key) throw keyTaken(patch.key);
    throw err;
  }
}
