// Instance-wide secrets kept in the database, so every instance sharing it agrees on them.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client';

let signingSecret: string | undefined;

/** The secret that signs file urls. Never console sessions: lib/http/session-secret.ts keeps that one out of the database. */
export async function instanceSecret(db: Db): Promise<string> {
  if (signingSecret) return signingSecret;
  const fresh = randomBytes(32).toString('base64url');
  await db.$executeRaw`INSERT INTO settings (name, value) VALUES ('signing_secret', ${fresh}) ON CONFLICT (name) DO NOTHING`;
  const row = await db.setting.findUniqueOrThrow({ where: { name: 'signing_secret' } });
  signingSecret = row.value;
  return signingSecret;
}
