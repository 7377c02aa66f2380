// The console's session: a next-auth JWT in a cookie, turned into a user Principal.
import { parse as parseCookies } from 'cookie';
import { getToken } from 'next-auth/jwt';
import type { Db } from '../db/client';
import { userActor, type Principal } from '../access/principal';
import { sessionSecret } from './session-secret';

/** The signed-in user of a request, or undefined. User and memberships are read afresh on every call. */
export async function sessionPrincipal(db: Db, headers: Headers): Promise<Principal | undefined> {
  const cookie = headers.get('cookie');
  if (!cookie?.includes('next-auth.session-token')) return undefined;
  const cookies = parseCookies(cookie);
  const token = await getToken({
    req: { headers: Object.fromEntries(headers), cookies } as never,
    secret: await sessionSecret(),
    secureCookie: Object.keys(cookies).some((k) => k.startsWith('__Secure-next-auth.session-token')),
  }).catch(() => null);
  const userId = typeof token?.sub === 'string' ? token.sub : undefined;
  if (!userId) return undefined;
  const user = await db.user.findUnique({ where: { id: userId }, include: { memberships: true } });
  // Revocation: a password change bumps the version, a removed user has no row.
  if (!user || token?.sv !== user.sessionVersion) return undefined;
  return { kind: 'user', userId: user.id, admin: user.admin, ownerIds: user.memberships.map((m) => m.ownerId), actor: userActor(user) };
}
