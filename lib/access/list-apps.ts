// GET /admin/v1/apps: every application, or for a console member those enrolled in its workspaces.
import { NEWEST_FIRST, afterCursor, page } from '../db/cursor';
import type { Db } from '../db/client';
import { ownerIdFilter, type Scope } from '../db/scope';
import { presentApp } from './present-app';

export interface ListAppsOptions {
  db: Db;
  query: { limit: number; cursor?: string };
  scope: Scope;
}

export async function listApps({ db, query, scope }: ListAppsOptions) {
  const owners = ownerIdFilter(scope);
  const rows = await db.app.findMany({
    where: { ...(owners ? { enrollments: { some: { ownerId: owners } } } : {}), ...afterCursor(query.cursor) },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  const p = page(rows, query.limit, query.cursor);
  return { ...p, list: p.list.map(presentApp) };
}
