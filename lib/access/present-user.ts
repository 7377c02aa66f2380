// A console user as the API shows it: never the password hash.
import type { Membership, User } from '../db/generated/client';
import type { UserRecord } from '../schemas/users';

type UserRow = Omit<User, 'passwordHash'> & { memberships: Membership[] };

export const presentUser = (u: UserRow): UserRecord => ({
  id: u.id,
  email: u.email,
  name: u.name,
  admin: u.admin,
  owner_ids: u.memberships.map((m) => m.ownerId),
  created_at: u.createdAt.toISOString(),
});
