// /silo/v1/entries/{entry_id}/files/{id} — GET/HEAD the bytes (seed §4.4); PUT (caller id), PATCH
// and DELETE are the JSON handlers, reached here because one path serves both.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveFile } from '@/lib/http/bytes';
import { siloContext } from '@/lib/http/context';
import { createFileHandler, deleteFileHandler, updateFileHandler } from '@/lib/http/handlers/files';
import { nodeRoute, type NodeContext } from '@/lib/http/node-route';
import { sendWebResponse, toWebRequest, webHeaders } from '@/lib/http/node-adapter';
import { pathId } from '@/lib/http/request';
import type { Handler } from '@/lib/http/route';
import { findFileInEntry } from '@/lib/silo/files/find-file';

export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

async function read(req: IncomingMessage, res: ServerResponse, ctx: NodeContext) {
  const c = await siloContext({ headers: webHeaders(req), method: req.method ?? 'GET' });
  const file = await findFileInEntry(c.db, c.scope, pathId(ctx.query.entry_id, 'Entry not found'), pathId(ctx.query.id, 'File not found'));
  await serveFile(req, res, c.store, file, ctx.query.download === '1');
}

const viaWeb = (handler: Handler) => async (req: IncomingMessage, res: ServerResponse, ctx: NodeContext) => {
  const params = { entry_id: ctx.query.entry_id ?? '', id: ctx.query.id ?? '' };
  const response = await handler(toWebRequest(req), { params, requestId: ctx.requestId });
  await sendWebResponse(res, response);
};

export default nodeRoute({
  GET: read,
  HEAD: read,
  PUT: viaWeb(createFileHandler),
  PATCH: viaWeb(updateFileHandler),
  DELETE: viaWeb(deleteFileHandler),
});
