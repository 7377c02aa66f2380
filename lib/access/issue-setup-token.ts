// The one-time setup link: while no administrator exists, one link is out at a time (only its hash
// and when it was issued are kept); the page behind it creates the first admin, spending it, and
// it expires SETUP_LINK_TTL_MS after issue. No default password. A start never replaces a link
// still valid: of several instances on one database, or of racing starts, exactly one issues it;
// the others say it is out, and the issuer's own later starts print it again (startup.ts keeps
// the token it issued beside its data).
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client';
import { hashSecret, sameHash } from './secrets';

export const SETUP_TOKEN_SETTING = 'setup_token_hash';
export const SETUP_LINK_TTL_MS = 24 * 60 * 60 * 1000;

export type SetupLink =
  /** This call issued `token`, or `token` (the caller's, from an earlier start) is still the one out. */
  | { kind: 'yours'; token: string; expiresAt: Date }
  /** Another instance (or start) issued the link that is out; it stays valid until `expiresAt`. */
  | { kind: 'elsewhere'; issuedAt: Date; expiresAt: Date };

export interface IssueSetupTokenOptions {
  /** the token this instance issued at an earlier start, if it kept one */
  kept?: string;
  now?: Date;
}

const noAdministrator = async (db: Db) => (await db.user.count({ where: { admin: true } })) === 0;
const expiry = (issuedAt: Date) => new Date(issuedAt.getTime() + SETUP_LINK_TTL_MS);

/** The setup link to announce at start-up; undefined once an administrator exists. */
export async function issueSetupToken(db: Db, { kept, now = new Date() }: IssueSetupTokenOptions = {}): Promise<SetupLink | undefined> {
  if (!(await noAdministrator(db))) return undefined;
  await db.setting.deleteMany({ where: { name: SETUP_TOKEN_SETTING, createdAt: { lte: validSince(now) } } });
  const token = randomBytes(24).toString('base64url');
  // Insert or nothing: of racing starts exactly one row is written, and a valid link is never overwritten.
  const { count } = await db.setting.createMany({
    data: [{ name: SETUP_TOKEN_SETTING, value: hashSecret(token), createdAt: now }],
    skipDuplicates: true,
  });
  if (count === 1) return { kind: 'yours', token, expiresAt: expiry(now) };
  const out = await db.setting.findUnique({ where: { name: SETUP_TOKEN_SETTING } });
  // Spent between the two statements: the instance is being set up; the next start tells.
  if (!out) return undefined;
  if (kept && sameHash(out.value, hashSecret(kept))) return { kind: 'yours', token: kept, expiresAt: expiry(out.createdAt) };
  return { kind: 'elsewhere', issuedAt: out.createdAt, expiresAt: expiry(out.createdAt) };
}

export async function setupTokenValid(db: Db, token: string, now = new Date()): Promise<boolean> {
  const row = await db.setting.findUnique({ where: { name: SETUP_TOKEN_SETTING } });
  return !!row && row.createdAt > validSince(now) && sameHash(row.value, hashSecret(token)) && (await noAdministrator(db));
}

/** Only a link issued after this may still be spent. */
export const validSince = (now = new Date()) => new Date(now.getTime() - SETUP_LINK_TTL_MS);
