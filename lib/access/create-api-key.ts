// POST /admin/v1/owners/{id}/keys: a new key; the only moment its value exists outside the caller's hands.
import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../db/client';
import { notFound } from '../errors';
import { appendEvent } from '../events/append-event';
import type { EventActor } from '../events/catalogue';
import { hashSecret, newSecret, secretPrefix } from './secrets';

/**
 * A key for an owner known to exist (create-owner.ts makes two in its transaction), with its
 * key.created record in the key's environment's chain, in the caller's transaction.
 */
export async function insertApiKey(tx: Tx, ownerId: string, sandbox: boolean, actor: EventActor) {
  const key = newSecret(sandbox ? 'test_key' : 'live_key');
  const row = await tx.apiKey.create({
    data: { id: randomUUID(), ownerId, sandbox, hash: hashSecret(key), prefix: secretPrefix(key) },
  });
  await appendEvent(tx, { type: 'key.created', ownerId, sandbox, actor, data: { key_id: row.id, prefix: row.prefix } });
  return { id: row.id, key, sandbox, created_at: row.createdAt.toISOString() };
}

export interface CreateApiKeyOptions {
  db: Db;
  ownerId: string;
  sandbox: boolean;
  actor: EventActor;
}

export async function createApiKey({ db, ownerId, sandbox, actor }: CreateApiKeyOptions) {
  return db.$transaction(async (tx) => {
    if (!(await tx.owner.findUnique({ where: { id: ownerId } }))) throw notFound('Owner not found');
    return insertApiKey(tx, ownerId, sandbox, actor);
  });
}
