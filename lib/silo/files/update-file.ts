// PATCH …/files/{id}: description, meta, private and embeddable; no new version. The change and
// its file.updated record (the fields changed, before and after) commit together.
import type { Db } from '../../db/client';
import type { File } from '../../db/generated/client';
import { appendEvent } from '../../events/append-event';
import { changesOf } from '../../events/changes';
import { type EventActor, eventActorFor } from '../../events/catalogue';
import type { FileUpdate } from '../../schemas/files';
import { fileNotFound } from './find-file';
import { withSlotLocked } from './lock-slot';

export interface UpdateFileOptions {
  db: Db;
  file: File;
  patch: FileUpdate;
  /** who edits it (null: the admin key) */
  actor: EventActor | null;
}

const EDITABLE = ['desc', 'meta', 'private', 'embeddable'] as const;

export async function updateFile({ db, file, patch, actor }: UpdateFileOptions): Promise<File> {
  return withSlotLocked(db, file, async (tx) => {
    const before = await tx.file.findUnique({ where: { id: file.id } });
    if (!before) throw fileNotFound();
    const after = await tx.file.update({ where: { id: file.id }, data: patch });
    const data = changesOf(before, after, EDITABLE);
    if (data)
      await appendEvent(tx, {
        ownerId: null,
        type: 'file.updated',
        actor: eventActorFor(actor),
        entryId: after.entryId,
        fileId: after.id,
        version: after.version,
        data,
      });
    return after;
  });
}
