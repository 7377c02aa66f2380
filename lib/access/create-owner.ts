// POST /admin/v1/owners: a workspace with a live and a sandbox key.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { insertApiKey } from './create-api-key';
import { presentOwner } from './present-owner';

export async function createOwner(db: Db, name: string) {
  return db.$transaction(async (tx) => {
    const owner = await tx.owner.create({ data: { id: randomUUID(), name } });
    const live = await insertApiKey(tx, owner.id, false);
    const sandbox = await insertApiKey(tx, owner.id, true);
    return { ...presentOwner(owner), api_keys: [live, sandbox] };
  });
}
