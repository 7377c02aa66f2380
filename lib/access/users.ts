// Console users: sign-in checks, and the admin's list / create / update / remove with workspace memberships.
import { randomUUID } from 'node:crypto';
import { verify as argon2Verify } from '@node-rs/argon2';
import type { Db } from '../db/client';
import type { Membership, User } from '../db/generated/client';
import { ApiError, notFound } from '../errors';
import type { UserInput, UserRecord, UserUpdate } from '../schemas/users';
import { UNIQUE, isUniqueViolation } from '../silo/db-errors';
import { hashPassword } from './setup';

type UserRow = Omit<User, 'passwordHash'> & { memberships: Membership[] };

export const presentUser = (u: UserRow): UserRecord => ({
  id: u.id,
  email: u.email,
  name: u.name,
  admin: u.admin,
  owner_ids: u.memberships.map((m) => m.ownerId),
  created_at: u.createdAt.toISOString(),
});

// Verified against when the email is unknown, so both answers cost one argon2 verification.
let dummyHash: Promise<string> | undefined;

/** The user these credentials belong to, or undefined (same work whether the email exists or not). */
export async function verifyCredentials(db: Db, email: string, password: string) {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  dummyHash ??= hashPassword('silo-no-such-user');
  const ok = await argon2Verify(user?.passwordHash ?? (await dummyHash), password).catch(() => false);
  return user && ok ? { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion } : undefined;
}

/** The version a session of this user must carry to be valid; undefined once the user is removed. */
export async function currentSessionVersion(db: Db, id: string): Promise<number | undefined> {
  const row = await db.user.findUnique({ where: { id }, select: { sessionVersion: true } });
  return row?.sessionVersion;
}

const withMemberships = { memberships: { orderBy: { createdAt: 'asc' as const } } };

export async function listUsers(db: Db): Promise<UserRecord[]> {
  const rows = await db.user.findMany({ orderBy: { createdAt: 'asc' }, include: withMemberships, omit: { passwordHash: true } });
  return rows.map(presentUser);
}

export async function getUser(db: Db, id: string): Promise<UserRecord> {
  const row = await db.user.findUnique({ where: { id }, include: withMemberships, omit: { passwordHash: true } });
  if (!row) throw notFound('User not found');
  return presentUser(row);
}

async function assertOwnersExist(db: Db, ownerIds: string[]) {
  const found = await db.owner.count({ where: { id: { in: ownerIds } } });
  if (found !== new Set(ownerIds).size)
    throw new ApiError('validation', 'owner_ids names a workspace that does not exist', { fields: { owner_ids: 'names an unknown workspace' } });
}

export async function createUser(db: Db, input: UserInput): Promise<UserRecord> {
  await assertOwnersExist(db, input.owner_ids);
  const emailTaken = () => new ApiError('conflict', `A user with the email ${input.email} already exists`, { fields: { email: 'is already used' } });
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

/** Memberships are replaced as a whole; an admin cannot take away its own admin flag. */
export async function updateUser(db: Db, id: string, patch: UserUpdate, actingUserId?: string): Promise<UserRecord> {
  await getUser(db, id);
  if (patch.admin === false && id === actingUserId)
    throw new ApiError('forbidden', 'You cannot remove your own administrator role');
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

/** Removes a user with its memberships; its sessions end at once (they find no user). */
export async function deleteUser(db: Db, id: string, actingUserId?: string): Promise<void> {
  if (id === actingUserId) throw new ApiError('forbidden', 'You cannot remove yourself');
  const { count } = await db.user.deleteMany({ where: { id } });
  if (!count) throw notFound('User not found');
}
