// PATCH …/files/{id}: description, meta, private and embeddable; no new version.
import type { Db } from '../../db/client';
import type { File } from '../../db/generated/client';
import type { FileUpdate } from '../../schemas/files';
import { withSlotLocked } from './lock-slot';

export interface UpdateFileOptions {
  db: Db;
  file: File;
  patch: FileUpdate;
}

export async function updateFile({ db, file, patch }: UpdateFileOptions): Promise<File> {
  return withSlotLocked(db, file, (tx) => tx.file.update({ where: { id: file.id }, data: patch }));
}
