// PATCH /silo/v1/entries/{id}: key, folder, name, meta.
import type { Db } from '../db/client';
import type { Entry } from '../db/generated/client';
import { UNIQUE, isRecordGone, isUniqueViolation } from '../db/db-errors';
import type { Scope } from '../db/scope';
import { appendEvent } from '../events/append-event';
import { changesOf } from '../events/changes';
import { type EventActor, eventActorFor } from '../events/catalogue';
import type { EntryUpdate } from '../schemas/entries';
import { entryNotFound, findEntry, keyTaken } from './find-entry';

export interface UpdateEntryOptions {
  db: Db;
  scope: Scope;
  id: string;
  patch: EntryUpdate;
  /** who edits it, as its entry.updated record names them (null: the admin key) */
  actor: EventActor | null;
}

export async function updateEntry({ db, scope, id, patch, actor }: UpdateEntryOptions): Promise<Entry> {
  return updateEntryRow(db, await findEntry({ db, scope, id }), patch, actor);
}

const EDITABLE = ['key', 'folder', 'name', 'meta'] as const;

/**
 * The UPDATE of an entry found, with an entry.updated record of the fields it changed (before and
 * after); a PATCH that changes nothing writes no record. 404 when a DELETE committed since it was
 * found, 409 for a taken key.
 */
export async function updateEntryRow(db: Db, entry: Entry, patch: EntryUpdate, actor: EventActor | null): Promise<Entry> {
  try {
    return await db.$transaction(async (tx) => {
      const before = await tx.entry.findUnique({ where: { id: entry.id } });
      if (!before) throw entryNotFound();
      const after = await tx.entry.update({ where: { id: entry.id }, data: patch });
      const data = changesOf(before, after, EDITABLE);
      if (data)
        await appendEvent(tx, {
          type: 'entry.updated',
          ownerId: after.ownerId,
          sandbox: after.sandbox,
          actor: eventActorFor(actor),
          entryId: after.id,
          data,
        });
      return after;
    });
  } catch (err) {
    if (isUniqueViolation(err, UNIQUE.entryKey) && patch.key) throw keyTaken(patch.key);
    if (isRecordGone(err)) throw entryNotFound();
    throw err;
  }
}
