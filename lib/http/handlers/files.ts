// JSON handlers of the file endpoints, shared by the App Router routes and the byte route that
// also answers GET at …/files/{id}.
import { createFile } from '../../silo/files/create-file';
import { deleteFile } from '../../silo/files/delete-file';
import { findFileInEntry } from '../../silo/files/find-file';
import { presentFile } from '../../silo/files/present-file';
import { restoreFile } from '../../silo/files/restore-file';
import { currentFiles, previousOf } from '../../silo/files/slots';
import { updateFile } from '../../silo/files/update-file';
import { findEntry } from '../../silo/entries';
import { fileInput, fileUpdate, type FileRecord } from '../../schemas/files';
import type { File } from '../../db/generated/client';
import { limits, siloContext, type SiloContext } from '../context';
import { pathId, readJson } from '../request';
import { json, noContent } from '../respond';
import type { RouteContext } from '../route';

export async function presentWithHistory(c: Pick<SiloContext, 'db' | 'signer'>, f: File): Promise<FileRecord> {
  return presentFile(f, c.signer, await previousOf(c.db, f));
}

export async function listFilesHandler(req: Request, { params }: RouteContext) {
  const c = await siloContext(req);
  const entry = await findEntry(c.db, c.scope, pathId(params.entry_id, 'Entry not found'));
  const files = await currentFiles(c.db, entry.id);
  return json({ list: await Promise.all(files.map((f) => presentWithHistory(c, f))) });
}

/** POST …/files (service id) and PUT …/files/{id} (caller id). */
export async function createFileHandler(req: Request, { params }: RouteContext) {
  const c = await siloContext(req);
  const l = limits();
  const entryId = pathId(params.entry_id, 'Entry not found');
  const id = params.id === undefined ? undefined : pathId(params.id, 'File not found');
  const input = await readJson(req, fileInput({ maxFileBytes: l.files.maxFileBytes, meta: l.meta }), l.maxJsonBytes);
  const { file, created } = await createFile({ db: c.db, store: c.store, scope: c.scope, entryId, id, input, limits: l.files });
  const record = await presentWithHistory(c, file);
  const location = `/silo/v1/entries/${file.entryId}/files/${file.id}`;
  return json(record, { status: created ? 201 : 200, headers: created ? { Location: location } : {} });
}

export async function updateFileHandler(req: Request, { params }: RouteContext) {
  const c = await siloContext(req);
  const file = await findFileInEntry(c.db, c.scope, pathId(params.entry_id), pathId(params.id, 'File not found'));
  const patch = await readJson(req, fileUpdate({ maxFileBytes: 0, meta: limits().meta }), limits().maxJsonBytes);
  return json(await presentWithHistory(c, await updateFile(c.db, file, patch)));
}

export async function deleteFileHandler(req: Request, { params }: RouteContext) {
  const c = await siloContext(req);
  const file = await findFileInEntry(c.db, c.scope, pathId(params.entry_id), pathId(params.id, 'File not found'));
  await deleteFile(c.db, c.store, file);
  return noContent();
}

export async function restoreFileHandler(req: Request, { params }: RouteContext) {
  const c = await siloContext(req);
  const version = await findFileInEntry(c.db, c.scope, pathId(params.entry_id), pathId(params.id, 'File not found'));
  const file = await restoreFile(c.db, c.store, version);
  return json(await presentWithHistory(c, file), {
    status: 201,
    headers: { Location: `/silo/v1/entries/${file.entryId}/files/${file.id}` },
  });
}
