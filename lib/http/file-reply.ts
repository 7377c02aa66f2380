// What the file endpoints share across both routers: reading a file request, and the record a
// file is answered with (its history included), so POST …/files and PUT …/files/{id} answer alike.
import { randomUUID } from 'node:crypto';
import type { Tx } from '../db/client';
import type { File } from '../db/generated/client';
import { fileInput, fileUpdate } from '../schemas/files';
import { listPreviousVersions } from '../silo/files/list-previous-versions';
import { presentFile, presentFileAtUrl } from '../silo/files/present-file';
import { inFileScope } from '../silo/files/find-file';
import { isApiError } from '../errors';
import { type CallerRequest, optionalSiloScope } from './auth';
import { slotHistoriesOf } from '../silo/files/slot-history';
import type { UrlSigner } from '../silo/files/file-url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createFile } from '../silo/files/create-file';
import { limits, siloContext } from './context';
import { callerOf, jsonSourceOf, sendJson, sendJsonText } from './node-adapter';
import { type JsonSource, readJson } from './request';
import { type JsonReply, json } from './respond';

export const readFileInput = (req: Request | JsonSource) => {
  const l = limits();
  return readJson(req, fileInput(l.meta), l.maxJsonBytes);
};

export const readFileUpdate = (req: Request) => readJson(req, fileUpdate(limits().meta), limits().maxJsonBytes);

/**
 * What `PUT {url}` answers once the bytes are stored: the full record to credentials that reach the
 * file's workspace; to anyone else (the url is all they hold) only what `GET {url}` tells. Bad or
 * foreign credentials count as none: the bytes are already stored, the answer must not fail.
 */
export async function fileAtUrlBody(c: { db: Tx; signer: UrlSigner }, caller: CallerRequest, file: File) {
  const scope = await optionalSiloScope(caller).catch((err) => {
    if (isApiError(err)) return undefined;
    throw err;
  });
  if (scope && (await inFileScope(c.db, file, scope))) return fileRecord(c, file);
  return presentFileAtUrl(file, c.signer);
}

/** A file as the API shows it, with its earlier versions. */
export async function fileRecord(c: { db: Tx; signer: UrlSigner }, file: File) {
  return presentFile(file, c.signer, await listPreviousVersions(c.db, file));
}

/** 201 with Location for a new file (or version), 200 for a repeated request. */
export async function fileCreatedReply(c: { db: Tx; signer: UrlSigner }, file: File, created = true): Promise<JsonReply> {
  const headers = created ? createdHeaders(file) : undefined;
  return { status: created ? 201 : 200, headers, body: await fileRecord(c, file) };
}

/**
 * POST …/files and PUT …/files/{id} on Node's req/res: the JSON body read from the socket, the
 * file made (a new version, or the same request repeated), the record answered with Content-Length.
 */
export async function answerFileCreate(req: IncomingMessage, res: ServerResponse, target: { entryId: string; id?: string }) {
  const c = await siloContext(callerOf(req));
  const input = await readFileInput(jsonSourceOf(req));
  const { file, created, made } = await createFile({
    db: c.db,
    store: c.store,
    scope: c.scope,
    entryId: target.entryId,
    id: target.id,
    input,
    limits: limits().files,
    actor: c.actor,
  });
  if (!made) return sendJson(res, await fileCreatedReply(c, file, created));
  // A version one statement made current: its history as cached text (slot-history.ts), spliced
  // into the record where `previous` goes, and written without joining it.
  const previous = await slotHistoriesOf(c.db).previousOf(c.db, made);
  const record: Record<string, unknown> = presentFile(file, c.signer, []);
  record.previous = PREVIOUS_HERE; // in the place the key already has
  const [head, tail] = JSON.stringify(record).split(JSON.stringify(PREVIOUS_HERE));
  sendJsonText(res, { status: 201, headers: createdHeaders(file) }, [Buffer.from(`${head}[`), ...previous, Buffer.from(`]${tail}`)]);
}

/**
 * Marks where `previous` goes in a record's JSON: a string no record holds (NUL is refused in
 * every string, and this one is not known outside the process).
 */
const PREVIOUS_HERE = `\u0000${randomUUID()}`;

const createdHeaders = (file: File) => ({ Location: `/silo/v1/entries/${file.entryId}/files/${file.id}` });

export async function fileCreatedResponse(c: { db: Tx; signer: UrlSigner }, file: File, created = true): Promise<Response> {
  const reply = await fileCreatedReply(c, file, created);
  return json(reply.body, reply);
}
