// The signed-in console user of the page being rendered (server components only).
import { headers } from 'next/headers';
import { getUser } from '@/lib/access/get-user';
import { getDb } from '@/lib/db/client';
import { sessionPrincipal } from '@/lib/http/session';
import type { UserRecord } from '@/lib/schemas/users';

export async function currentUser(): Promise<UserRecord | undefined> {
  const db = await getDb();
  const p = await sessionPrincipal(db, await headers());
  if (p?.kind !== 'user') return undefined;
  return getUser(db, p.userId).catch(() => undefined);
}

export async function hasUsers(): Promise<boolean> {
  return (await (await getDb()).user.count()) > 0;
}
