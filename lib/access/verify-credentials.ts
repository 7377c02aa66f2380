// Console sign-in: the user an email and password belong to, with the same work whether the email
// exists or not.
import { verify as argon2Verify } from '@node-rs/argon2';
import type { Db } from '../db/client';
import { hashPassword } from './hash-password';

// Verified against when the email is unknown, so both answers cost one argon2 verification.
let dummyHash: Promise<string> | undefined;

/** The user these credentials belong to, or undefined. */
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
