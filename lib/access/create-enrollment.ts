// POST /admin/v1/enrollments: an administrator enrolls an application in a workspace, in one
// environment; the application may then authorize with its client credentials and owner_id alone.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { UNIQUE, isUniqueViolation } from '../db/db-errors';
import { notFound } from '../errors';
import { appendEvent } from '../events/append-event';
import type { EventActor } from '../events/catalogue';
import type { EnrollmentInput } from '../schemas/access';
import { presentEnrollment } from './present-enrollment';

/**
 * The new enrollment (`created`), or the one that app, owner and environment already have, as it
 * is: a disabled one stays disabled (PATCH {disabled: false} enables it).
 */
export async function createEnrollment(db: Db, input: EnrollmentInput, actor: EventActor) {
  const [app, owner] = await Promise.all([
    db.app.findUnique({ where: { id: input.app_id }, select: { id: true, name: true } }),
    db.owner.findUnique({ where: { id: input.owner_id }, select: { id: true } }),
  ]);
  if (!app) throw notFound('Application not found');
  if (!owner) throw notFound('Owner not found');
  const where = { appId_ownerId_sandbox: { appId: app.id, ownerId: owner.id, sandbox: input.sandbox } };
  const existing = await db.enrollment.findUnique({ where });
  if (existing) return { created: false, record: presentEnrollment(existing) };
  try {
    const e = await db.$transaction(async (tx) => {
      const made = await tx.enrollment.create({ data: { id: randomUUID(), appId: app.id, ownerId: owner.id, sandbox: input.sandbox } });
      await appendEvent(tx, {
        type: 'enrollment.created',
        ownerId: owner.id,
        sandbox: input.sandbox,
        actor,
        data: { app_id: app.id, app_name: app.name },
      });
      return made;
    });
    return { created: true, record: presentEnrollment(e) };
  } catch (err) {
    if (!isUniqueViolation(err, UNIQUE.enrollment)) throw err;
    return { created: false, record: presentEnrollment(await db.enrollment.findUniqueOrThrow({ where })) };
  }
}
