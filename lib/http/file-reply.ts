// What the file endpoints share across both routers: reading a file request, and the record a
// file is answered with (its history included), so POST …/files and PUT …/files/{id} answer alike.
import type { Tx } from '../db/client';
import type { File } from '../db/generated/client';
import { fileInput, fileUpdate } from '../schemas/files';
import { listPreviousVersions } from '../silo/files/list-previous-versions';
import { presentFile } from '../silo/files/present-file';
import type { UrlSigner } from '../silo/files/file-url';
import { limits } from './context';
import { readJson } from './request';
import { json } from './respond';

export const readFileInput = (req: Request) => {
  const l = limits();
  return readJson(req, fileInput(l.meta), l.maxJsonBytes);
};

export const readFileUpdate = (req: Request) => readJson(req, fileUpdate(limits().meta), limits().maxJsonBytes);

/** A file as the API shows it, with its earlier versions. */
export async function fileRecord(c: { db: Tx; signer: UrlSigner }, file: File) {
  return presentFile(file, c.signer, await listPreviousVersions(c.db, file));
}

/** 201 with Location for a new file (or version), 200 for a repeated request. */
export async function fileCreatedResponse(c: { db: Tx; signer: UrlSigner }, file: File, created = true): Promise<Response> {
  const headers = created ? { Location: `/silo/v1/entries/${file.entryId}/files/${file.id}` } : undefined;
  return json(await fileRecord(c, file), { status: created ? 201 : 200, headers });
}
