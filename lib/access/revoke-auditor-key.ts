// DELETE /silo/v1/auditor-keys/{id}: the key stops working at once (authentication reads it on
// every request), with its auditor_key.revoked record in the same transaction.
import type { Db } from '../db/client';
import type { Target } from '../db/scope';
import { notFound } from '../errors';
import { appendEvent } from '../events/append-event';
import type { EventActor } from '../events/catalogue';

export interface RevokeAuditorKeyOptions {
  db: Db;
  target: Target;
  id: string;
  actor: EventActor;
}

/** Revokes the key; one of another workspace or environment, unknown or already revoked is 404. */
export async function revokeAuditorKey({ db, target, id, actor }: RevokeAuditorKeyOptions): Promise<void> {
  const { ownerId, sandbox } = target;
  await db.$transaction(async (tx) => {
    const [key] = await tx.$queryRaw<{ prefix: string }[]>`
      UPDATE auditor_keys SET revoked_at = now()
      WHERE id = ${id}::uuid AND owner_id = ${ownerId}::uuid AND sandbox = ${sandbox} AND revoked_at IS NULL
      RETURNING prefix`;
    if (!key) throw notFound('Auditor key not found');
    await appendEvent(tx, { type: 'auditor_key.revoked', ownerId, sandbox, actor, data: { key_id: id, prefix: key.prefix } });
  });
}
