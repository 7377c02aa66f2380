// Enrollments: an application acting for one owner in one environment (contract §2).
import type { Db } from '../db/client';
import type { Enrollment } from '../db/generated/client';
import { notFound } from '../errors';
import { NEWEST_FIRST, afterCursor, page } from '../silo/cursor';

export function presentEnrollment(e: Enrollment): import('../schemas/access').EnrollmentRecord {
  return {
    id: e.id,
    app_id: e.appId,
    owner_id: e.ownerId,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
    ...(e.data !== null ? { data: e.data } : {}),
    disabled: e.disabled,
    sandbox: e.sandbox,
  };
}

export async function listEnrollments(
  db: Db,
  q: { limit: number; cursor?: string; owner_id?: string; app_id?: string },
  onlyOwners?: string[],
) {
  const rows = await db.enrollment.findMany({
    where: {
      ...(q.owner_id ? { ownerId: q.owner_id } : {}),
      ...(onlyOwners ? { ownerId: { in: q.owner_id ? onlyOwners.filter((o) => o === q.owner_id) : onlyOwners } } : {}),
      ...(q.app_id ? { appId: q.app_id } : {}),
      ...afterCursor(q.cursor),
    },
    orderBy: NEWEST_FIRST,
    take: q.limit + 1,
  });
  const p = page(rows, q.limit, q.cursor);
  return { ...p, list: p.list.map(presentEnrollment) };
}

/** Disabling takes effect at once: token authentication reads `disabled` on every request. */
export async function setEnrollmentDisabled(db: Db, id: string, disabled: boolean, onlyOwners?: string[]) {
  const e = await db.enrollment.findUnique({ where: { id } });
  if (!e || (onlyOwners && !onlyOwners.includes(e.ownerId))) throw notFound('Enrollment not found');
  return presentEnrollment(await db.enrollment.update({ where: { id }, data: { disabled } }));
}
