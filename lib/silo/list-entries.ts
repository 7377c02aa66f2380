// GET /silo/v1/entries: one owner and environment's entries, newest first, keyset pages.
import { type Db, readCacheOf } from '../db/client';
import { NEWEST_FIRST, afterCursor, page } from '../db/cursor';
import type { Target } from '../db/scope';
import { presentEntry } from './present-entry';

export interface ListEntriesOptions {
  db: Db;
  target: Target;
  query: { limit: number; cursor?: string; folder?: string; key?: string };
}

/** What a page of entries is read from: a write to any of them is a new page. */
const READS = ['entries', 'entry_folders', 'file_slots', 'files'];

export function listEntries(opts: ListEntriesOptions) {
  const { db, target, query } = opts;
  return readCacheOf(db).read(READS, `entries ${JSON.stringify([target, query])}`, () => loadEntries(opts));
}

async function loadEntries({ db, target, query }: ListEntriesOptions) {
  const rows = await db.entry.findMany({
    where: {
      ownerId: target.ownerId,
      sandbox: target.sandbox,
      ...(query.folder !== undefined ? { folder: query.folder } : {}),
      ...(query.key !== undefined ? { key: query.key } : {}),
      ...afterCursor(query.cursor),
    },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  const p = page(rows, query.limit, query.cursor);
  return { ...p, list: p.list.map(presentEntry) };
}
