// A placeholder's upload window and progress, shared by PUT (receive-upload.ts) and HEAD (the
// byte routes): one place decides that a url has expired and how many bytes are held.
import type { Db } from '../../db/client';
import type { File } from '../../db/generated/client';
import { ApiError } from '../../errors';
import type { BlobStore } from '../../storage/blob-store';
import { isUploadLeased, type UploadLease } from './upload-lock';

export interface UploadProgress {
  /** bytes held (all of them once stored) */
  offset: number;
  length: number;
}

/** Whether a placeholder's upload url has expired: the one place that decides it (fsck reports it too). */
export const isUploadExpired = (file: Pick<File, 'stored' | 'uploadExpiresAt'>, now = Date.now()) =>
  !file.stored && !!file.uploadExpiresAt && file.uploadExpiresAt.getTime() <= now;

/**
 * Refuses an expired upload url with 403 upload_url_expired and drops its held bytes (docs/api.md, Uploads),
 * unless an upload still holds its lease: those bytes are that upload's until it ends.
 */
export async function assertUploadOpen(db: Db, store: BlobStore, file: File, lease?: UploadLease): Promise<void> {
  if (!isUploadExpired(file)) return;
  if (lease?.fileId === file.id || !(await isUploadLeased(db, file.id))) await store.dropHeld(file.id);
  throw new ApiError('upload_url_expired', 'The upload url has expired; repeat the file request for a fresh one');
}

/** What HEAD of an upload reports: Upload-Offset and Upload-Length (tus). */
export async function uploadProgress(db: Db, store: BlobStore, file: File): Promise<UploadProgress> {
  const length = Number(file.size);
  if (file.stored) return { offset: length, length };
  await assertUploadOpen(db, store, file);
  return { offset: await store.heldSize(file.id), length };
}
