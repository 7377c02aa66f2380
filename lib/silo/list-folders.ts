// GET /silo/v1/folders: the folders of one owner and environment that hold entries (or have a
// folder below them that does), with the entries at or below each, in folder order (code points),
// keyset pages. `?parent=` lists one level: the folders directly below it ('' the top level). Each
// page is a range of folder_counts' indexes, whatever the workspace's size (prisma/sql/folders.sql
// keeps the counts).
import type { z } from 'zod';
import type { Db } from '../db/client';
import { decodeNameCursor, encodeNameCursor } from '../db/cursor';
import { Prisma } from '../db/generated/client';
import type { Target } from '../db/scope';
import type { FolderList, FolderRecord, folderListQuery } from '../schemas/entries';

export type FolderListQuery = z.output<ReturnType<typeof folderListQuery>>;

export async function listFolders(db: Db, target: Target, query: FolderListQuery): Promise<FolderList> {
  const rows = await db.$queryRaw<FolderRecord[]>(listFoldersSql(target, query));
  const list = rows.slice(0, query.limit);
  const next = rows.length > query.limit ? encodeNameCursor(list[list.length - 1].folder) : undefined;
  return { list, limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}), ...(next ? { next_cursor: next } : {}) };
}

/** The statement of one page (exported for the plan test). */
export function listFoldersSql(target: Target, query: FolderListQuery) {
  const { sql, join } = Prisma;
  const where = [sql`c.owner_id = ${target.ownerId}::uuid`, sql`c.sandbox = ${target.sandbox}`];
  if (query.parent !== undefined) where.push(sql`c.parent = ${query.parent}`);
  if (query.cursor) where.push(sql`c.prefix > ${decodeNameCursor(query.cursor)}`);
  // prefix and parent are COLLATE "C": the order and the ranges are by code point.
  // subfolders: whether the first folder at or after `prefix/` (code points) is below it, one probe of
  // the primary key per row. (A folder has a folder below it exactly when it has a child.) The
  // ORDER BY keeps the probe an index range whatever the statistics say of parents.
  return sql`SELECT c.prefix AS folder, c.entries, coalesce((
      SELECT starts_with(d.prefix, c.prefix || '/') FROM folder_counts d
      WHERE d.owner_id = c.owner_id AND d.sandbox = c.sandbox AND d.prefix >= c.prefix || '/'
      ORDER BY d.prefix LIMIT 1
    ), false) AS subfolders
    FROM folder_counts c WHERE ${join(where, ' AND ')}
    ORDER BY c.prefix LIMIT ${query.limit + 1}`;
}
