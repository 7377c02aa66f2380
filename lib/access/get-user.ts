// GET /admin/v1/users/{id} and /admin/v1/me: one console user with its memberships.
import type { Db } from '../db/client';
import type { UserRecord } from '../schemas/users';
import { notFound } from '../errors';
import { presentUser } from './present-user';

export const withMemberships = { memberships: { orderBy: { createdAt: 'asc' as const } } };

export async function getUser(db: Db, id: string): Promise<UserRecord> {
  const row = await db.user.findUnique({ where: { id }, include: withMemberships, omit: { passwordHash: true } });
  if (!row) throw notFound('User not found');
  return presentUser(row);
}
