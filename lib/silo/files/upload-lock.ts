// One upload at a time per placeholder, so two racing uploads can never mix their bytes.
// The lock lives in this process: one Silo process serves a data directory (PGlite requires
// that), and with PostgreSQL the held copies are local to the process that received them.
import { ApiError } from '../../errors';

// On globalThis: Next bundles this module once per route, and both upload routes must share it.
const g = globalThis as unknown as { __siloUploadsBusy?: Set<string> };
const busy = (g.__siloUploadsBusy ??= new Set<string>());

export async function withUploadLock<T>(fileId: string, fn: () => Promise<T>): Promise<T> {
  if (busy.has(fileId)) throw new ApiError('upload_in_progress', 'Another upload to this file is in progress; retry when it ends');
  busy.add(fileId);
  try {
    return await fn();
  } finally {
    busy.delete(fileId);
  }
}

export const isUploading = (fileId: string) => busy.has(fileId);
