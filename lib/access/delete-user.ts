// DELETE /admin/v1/users/{id}: the user with its memberships; its sessions end at once (they find no user).
import type { Db } from '../db/client';
import { ApiError, notFound } from '../errors';

export interface DeleteUserOptions {
  db: Db;
  id: string;
  /** the console user making the change, if any */
  actingUserId?: string;
}

export async function deleteUser({ db, id, actingUserId }: DeleteUserOptions): Promise<void> {
  if (id === actingUserId) throw new ApiError('forbidden', 'You cannot remove yourself');
  const { count } = await db.user.deleteMany({ where: { id } });
  if (!count) throw notFound('User not found');
}
