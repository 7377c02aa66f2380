// PATCH /admin/v1/enrollments/{id} {disabled}: takes effect at once, as token authentication reads
// `disabled` on every request.
import type { Db } from '../db/client';
import { ownsWorkspace, type Scope } from '../db/scope';
import { notFound } from '../errors';
import { presentEnrollment } from './present-enrollment';

export interface SetEnrollmentDisabledOptions {
  db: Db;
  scope: Scope;
  id: string;
  disabled: boolean;
}

export async function setEnrollmentDisabled({ db, scope, id, disabled }: SetEnrollmentDisabledOptions) {
  const e = await db.enrollment.findUnique({ where: { id } });
  if (!e || !ownsWorkspace(scope, e.ownerId)) throw notFound('Enrollment not found');
  return presentEnrollment(await db.enrollment.update({ where: { id }, data: { disabled } }));
}
