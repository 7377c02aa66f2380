// POST /admin/v1/owners: a workspace with a live and a sandbox key.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import type { EventActor } from '../events/catalogue';
import { insertApiKey } from './create-api-key';
import { presentOwner } from './present-owner';

/** The workspace's first records are its keys' key.created, one in each environment's chain. */
export async function createOwner(db: Db, name: string, actor: EventActor) {
  return db.$transaction(async (tx) => {
    const owner = await tx.owner.create({ data: { id: randomUUID(), name } });
    const live = await insertApiKey(tx, owner.id, false, actor);
    const sandbox = await insertApiKey(tx, owner.id, true, actor);
    return { ...presentOwner(owner), api_keys: [live, sandbox] };
  });
}
