// GET /admin/v1/owners: every workspace, or a console member's own; newest first, keyset pages,
// each with its storage used (one aggregate statement for the page).
import { NEWEST_FIRST, afterCursor, page } from '../db/cursor';
import type { Db } from '../db/client';
import { ownerIdFilter, type Scope } from '../db/scope';
import { ownerUsage } from './owner-usage';
import { presentOwner } from './present-owner';

export interface ListOwnersOptions {
  db: Db;
  query: { limit: number; cursor?: string };
  scope: Scope;
}

export async function listOwners({ db, query, scope }: ListOwnersOptions) {
  const rows = await db.owner.findMany({
    where: { id: ownerIdFilter(scope), ...afterCursor(query.cursor) },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  const p = page(rows, query.limit, query.cursor);
  const usage = await ownerUsage(
    db,
    p.list.map((o) => o.id),
  );
  return { ...p, list: p.list.map((o) => presentOwner(o, undefined, usage.get(o.id))) };
}
