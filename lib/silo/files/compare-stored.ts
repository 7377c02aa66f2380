// Bytes sent to a file that is stored already (docs/api.md, Uploads): the same bytes answer 200, other
// bytes 409, and nothing changes. Compared by hashing the stream in memory as it arrives: nothing
// is written, so whoever holds a public file's url cannot fill the disk by sending to it.
import { createHash } from 'node:crypto';
import type { File } from '../../db/generated/client';
import { ApiError } from '../../errors';

const differs = () => new ApiError('conflict', 'The file is stored already, with other bytes');

/** `declaredLength`: the request's Content-Length, when it sent one (another length differs unread). */
export async function compareWithStored(
  file: File,
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  declaredLength?: number,
): Promise<File> {
  const size = Number(file.size);
  if (declaredLength !== undefined && declaredLength !== size) throw differs();
  const hasher = createHash('sha256');
  let got = 0;
  for await (const chunk of source) {
    got += chunk.length;
    // Stop reading as soon as the bytes cannot be the same.
    if (got > size) throw differs();
    hasher.update(chunk);
  }
  if (got !== size || hasher.digest('hex') !== file.hash) throw differs();
  return file;
}
