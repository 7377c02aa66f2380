// POST /admin/v1/users: a console user with its workspace memberships.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { UNIQUE, isUniqueViolation } from '../db/db-errors';
import { ApiError } from '../errors';
import type { UserInput, UserRecord } from '../schemas/users';
import { getUser } from './get-user';
import { hashPassword } from './hash-password';

/** 422 when owner_ids names a workspace that does not exist. */
export async function assertOwnersExist(db: Db, ownerIds: string[]) {
  const found = await db.owner.count({ where: { id: { in: ownerIds } } });
  if (found !== new Set(ownerIds).size)
    throw new ApiError('validation', 'owner_ids names a workspace that does not exist', {
      fields: { owner_ids: 'names an unknown workspace' },
    });
}

export async function createUser(db: Db, input: UserInput): Promise<UserRecord> {
  await assertOwnersExist(db, input.owner_ids);
  const emailTaken = () =>
    new ApiError('conflict', `A user with the email ${input.email} already exists`, { fields: { email: 'is already used' } });
  if (await db.user.findUnique({ where: { email: input.email } })) throw emailTaken();
  const passwordHash = await hashPassword(input.password);
  const id = randomUUID();
  await db.user
    .create({
      data: {
        id,
        email: input.email,
        name: input.name,
        admin: input.admin,
        passwordHash,
        memberships: { create: [...new Set(input.owner_ids)].map((ownerId) => ({ ownerId })) },
      },
    })
    .catch((err) => {
      // Another request created the same email while this one hashed the password.
      throw isUniqueViolation(err, UNIQUE.userEmail) ? emailTaken() : err;
    });
  return getUser(db, id);
}
