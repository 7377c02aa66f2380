// DELETE /silo/v1/entries/{id}: the entry, all its files and versions; bytes freed when unreferenced.
import type { Db } from '../db/client';
import type { Scope } from '../db/scope';
import type { BlobStore } from '../storage/blob-store';
import { notFound } from '../errors';
import { appendEvent } from '../events/append-event';
import { type EventActor, eventActorFor } from '../events/catalogue';
import { Prisma } from '../db/generated/client';
import { findEntry } from './find-entry';
import { refusedByDatabase } from '../db/db-errors';
import { answer, type DeleteRefused, guardDelete } from './retention/delete-guard';
import { markLeased, releaseBytes, type RemovedFile } from './files/delete-file';

export interface DeleteEntryOptions {
  db: Db;
  store: BlobStore;
  scope: Scope;
  id: string;
  /** who deletes it, as its entry.deleted record names them (null: the admin key) */
  actor: EventActor | null;
  /** an administrator overrides governance retention (retention/delete-guard.ts) */
  bypassGovernance?: boolean;
}

export async function deleteEntry({ db, store, scope, id, actor, bypassGovernance = false }: DeleteEntryOptions): Promise<void> {
  const entry = await findEntry({ db, scope, id });
  const outcome = await db
    .$transaction(async (tx): Promise<RemovedFile[] | DeleteRefused> => {
      // Slots before files, in one order, as a completing upload locks them (complete-placeholder.ts).
      await tx.$queryRaw`SELECT 1 FROM file_slots WHERE entry_id = ${entry.id}::uuid ORDER BY id FOR UPDATE`;
      // Then the entry, as a legal hold takes it (set-legal-hold.ts): its hold holds until the commit.
      await tx.$queryRaw`SELECT 1 FROM entries WHERE id = ${entry.id}::uuid FOR UPDATE`;
      const refused = await guardDelete(tx, Prisma.sql`true`, {
        actor: eventActorFor(actor),
        chain: { ownerId: entry.ownerId, sandbox: entry.sandbox },
        entryId: entry.id,
        bypassGovernance,
        refused: 'entry.delete_refused',
      });
      if (refused) return refused;
      const rows = await tx.$queryRaw<(RemovedFile & DeletedVersion)[]>`
      DELETE FROM files WHERE entry_id = ${entry.id}::uuid
      RETURNING id::text, hash, stored, category, key, name, version, size`;
      // A delete racing this one got there first: the loser answers 404 like any later request.
      if (!(await tx.entry.deleteMany({ where: { id: entry.id } })).count) throw notFound('Entry not found');
      await appendEvent(tx, {
        type: 'entry.deleted',
        ownerId: entry.ownerId,
        sandbox: entry.sandbox,
        actor: eventActorFor(actor),
        entryId: entry.id,
        data: {
          key: entry.key,
          folder: entry.folder,
          name: entry.name,
          files: rows.map((r) => ({
            id: r.id,
            category: r.category,
            key: r.key,
            name: r.name,
            version: r.version,
            sha256: r.hash,
            size: Number(r.size),
            stored: r.stored,
          })),
        },
      });
      return markLeased(tx, rows);
    })
    .catch(refusedByDatabase);
  await releaseBytes(db, store, answer(outcome));
}

/** What entry.deleted says of each of its versions and placeholders. */
interface DeletedVersion {
  category: string;
  key: string | null;
  name: string;
  version: number | null;
  size: bigint;
}
