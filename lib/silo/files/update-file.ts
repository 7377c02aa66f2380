// PATCH …/files/{id}: description, meta, private and embeddable; no new version.
import type { Db } from '../../db/client';
import type { File } from '../../db/generated/client';
import type { FileUpdate } from '../../schemas/files';

export interface UpdateFileOptions {
  db: Db;
  file: File;
  patch: FileUpdate;
}

export async function updateFile({ db, file, patch }: UpdateFileOptions): Promise<File> {
  return db.file.update({ where: { id: file.id }, data: patch });
}
