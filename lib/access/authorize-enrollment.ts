// POST /access/v1/enrollment/authorize (docs/api.md, Authorize): an application, with its client
// credentials, gets a token to act for an enrollment, found by id or by owner (created on first use).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import type { App, Enrollment } from '../db/generated/client';
import { ApiError, notFound } from '../errors';
import { UNIQUE, isUniqueViolation } from '../db/db-errors';
import { appendEvent } from '../events/append-event';
import { principalFromBearer } from './authenticate';
import { appActor } from './principal';
import { presentEnrollment } from './present-enrollment';
import { hashSecret, newSecret } from './secrets';

export interface AuthorizeOptions {
  app: App;
  id?: string;
  ownerId?: string;
  sandbox?: boolean;
  /** the owner's API key, when the owner consents by sending it */
  ownerKey?: string;
  tokenTtlSeconds: number;
}

export async function authorizeEnrollment(db: Db, o: AuthorizeOptions) {
  const enrollment = await find(db, o);
  if (enrollment.disabled) throw new ApiError('enrollment_disabled', 'The enrollment is disabled');
  const token = newSecret(enrollment.sandbox ? 'token_test' : 'token_live');
  const expiresAt = new Date(Date.now() + o.tokenTtlSeconds * 1000);
  await db.$transaction(async (tx) => {
    await tx.enrollmentToken.create({ data: { id: randomUUID(), enrollmentId: enrollment.id, hash: hashSecret(token), expiresAt } });
    await appendEvent(tx, {
      type: 'enrollment.authorized',
      ownerId: enrollment.ownerId,
      sandbox: enrollment.sandbox,
      actor: appActor(o.app),
      data: { enrollment_id: enrollment.id, app_id: o.app.id, token_expires: Math.floor(expiresAt.getTime() / 1000) },
    });
  });
  return { ...presentEnrollment(enrollment), token, token_expires: Math.floor(expiresAt.getTime() / 1000) };
}

async function byId(db: Db, o: AuthorizeOptions): Promise<Enrollment> {
  const e = await db.enrollment.findUnique({ where: { id: o.id } });
  if (!e || e.appId !== o.app.id || (o.ownerId && e.ownerId !== o.ownerId)) throw notFound('Enrollment not found');
  return e;
}

function find(db: Db, o: AuthorizeOptions): Promise<Enrollment> {
  if (o.id) return byId(db, o);
  if (o.ownerId) return byOwner(db, o, o.ownerId);
  throw new ApiError('validation', 'Send id or owner_id', {
    fields: { id: 'id or owner_id is required', owner_id: 'id or owner_id is required' },
  });
}

async function byOwner(db: Db, o: AuthorizeOptions, ownerId: string): Promise<Enrollment> {
  let sandbox: boolean;
  if (o.ownerKey) {
    const p = await principalFromBearer(db, o.ownerKey);
    if (p.kind !== 'owner' || p.via !== 'api_key') throw new ApiError('forbidden', 'The owner key must be an owner API key');
    if (p.ownerId !== ownerId) throw new ApiError('forbidden', 'The owner key belongs to another owner');
    sandbox = p.sandbox;
  } else if (o.app.trusted) {
    sandbox = o.sandbox ?? false;
  } else {
    return enrolled(db, o, ownerId);
  }
  if (!(await db.owner.findUnique({ where: { id: ownerId } }))) throw notFound('Owner not found');
  const where = { appId_ownerId_sandbox: { appId: o.app.id, ownerId, sandbox } };
  const existing = await db.enrollment.findUnique({ where });
  if (existing) return existing;
  try {
    // Made on first authorization: the owner consented with its key, or the application is trusted.
    return await db.$transaction(async (tx) => {
      const made = await tx.enrollment.create({ data: { id: randomUUID(), appId: o.app.id, ownerId, sandbox } });
      await appendEvent(tx, {
        type: 'enrollment.created',
        ownerId,
        sandbox,
        actor: appActor(o.app),
        data: { app_id: o.app.id, app_name: o.app.name },
      });
      return made;
    });
  } catch (err) {
    if (isUniqueViolation(err, UNIQUE.enrollment)) return db.enrollment.findUniqueOrThrow({ where });
    throw err;
  }
}

/**
 * Neither trusted nor consenting with a key: allowed only where the enrollment exists already (an
 * administrator enrolled the app, or the owner consented before), as authorizing by its id is.
 * A disabled one answers enrollment_disabled (authorizeEnrollment checks).
 */
async function enrolled(db: Db, o: AuthorizeOptions, ownerId: string): Promise<Enrollment> {
  const where = { appId_ownerId_sandbox: { appId: o.app.id, ownerId, sandbox: o.sandbox ?? false } };
  const existing = await db.enrollment.findUnique({ where });
  if (existing) return existing;
  throw new ApiError(
    'forbidden',
    "This application is not enrolled in this workspace: an administrator may enroll it, or send the owner's API key (X-Owner-Key) to show consent",
  );
}
