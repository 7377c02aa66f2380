// GET /admin/v1/enrollments (?owner_id=, ?app_id=): newest first, keyset pages; a console member
// sees its workspaces' only.
import { NEWEST_FIRST, afterCursor, page } from '../db/cursor';
import type { Db } from '../db/client';
import { ownerIdFilter, type Scope } from '../db/scope';
import { presentEnrollment } from './present-enrollment';

export interface ListEnrollmentsOptions {
  db: Db;
  query: { limit: number; cursor?: string; owner_id?: string; app_id?: string };
  scope: Scope;
}

export async function listEnrollments({ db, query, scope }: ListEnrollmentsOptions) {
  const rows = await db.enrollment.findMany({
    where: {
      AND: [{ ownerId: ownerIdFilter(scope) }, { ownerId: query.owner_id || undefined }],
      ...(query.app_id ? { appId: query.app_id } : {}),
      ...afterCursor(query.cursor),
    },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  const p = page(rows, query.limit, query.cursor);
  return { ...p, list: p.list.map(presentEnrollment) };
}
