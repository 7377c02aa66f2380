// PATCH …/files/{id}: description, meta, private and embeddable, and a longer retention (docs/api.md,
// Retention); no new version. The change and its file.updated record (the fields changed, before
// and after) commit together.
import type { Db } from '../../db/client';
import type { File } from '../../db/generated/client';
import { appendEvent } from '../../events/append-event';
import { changesOf } from '../../events/changes';
import { type EventActor, eventActorFor } from '../../events/catalogue';
import type { FileUpdate } from '../../schemas/files';
import type { BlobStore } from '../../storage/blob-store';
import { lockVersionBlob } from '../retention/blob-locks';
import { extendedRetention } from '../retention/version-retention';
import { fileNotFound } from './find-file';
import { withSlotLocked } from './lock-slot';

export interface UpdateFileOptions {
  db: Db;
  file: File;
  patch: FileUpdate;
  /** who edits it (null: the admin key) */
  actor: EventActor | null;
  /** the store whose lock a longer retention extends (blob-locks.ts) */
  store?: BlobStore;
}

const EDITABLE = ['desc', 'meta', 'private', 'embeddable', 'retainUntil', 'retentionMode'] as const;
/** The API's names of the fields file.updated records. */
const NAMES: Record<string, string> = { retainUntil: 'retain_until', retentionMode: 'retention_mode' };
const named = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [NAMES[k] ?? k, v instanceof Date ? v.toISOString() : v]));

export async function updateFile({ db, file, patch, actor, store }: UpdateFileOptions): Promise<File> {
  const { retain_until, retention_mode, ...fields } = patch;
  const updated = await withSlotLocked(db, file, async (tx) => {
    const before = await tx.file.findUnique({ where: { id: file.id } });
    if (!before) throw fileNotFound();
    // Read under the slot's lock: another PATCH's extension is seen before this one is judged.
    const retention = extendedRetention(before, { retain_until, retention_mode });
    const after = await tx.file.update({ where: { id: file.id }, data: { ...fields, ...retention } });
    const data = changesOf(before, after, EDITABLE);
    if (data)
      await appendEvent(tx, {
        ownerId: null,
        type: 'file.updated',
        actor: eventActorFor(actor),
        entryId: after.entryId,
        fileId: after.id,
        version: after.version,
        data: { before: named(data.before), after: named(data.after) },
      });
    return after;
  });
  if (store && (retain_until !== undefined || retention_mode !== undefined)) await lockVersionBlob(db, store, updated);
  return updated;
}
