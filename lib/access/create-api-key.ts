// POST /admin/v1/owners/{id}/keys: a new key; the only moment its value exists outside the caller's hands.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { notFound } from '../errors';
import { hashSecret, newSecret, secretPrefix } from './secrets';

/** A key for an owner known to exist (create-owner.ts makes two in its transaction). */
export async function insertApiKey(db: Pick<Db, 'apiKey'>, ownerId: string, sandbox: boolean) {
  const key = newSecret(sandbox ? 'test_key' : 'live_key');
  const row = await db.apiKey.create({
    data: { id: randomUUID(), ownerId, sandbox, hash: hashSecret(key), prefix: secretPrefix(key) },
  });
  return { id: row.id, key, sandbox, created_at: row.createdAt.toISOString() };
}

export interface CreateApiKeyOptions {
  db: Db;
  ownerId: string;
  sandbox: boolean;
}

export async function createApiKey({ db, ownerId, sandbox }: CreateApiKeyOptions) {
  if (!(await db.owner.findUnique({ where: { id: ownerId } }))) throw notFound('Owner not found');
  return insertApiKey(db, ownerId, sandbox);
}
