// POST /silo/v1/auditor-keys: a read-only key for one environment's period, shown in this answer
// only (docs/api.md, Auditor keys), with its auditor_key.created record in the same transaction.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import type { Target } from '../db/scope';
import { appendEvent } from '../events/append-event';
import type { EventActor } from '../events/catalogue';
import type { AuditorKeyInput, NewAuditorKey } from '../schemas/auditor-keys';
import { presentAuditorKey } from './present-auditor-key';
import { hashSecret, newSecret, secretPrefix } from './secrets';

export interface CreateAuditorKeyOptions {
  db: Db;
  target: Target;
  input: AuditorKeyInput;
  actor: EventActor;
}

export async function createAuditorKey({ db, target, input, actor }: CreateAuditorKeyOptions): Promise<NewAuditorKey> {
  const key = newSecret('auditor_key');
  const { ownerId, sandbox } = target;
  return db.$transaction(async (tx) => {
    const row = await tx.auditorKey.create({
      data: {
        id: randomUUID(),
        ownerId,
        sandbox,
        hash: hashSecret(key),
        prefix: secretPrefix(key),
        periodStart: new Date(`${input.from}T00:00:00.000Z`),
        periodEnd: new Date(`${input.to}T00:00:00.000Z`),
        // whole milliseconds, as the column keeps them
        expiresAt: new Date(Date.now() + input.expires_in * 1000),
        note: input.note,
      },
    });
    const record = presentAuditorKey(row);
    const { from, to, expires_at, note, prefix } = record;
    await appendEvent(tx, {
      type: 'auditor_key.created',
      ownerId,
      sandbox,
      actor,
      data: { key_id: row.id, prefix, from, to, expires_at, note },
    });
    return { ...record, key };
  });
}
