// GET /admin/v1/users: every console user with its memberships, oldest first.
import type { Db } from '../db/client';
import type { UserRecord } from '../schemas/users';
import { withMemberships } from './get-user';
import { presentUser } from './present-user';

export async function listUsers(db: Db): Promise<UserRecord[]> {
  const rows = await db.user.findMany({ orderBy: { createdAt: 'asc' }, include: withMemberships, omit: { passwordHash: true } });
  return rows.map(presentUser);
}
