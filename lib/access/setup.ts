// The one-time setup link: while an instance has no console user, each start prints a fresh
// link (only its hash is kept); the page behind it creates the first admin. No default password.
import { randomBytes, randomUUID } from 'node:crypto';
import { hash as argon2Hash } from '@node-rs/argon2';
import type { Db } from '../db/client';
import { ApiError } from '../errors';
import { UNIQUE, isUniqueViolation } from '../silo/db-errors';
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

const spent = () => new ApiError('forbidden', 'This setup link has been used or replaced; restart the server for a new one');

/** Creates the first admin and spends the token, in one transaction; racing calls: one wins, the rest 403. */
export async function completeSetup(db: Db, token: string, user: { email: string; name: string; password: string }) {
  // The token first: it is a cheap constant-time comparison, while argon2 costs tens of
  // milliseconds of CPU, so a flood of wrong tokens must never reach it.
  if (!(await setupTokenValid(db, token))) throw spent();
  const passwordHash = await hashPassword(user.password);
  try {
    return await db.$transaction(async (tx) => {
      // The claim: exactly one of racing completions deletes the row. On PostgreSQL the others'
      // DELETE waits for the winner to commit, then matches nothing.
      const { count } = await tx.setting.deleteMany({ where: { name: SETTING, value: hashSecret(token) } });
      if (count !== 1 || (await tx.user.count()) > 0) throw spent();
      return tx.user.create({
        data: { id: randomUUID(), email: user.email.toLowerCase(), name: user.name, passwordHash, admin: true },
        omit: { passwordHash: true },
      });
    });
  } catch (err) {
    // A user made meanwhile with the admin key under the same email: the instance is set up.
    if (isUniqueViolation(err, UNIQUE.userEmail)) throw spent();
    throw err;
  }
}
