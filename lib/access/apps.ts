// Applications and their client credentials (contract §2, /admin/v1/apps).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import type { App } from '../db/generated/client';
import { ApiError, notFound } from '../errors';
import { NEWEST_FIRST, afterCursor, page } from '../silo/cursor';
import { hashSecret, newClientId, newSecret, sameHash } from './secrets';

export const presentApp = (a: App): import('../schemas/access').AppRecord => ({
  id: a.id,
  name: a.name,
  client_id: a.clientId,
  trusted: a.trusted,
  created_at: a.createdAt.toISOString(),
});

export async function createApp(db: Db, input: { name: string; trusted: boolean }) {
  const secret = newSecret('client_secret');
  const app = await db.app.create({
    data: { id: randomUUID(), name: input.name, trusted: input.trusted, clientId: newClientId(), secretHash: hashSecret(secret) },
  });
  return { ...presentApp(app), client_secret: secret };
}

/** A new secret; the old one stops working at once. */
export async function rotateAppSecret(db: Db, id: string) {
  const secret = newSecret('client_secret');
  const app = await db.app.update({ where: { id }, data: { secretHash: hashSecret(secret) } }).catch(() => {
    throw notFound('Application not found');
  });
  return { ...presentApp(app), client_secret: secret };
}

/** Every application, or with `onlyOwners` (a console member) those enrolled in one of those workspaces. */
export async function listApps(db: Db, q: { limit: number; cursor?: string }, onlyOwners?: string[]) {
  const rows = await db.app.findMany({
    where: { ...(onlyOwners ? { enrollments: { some: { ownerId: { in: onlyOwners } } } } : {}), ...afterCursor(q.cursor) },
    orderBy: NEWEST_FIRST,
    take: q.limit + 1,
  });
  const p = page(rows, q.limit, q.cursor);
  return { ...p, list: p.list.map(presentApp) };
}

// Compared against when the client id is unknown, so both answers take the same work.
const DUMMY_HASH = hashSecret('silo-no-such-client');

/** The application whose credentials these are; 401 alike for an unknown id and a wrong secret. */
export async function verifyClient(db: Db, clientId: string, secret: string): Promise<App> {
  const app = await db.app.findUnique({ where: { clientId } });
  const ok = sameHash(app?.secretHash ?? DUMMY_HASH, hashSecret(secret));
  if (!app || !ok) throw new ApiError('unauthorized', 'Unknown client_id or wrong client_secret');
  return app;
}
