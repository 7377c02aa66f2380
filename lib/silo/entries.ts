// Entries: create (service or caller id), read, list newest first, update, delete (contract §3).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import type { Entry } from '../db/generated/client';
import { ApiError, notFound } from '../errors';
import { scopeWhere, type Scope, type Target } from '../access/principal';
import type { EntryInput, EntryRecord, EntryUpdate } from '../schemas/entries';
import { NEWEST_FIRST, afterCursor, page } from './cursor';
import { UNIQUE, isUniqueViolation, sameJson } from './db-errors';

export function presentEntry(e: Entry): EntryRecord {
  return {
    id: e.id,
    ...(e.key !== null ? { key: e.key } : {}),
    folder: e.folder,
    name: e.name,
    meta: e.meta as Record<string, string>,
    sandbox: e.sandbox,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

const entryNotFound = () => notFound('Entry not found');
const keyTaken = (key: string) =>
  new ApiError('conflict', `Another entry already has the key "${key}"`, { fields: { key: 'is already used' } });

export async function findEntry(db: Db, scope: Scope, id: string): Promise<Entry> {
  const entry = await db.entry.findFirst({ where: { id, ...scopeWhere(scope) } });
  if (!entry) throw entryNotFound();
  return entry;
}

export async function createEntry(
  db: Db,
  target: Target,
  input: EntryInput,
  id?: string,
  attempt = 0,
): Promise<{ entry: Entry; created: boolean }> {
  if (id) {
    const existing = await db.entry.findUnique({ where: { id } });
    if (existing) return { entry: sameEntryRequest(existing, target, input, id), created: false };
  }
  const owner = await db.owner.findUnique({ where: { id: target.ownerId } });
  if (!owner) throw notFound('Workspace not found');
  try {
    const entry = await db.entry.create({
      data: { id: id ?? randomUUID(), ownerId: target.ownerId, sandbox: target.sandbox, ...input },
    });
    return { entry, created: true };
  } catch (err) {
    // A racing PUT of this id got there first: answer as a repeat of it. The winner holds the same
    // key too, and PostgreSQL may report either constraint, so the id is looked for first.
    const idTaken = isUniqueViolation(err, UNIQUE.entryId);
    const keyClash = isUniqueViolation(err, UNIQUE.entryKey);
    if (id && (idTaken || keyClash) && attempt < 3) {
      const winner = await db.entry.findUnique({ where: { id } });
      if (winner) return { entry: sameEntryRequest(winner, target, input, id), created: false };
      if (idTaken) return createEntry(db, target, input, id, attempt + 1); // deleted meanwhile
    }
    if (keyClash && input.key) throw keyTaken(input.key);
    throw err;
  }
}

/** A repeated PUT answers 200 with the entry; the id taken with other values answers 409. */
function sameEntryRequest(e: Entry, target: Target, input: EntryInput, id: string): Entry {
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

export async function listEntries(db: Db, target: Target, q: { limit: number; cursor?: string; folder?: string; key?: string }) {
  const rows = await db.entry.findMany({
    where: {
      ownerId: target.ownerId,
      sandbox: target.sandbox,
      ...(q.folder !== undefined ? { folder: q.folder } : {}),
      ...(q.key !== undefined ? { key: q.key } : {}),
      ...afterCursor(q.cursor),
    },
    orderBy: NEWEST_FIRST,
    take: q.limit + 1,
  });
  const p = page(rows, q.limit, q.cursor);
  return { ...p, list: p.list.map(presentEntry) };
}

export async function updateEntry(db: Db, scope: Scope, id: string, patch: EntryUpdate): Promise<Entry> {
  const entry = await findEntry(db, scope, id);
  try {
    return await db.entry.update({ where: { id: entry.id }, data: patch });
  } catch (err) {
    if (isUniqueViolation(err, UNIQUE.entryKey) && patch.key) throw keyTaken(patch.key);
    throw err;
  }
}
