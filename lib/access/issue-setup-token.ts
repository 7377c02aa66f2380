// The one-time setup link: while an instance has no console user, each start prints a fresh
// link (only its hash is kept); the page behind it creates the first admin. No default password.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client';
import { hashSecret, sameHash } from './secrets';

export const SETUP_TOKEN_SETTING = 'setup_token_hash';

/** A new setup token when no user exists yet; undefined once the instance is set up. */
export async function issueSetupToken(db: Db): Promise<string | undefined> {
  if ((await db.user.count()) > 0) return undefined;
  const token = randomBytes(24).toString('base64url');
  const value = hashSecret(token);
  await db.setting.upsert({ where: { name: SETUP_TOKEN_SETTING }, create: { name: SETUP_TOKEN_SETTING, value }, update: { value } });
  return token;
}

export async function setupTokenValid(db: Db, token: string): Promise<boolean> {
  const row = await db.setting.findUnique({ where: { name: SETUP_TOKEN_SETTING } });
  return !!row && sameHash(row.value, hashSecret(token)) && (await db.user.count()) === 0;
}
