// What the upload queue asks of the network: the seam where tests put a fake in its place.
import type { z } from 'zod';
import type { fileInput } from '../../schemas/files';
import { api } from '../api';
import type { FileRecord } from '../../schemas/records';
import { hashFile } from './hash-file';
import { sendBytes, uploadOffset, type SendOptions } from './send-bytes';

/** The request that creates a placeholder (POST) or renews its url (PUT with the same fields). */
export type PlaceholderRequest = Omit<z.input<ReturnType<typeof fileInput>>, 'data' | 'meta'> & { size: number; mime: string };

export interface UploadTransport {
  hash(file: File, onProgress: (done: number) => void, signal: AbortSignal): Promise<string>;
  /** POST …/files without `fileId`; PUT …/files/{fileId} asks again for a fresh url */
  placeholder(entryId: string, body: PlaceholderRequest, fileId?: string): Promise<FileRecord>;
  /** HEAD {url}: the bytes the server already holds */
  offset(url: string): Promise<number>;
  /** PUT {url}: the bytes from `offset` on */
  send(o: SendOptions): Promise<FileRecord>;
}

export const browserTransport: UploadTransport = {
  hash: hashFile,
  placeholder: (entryId, body, fileId) =>
    api<FileRecord>(`/silo/v1/entries/${entryId}/files${fileId ? `/${fileId}` : ''}`, { method: fileId ? 'PUT' : 'POST', body }),
  offset: uploadOffset,
  send: sendBytes,
};
