// Resolves a Bearer credential to a Principal: owner API keys, enrollment tokens, the admin key.
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
    return { kind: 'owner', ownerId: key.ownerId, sandbox: key.sandbox, via: 'api_key' };
  }
  if (kind === 'token_live' || kind === 'token_test') {
    const token = await readCacheOf(db).read(['enrollment_tokens', 'enrollments'], `token ${hash}`, () =>
      db.enrollmentToken.findUnique({ where: { hash }, include: { enrollment: true } }),
    );
    if (!token || !sameHash(token.hash, hash)) throw unknownCredentials();
    if (token.expiresAt.getTime() <= Date.now()) throw new ApiError('token_expired', 'The enrollment token has expired; authorize again');
    if (token.enrollment.disabled) throw new ApiError('enrollment_disabled', 'The enrollment is disabled');
    return { kind: 'owner', ownerId: token.enrollment.ownerId, sandbox: token.enrollment.sandbox, via: 'enrollment' };
  }
  throw unknownCredentials();
}

const unknownCredentials = () => new ApiError('unauthorized', 'The credentials are unknown, revoked or malformed');
export const noCredentials = () => new ApiError('unauthorized', 'Send credentials: Authorization: Bearer <API key or token>');
