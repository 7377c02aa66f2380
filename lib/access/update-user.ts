// PATCH /admin/v1/users/{id}: memberships are replaced as a whole; a new password ends the user's
// sessions; an admin cannot take away its own admin flag.
import type { Db } from '../db/client';
import { ApiError } from '../errors';
import type { UserRecord, UserUpdate } from '../schemas/users';
import { assertOwnersExist } from './create-user';
import { getUser } from './get-user';
import { hashPassword } from './hash-password';

export interface UpdateUserOptions {
  db: Db;
  id: string;
  patch: UserUpdate;
  /** the console user making the change, if any */
  actingUserId?: string;
}

export async function updateUser({ db, id, patch, actingUserId }: UpdateUserOptions): Promise<UserRecord> {
  await getUser(db, id);
  if (patch.admin === false && id === actingUserId) throw new ApiError('forbidden', 'You cannot remove your own administrator role');
  if (patch.owner_ids) await assertOwnersExist(db, patch.owner_ids);
  const passwordHash = patch.password ? await hashPassword(patch.password) : undefined;
  await db.$transaction(async (tx) => {
    await tx.user.update({
      where: { id },
      // A new password ends every session of the user at once (sessions carry the version).
      data: { name: patch.name, admin: patch.admin, ...(passwordHash ? { passwordHash, sessionVersion: { increment: 1 } } : {}) },
    });
    if (patch.owner_ids) {
      await tx.membership.deleteMany({ where: { userId: id } });
      await tx.membership.createMany({ data: [...new Set(patch.owner_ids)].map((ownerId) => ({ userId: id, ownerId })) });
    }
  });
  return getUser(db, id);
}
