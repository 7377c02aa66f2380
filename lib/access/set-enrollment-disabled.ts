// PATCH /admin/v1/enrollments/{id} {disabled}: takes effect at once, as token authentication reads
// `disabled` on every request.
import type { Db } from '../db/client';
import { ownsWorkspace, type Scope } from '../db/scope';
import { notFound } from '../errors';
import { appendEvent } from '../events/append-event';
import type { EventActor } from '../events/catalogue';
import { presentEnrollment } from './present-enrollment';

export interface SetEnrollmentDisabledOptions {
  db: Db;
  scope: Scope;
  id: string;
  disabled: boolean;
  actor: EventActor;
}

/** A change (not a repeat of the state it has) writes enrollment.disabled or enrollment.enabled. */
export async function setEnrollmentDisabled({ db, scope, id, disabled, actor }: SetEnrollmentDisabledOptions) {
  return db.$transaction(async (tx) => {
    const [e] = await tx.$queryRaw<{ owner_id: string; app_id: string; sandbox: boolean; disabled: boolean }[]>`
      SELECT owner_id::text, app_id::text, sandbox, disabled FROM enrollments WHERE id = ${id}::uuid FOR UPDATE`;
    if (!e || !ownsWorkspace(scope, e.owner_id)) throw notFound('Enrollment not found');
    const row = await tx.enrollment.update({ where: { id }, data: { disabled } });
    if (e.disabled !== disabled)
      await appendEvent(tx, {
        type: disabled ? 'enrollment.disabled' : 'enrollment.enabled',
        ownerId: e.owner_id,
        sandbox: e.sandbox,
        actor,
        data: { enrollment_id: id, app_id: e.app_id },
      });
    return presentEnrollment(row);
  });
}
