// The console's session: a next-auth JWT in a cookie, turned into a user Principal.
import { getToken } from 'next-auth/jwt';
import type { Db } from '../db/client';
import type { Principal } from '../access/principal';
import { instanceSecret } from '../access/instance';
import { parseCookies } from './cookies';

export async function sessionSecret(db: Db): Promise<string> {
  return process.env.NEXTAUTH_SECRET ?? (await instanceSecret(db));
}

/** The signed-in user of a request, or undefined. Memberships are read afresh on every call. */
export async function sessionPrincipal(db: Db, headers: Headers): Promise<Principal | undefined> {
  const cookie = headers.get('cookie');
  if (!cookie || !cookie.includes('next-auth.session-token')) return undefined;
  const cookies = parseCookies(cookie);
  const token = await getToken({
    req: { headers: Object.fromEntries(headers), cookies } as never,
    secret: await sessionSecret(db),
    secureCookie: Object.keys(cookies).some((k) => k.startsWith('__Secure-next-auth.session-token')),
  }).catch(() => null);
  const userId = typeof token?.sub === 'string' ? token.sub : undefined;
  if (!userId) return undefined;
  const user = await db.user.findUnique({ where: { id: userId }, include: { memberships: true } });
  if (!user) return undefined;
  return { kind: 'user', userId: user.id, admin: user.admin, ownerIds: user.memberships.map((m) => m.ownerId) };
}
