// Owners (workspaces) and their API keys (contract §2, /admin/v1/owners).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import type { ApiKey, Owner } from '../db/generated/client';
import { notFound } from '../errors';
import { NEWEST_FIRST, afterCursor, page } from '../silo/cursor';
import { hashSecret, newSecret, secretPrefix } from './secrets';

export const presentKey = (k: ApiKey): import('../schemas/access').ApiKeyRecord => ({ id: k.id, prefix: k.prefix, sandbox: k.sandbox, created_at: k.createdAt.toISOString() });

export function presentOwner(o: Owner, keys?: ApiKey[]): import('../schemas/access').OwnerRecord {
  return {
    id: o.id,
    name: o.name,
    created_at: o.createdAt.toISOString(),
    ...(keys ? { api_keys: keys.filter((k) => !k.revokedAt).map(presentKey) } : {}),
  };
}

/** A new key; the only moment its value exists outside the caller's hands. */
export async function createApiKey(db: Pick<Db, 'apiKey'>, ownerId: string, sandbox: boolean) {
  const key = newSecret(sandbox ? 'test_key' : 'live_key');
  const row = await db.apiKey.create({
    data: { id: randomUUID(), ownerId, sandbox, hash: hashSecret(key), prefix: secretPrefix(key) },
  });
  return { id: row.id, key, sandbox, created_at: row.createdAt.toISOString() };
}

export async function createOwner(db: Db, name: string) {
  return db.$transaction(async (tx) => {
    const owner = await tx.owner.create({ data: { id: randomUUID(), name } });
    const live = await createApiKey(tx, owner.id, false);
    const sandbox = await createApiKey(tx, owner.id, true);
    return { ...presentOwner(owner), api_keys: [live, sandbox] };
  });
}

export async function getOwner(db: Db, id: string) {
  const owner = await db.owner.findUnique({ where: { id }, include: { apiKeys: { orderBy: { createdAt: 'asc' } } } });
  if (!owner) throw notFound('Owner not found');
  return presentOwner(owner, owner.apiKeys);
}

export async function listOwners(db: Db, q: { limit: number; cursor?: string }, only?: string[]) {
  const rows = await db.owner.findMany({
    where: { ...(only ? { id: { in: only } } : {}), ...afterCursor(q.cursor) },
    orderBy: NEWEST_FIRST,
    take: q.limit + 1,
  });
  const p = page(rows, q.limit, q.cursor);
  return { ...p, list: p.list.map((o) => presentOwner(o)) };
}

export async function addApiKey(db: Db, ownerId: string, sandbox: boolean) {
  if (!(await db.owner.findUnique({ where: { id: ownerId } }))) throw notFound('Owner not found');
  return createApiKey(db, ownerId, sandbox);
}

/** Revoked keys stop working at once: authentication reads revoked_at on every request. */
export async function revokeApiKey(db: Db, ownerId: string, keyId: string): Promise<void> {
  const { count } = await db.apiKey.updateMany({ where: { id: keyId, ownerId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (!count) throw notFound('Key not found');
}
