// POST /admin/v1/setup: the one-time setup link's page creates the first admin (issue-setup-token.ts).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { UNIQUE, isUniqueViolation } from '../db/db-errors';
import { ApiError } from '../errors';
import { hashPassword } from './hash-password';
import { SETUP_TOKEN_SETTING, setupTokenValid, validSince } from './issue-setup-token';
import { hashSecret } from './secrets';

const spent = () =>
  new ApiError(
    'forbidden',
    'This setup link has been used or has expired; while no administrator exists, a server start prints a valid one',
  );

/** Creates the first admin and spends the token, in one transaction; racing calls: one wins, the rest 403. */
export interface CompleteSetupOptions {
  db: Db;
  token: string;
  user: { email: string; name: string; password: string };
}

export async function completeSetup({ db, token, user }: CompleteSetupOptions) {
  // The token first: it is a cheap constant-time comparison, while argon2 costs tens of
  // milliseconds of CPU, so a flood of wrong tokens must never reach it.
  if (!(await setupTokenValid(db, token))) throw spent();
  const passwordHash = await hashPassword(user.password);
  try {
    return await db.$transaction(async (tx) => {
      // The claim: exactly one of racing completions deletes the row. On PostgreSQL the others'
      // DELETE waits for the winner to commit, then matches nothing.
      const { count } = await tx.setting.deleteMany({
        where: { name: SETUP_TOKEN_SETTING, value: hashSecret(token), createdAt: { gt: validSince() } },
      });
      if (count !== 1 || (await tx.user.count({ where: { admin: true } })) > 0) throw spent();
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
