// Resolves a Bearer credential to a Principal: owner API keys, enrollment tokens, auditors' keys,
// the admin key.
// One query per request, the author a new version records (actor) included.
import { ApiError } from '../errors';
import { type Db, readCacheOf } from '../db/client';
import { hashSecret, kindOf, sameHash } from './secrets';
import type { Principal } from './principal';

export async function principalFromBearer(db: Db, bearer: string, adminKey?: string): Promise<Principal> {
  if (adminKey && sameHash(hashSecret(bearer), hashSecret(adminKey))) return { kind: 'admin_key' };
  const kind = kindOf(bearer);
  const hash = hashSecret(bearer);
  if (kind === 'live_key' || kind === 'test_key') {
    // Cached until a key is written (revoked, created, its owner deleted): see read-cache.ts.
    const key = await readCacheOf(db).read(['api_keys'], `api_key ${hash}`, () => db.apiKey.findUnique({ where: { hash } }));
    if (!key || key.revokedAt || !sameHash(key.hash, hash)) throw unknownCredentials();
    const actor = { type: 'owner_key', id: key.id, name: key.prefix } as const;
    return { kind: 'owner', ownerId: key.ownerId, sandbox: key.sandbox, via: 'api_key', actor };
  }
  if (kind === 'token_live' || kind === 'token_test') {
    // Cached until a token, an enrollment or an application is written (read-cache.ts).
    const token = await readCacheOf(db).read(['enrollment_tokens', 'enrollments', 'apps'], `token ${hash}`, () =>
      db.enrollmentToken.findUnique({
        where: { hash },
        include: { enrollment: { include: { app: { select: { id: true, name: true } } } } },
      }),
    );
    if (!token || !sameHash(token.hash, hash)) throw unknownCredentials();
    if (token.expiresAt.getTime() <= Date.now()) throw new ApiError('token_expired', 'The enrollment token has expired; authorize again');
    if (token.enrollment.disabled) throw new ApiError('enrollment_disabled', 'The enrollment is disabled');
    const { enrollment } = token;
    const actor = { type: 'app', id: enrollment.app.id, name: enrollment.app.name } as const;
    return { kind: 'owner', ownerId: enrollment.ownerId, sandbox: enrollment.sandbox, via: 'enrollment', actor };
  }
  if (kind === 'auditor_key') return auditorPrincipal(db, hash);
  throw unknownCredentials();
}

/**
 * An auditor's key, read afresh on every request (not cached: each use writes its
 * auditor_key.used record anyway). Expired or revoked, it is unknown: 401 like any bad credential.
 */
async function auditorPrincipal(db: Db, hash: string): Promise<Principal> {
  const key = await db.auditorKey.findUnique({ where: { hash } });
  if (!key || key.revokedAt || key.expiresAt.getTime() <= Date.now() || !sameHash(key.hash, hash)) throw unknownCredentials();
  return {
    kind: 'auditor',
    keyId: key.id,
    ownerId: key.ownerId,
    sandbox: key.sandbox,
    period: { start: key.periodStart, end: key.periodEnd },
    actor: { type: 'auditor_key', id: key.id, name: key.prefix },
  };
}

const unknownCredentials = () => new ApiError('unauthorized', 'The credentials are unknown, revoked or malformed');
export const noCredentials = () => new ApiError('unauthorized', 'Send credentials: Authorization: Bearer <API key or token>');
