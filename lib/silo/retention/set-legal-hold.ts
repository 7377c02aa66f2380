// PUT /silo/v1/entries/{id}/legal-hold (docs/api.md, Retention): while on, nothing in the entry may
// be deleted whatever its retention (delete-guard.ts); every version's record shows it. The entry's
// slots are locked first, then the entry, as a delete locks them: a delete either committed before
// (and the hold finds nothing) or sees the hold.
import type { Db } from '../../db/client';
import type { Scope } from '../../db/scope';
import { appendEvent } from '../../events/append-event';
import { type EventActor, eventActorFor } from '../../events/catalogue';
import type { LegalHoldInput } from '../../schemas/retention';
import type { BlobStore } from '../../storage/blob-store';
import { entryNotFound, findEntry } from '../find-entry';
import { lockBlobs } from './blob-locks';

export interface SetLegalHoldOptions {
  db: Db;
  store: BlobStore;
  scope: Scope;
  entryId: string;
  input: LegalHoldInput;
  actor: EventActor | null;
}

export async function setLegalHold(o: SetLegalHoldOptions): Promise<{ entry_id: string; hold: boolean; reason: string }> {
  const found = await findEntry({ db: o.db, scope: o.scope, id: o.entryId });
  const { hold, reason } = o.input;
  const hashes = await o.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM file_slots WHERE entry_id = ${found.id}::uuid ORDER BY id FOR NO KEY UPDATE`;
    // FOR UPDATE: a version being inserted reads the hold FOR KEY SHARE (prisma/sql/retention.sql) and waits for this.
    const [entry] = await tx.$queryRaw<{ hold: boolean; reason: string }[]>`
      SELECT legal_hold AS hold, legal_hold_reason AS reason FROM entries WHERE id = ${found.id}::uuid FOR UPDATE`;
    if (!entry) throw entryNotFound();
    if (entry.hold === hold && (!hold || entry.reason === reason)) return [];
    await tx.$executeRaw`UPDATE entries SET legal_hold = ${hold}, legal_hold_reason = ${hold ? reason : ''} WHERE id = ${found.id}::uuid`;
    const files = await tx.$queryRaw<{ hash: string }[]>`
      UPDATE files SET legal_hold = ${hold} WHERE entry_id = ${found.id}::uuid AND legal_hold <> ${hold} RETURNING hash`;
    await appendEvent(tx, {
      type: hold ? 'legal_hold.set' : 'legal_hold.cleared',
      ownerId: found.ownerId,
      sandbox: found.sandbox,
      actor: eventActorFor(o.actor),
      entryId: found.id,
      data: { reason: hold ? reason : entry.reason },
    });
    return files.map((f) => f.hash);
  });
  await lockBlobs(o.db, o.store, hashes, !hold);
  return { entry_id: found.id, hold, reason: hold ? reason : '' };
}
