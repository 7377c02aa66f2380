// One entry the caller's scope reaches; 404 alike for a missing entry and another owner's.
import { type Db, readCacheOf } from '../db/client';
import type { Entry } from '../db/generated/client';
import { scopeWhere, type Scope } from '../db/scope';
import { ApiError, notFound } from '../errors';
import { assertEntryInPeriod } from './period';

export const entryNotFound = () => notFound('Entry not found');

export const keyTaken = (key: string) =>
  new ApiError('conflict', `Another entry already has the key "${key}"`, { fields: { key: 'is already used' } });

export interface FindEntryOptions {
  db: Db;
  scope: Scope;
  id: string;
}

export async function findEntry({ db, scope, id }: FindEntryOptions): Promise<Entry> {
  // Cached until entries are written (lib/db/read-cache.ts): every file written to an entry looks it up.
  const entry = await readCacheOf(db).read(['entries'], `entry ${JSON.stringify([id, scope])}`, () =>
    db.entry.findFirst({ where: { id, ...scopeWhere(scope) } }),
  );
  if (!entry) throw entryNotFound();
  // An auditor's key: its own workspace's entry, outside the period, is 403 (not 404: it exists).
  if (scope.period) await assertEntryInPeriod(db, entry.id, scope.period);
  return entry;
}
