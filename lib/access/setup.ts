// The one-time setup link: while an instance has no console user, each start prints a fresh
// link (only its hash is kept); the page behind it creates the first admin. No default password.
import { randomBytes, randomUUID } from 'node:crypto';
import { hash as argon2Hash } from '@node-rs/argon2';
import type { Db } from '../db/client';
import { ApiError } from '../errors';
import { hashSecret, sameHash } from './secrets';

const SETTING = 'setup_token_hash';

/** A new setup token when no user exists yet; undefined once the instance is set up. */
export async function issueSetupToken(db: Db): Promise<string | undefined> {
  if ((await db.user.count()) > 0) return undefined;
  const token = randomBytes(24).toString('base64url');
  await db.setting.upsert({ where: { name: SETTING }, create: { name: SETTING, value: hashSecret(token) }, update: { value: hashSecret(token) } });
  return token;
}

export async function setupTokenValid(db: Db, token: string): Promise<boolean> {
  const row = await db.setting.findUnique({ where: { name: SETTING } });
  return !!row && sameHash(row.value, hashSecret(token)) && (await db.user.count()) === 0;
}

export const hashPassword = (password: string) => argon2Hash(password, { algorithm: 2 });

/** Creates the first admin and spends the token, in one transaction. */
export async function completeSetup(db: Db, token: string, user: { email: string; name: string; password: string }) {
  const passwordHash = await hashPassword(user.password);
  return db.$transaction(async (tx) => {
    const row = await tx.setting.findUnique({ where: { name: SETTING } });
    if (!row || !sameHash(row.value, hashSecret(token)) || (await tx.user.count()) > 0)
      throw new ApiError('forbidden', 'This setup link has been used or replaced; restart the server for a new one');
    await tx.setting.delete({ where: { name: SETTING } });
    return tx.user.create({
      data: { id: randomUUID(), email: user.email.toLowerCase(), name: user.name, passwordHash, admin: true },
      omit: { passwordHash: true },
    });
  });
}
