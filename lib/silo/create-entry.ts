// POST /silo/v1/entries (service id) and PUT /silo/v1/entries/{id} (caller id; a repeat answers
// 200, the id taken with other values 409) — docs/api.md, Input.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import type { Entry } from '../db/generated/client';
import { UNIQUE, isUniqueViolation, sameJson } from '../db/db-errors';
import type { Target } from '../db/scope';
import { ApiError, notFound } from '../errors';
import { appendEvent } from '../events/append-event';
import { type EventActor, eventActorFor } from '../events/catalogue';
import type { EntryInput } from '../schemas/entries';
import { keyTaken } from './find-entry';

export interface CreateEntryOptions {
  db: Db;
  target: Target;
  input: EntryInput;
  /** the caller's id (PUT); a new one when absent */
  id?: string;
  /** who makes it, as its entry.created record names them (null: the admin key) */
  actor: EventActor | null;
}

export async function createEntry(o: CreateEntryOptions, attempt = 0): Promise<{ entry: Entry; created: boolean }> {
  const { db, target, input, id } = o;
  if (id) {
    const existing = await db.entry.findUnique({ where: { id } });
    if (existing) return { entry: sameEntryRequest(existing, o), created: false };
  }
  const owner = await db.owner.findUnique({ where: { id: target.ownerId } });
  if (!owner) throw notFound('Workspace not found');
  try {
    const entry = await db.$transaction(async (tx) => {
      const made = await tx.entry.create({ data: { id: id ?? randomUUID(), ownerId: target.ownerId, sandbox: target.sandbox, ...input } });
      await appendEvent(tx, {
        type: 'entry.created',
        ...target,
        actor: eventActorFor(o.actor),
        entryId: made.id,
        data: { key: made.key, folder: made.folder, name: made.name, meta: made.meta },
      });
      return made;
    });
    return { entry, created: true };
  } catch (err) {
    // A racing PUT of this id got there first: answer as a repeat of it. The winner holds the same
    // key too, and PostgreSQL may report either constraint, so the id is looked for first.
    const idTaken = isUniqueViolation(err, UNIQUE.entryId);
    const keyClash = isUniqueViolation(err, UNIQUE.entryKey);
    if (id && (idTaken || keyClash) && attempt < 3) {
      const winner = await db.entry.findUnique({ where: { id } });
      if (winner) return { entry: sameEntryRequest(winner, o), created: false };
      if (idTaken) return createEntry(o, attempt + 1); // deleted meanwhile
    }
    if (keyClash && input.key) throw keyTaken(input.key);
    throw err;
  }
}

/** A repeated PUT answers 200 with the entry; the id taken with other values answers 409. */
function sameEntryRequest(e: Entry, { target, input, id }: CreateEntryOptions): Entry {
  const same =
    e.ownerId === target.ownerId &&
    e.sandbox === target.sandbox &&
    (e.key ?? undefined) === input.key &&
    e.folder === input.folder &&
    e.name === input.name &&
    sameJson(e.meta, input.meta);
  if (!same) throw new ApiError('conflict', `The entry id ${id} is already used with other values`);
  return e;
}
