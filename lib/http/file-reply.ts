// What the file endpoints share across both routers: reading a file request, and writing the
// record the domain answers with (lib/silo/files/file-record.ts), so POST …/files and PUT
// …/files/{id} answer alike.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { File } from '../db/generated/client';
import { isApiError } from '../errors';
import { fileInput, fileUpdate } from '../schemas/files';
import { createFile } from '../silo/files/create-file';
import { createdFileRecord, fileAtUrlRecord, fileRecord, type RecordContext } from '../silo/files/file-record';
import { type CallerRequest, optionalSiloScope } from './auth';
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
 * What `PUT {url}` answers once the bytes are stored (fileAtUrlRecord). Bad or foreign credentials
 * count as none: the bytes are already stored, the answer must not fail.
 */
export async function fileAtUrlBody(c: RecordContext, caller: CallerRequest, file: File) {
  const scope = await optionalSiloScope(caller).catch((err) => {
    if (isApiError(err)) return undefined;
    throw err;
  });
  return fileAtUrlRecord(c, file, scope);
}

/** 201 with Location for a new file (or version), 200 for a repeated request. */
export async function fileCreatedReply(c: RecordContext, file: File, created = true): Promise<JsonReply> {
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
  const created = await createFile({
    db: c.db,
    store: c.store,
    scope: c.scope,
    entryId: target.entryId,
    id: target.id,
    input,
    limits: limits().files,
    actor: c.actor,
  });
  const reply = { status: created.created ? 201 : 200, headers: created.created ? createdHeaders(created.file) : undefined };
  const answer = await createdFileRecord(c, created);
  // Text: written as its pieces, without joining them.
  if ('text' in answer) return sendJsonText(res, reply, answer.text);
  sendJson(res, { ...reply, body: answer.record });
}

const createdHeaders = (file: File) => ({ Location: `/silo/v1/entries/${file.entryId}/files/${file.id}` });

export async function fileCreatedResponse(c: RecordContext, file: File, created = true): Promise<Response> {
  const reply = await fileCreatedReply(c, file, created);
  return json(reply.body, reply);
}
