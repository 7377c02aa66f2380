// DELETE /admin/v1/owners/{id}/keys/{key_id}: revoked keys stop working at once, as
// authentication reads revoked_at on every request.
import type { Db } from '../db/client';
import { notFound } from '../errors';
import { appendEvent } from '../events/append-event';
import type { EventActor } from '../events/catalogue';

export interface RevokeApiKeyOptions {
  db: Db;
  ownerId: string;
  keyId: string;
  actor: EventActor;
}

/** Revokes the key with its key.revoked record; an unknown or already revoked key is 404. */
export async function revokeApiKey({ db, ownerId, keyId, actor }: RevokeApiKeyOptions): Promise<void> {
  await db.$transaction(async (tx) => {
    const [key] = await tx.$queryRaw<{ sandbox: boolean; prefix: string }[]>`
      UPDATE api_keys SET revoked_at = now() WHERE id = ${keyId}::uuid AND owner_id = ${ownerId}::uuid AND revoked_at IS NULL
      RETURNING sandbox, prefix`;
    if (!key) throw notFound('Key not found');
    await appendEvent(tx, { type: 'key.revoked', ownerId, sandbox: key.sandbox, actor, data: { key_id: keyId, prefix: key.prefix } });
  });
}
