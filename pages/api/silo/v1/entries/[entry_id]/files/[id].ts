// /silo/v1/entries/{entry_id}/files/{id} — GET/HEAD the bytes; PUT (the caller's id: a new file or
// a new version, docs/api.md, Files), PATCH (description, meta, flags) and DELETE answer JSON.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveFile } from '@/lib/http/bytes';
import { deleteContext, siloContext } from '@/lib/http/context';
import { entryFileOf } from '@/lib/http/entry-file';
import { answerFileCreate, readFileUpdate } from '@/lib/http/file-reply';
import { fileRecord } from '@/lib/silo/files/file-record';
import { nodeRoute, type NodeContext } from '@/lib/http/node-route';
import { callerOf, viaWeb } from '@/lib/http/node-adapter';
import { pathId } from '@/lib/http/request';
import { json, noContent } from '@/lib/http/respond';
import { deleteFile } from '@/lib/silo/files/delete-file';
import { updateFile } from '@/lib/silo/files/update-file';

export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

async function read(req: IncomingMessage, res: ServerResponse, ctx: NodeContext) {
  const c = await siloContext(callerOf(req), { auditor: true });
  await serveFile(req, res, c, await entryFileOf(c, ctx.query), ctx.query.download === '1');
}

export default nodeRoute({
  GET: read,
  HEAD: read,
  PUT: (req, res, ctx) =>
    answerFileCreate(req, res, { entryId: pathId(ctx.query.entry_id, 'Entry not found'), id: pathId(ctx.query.id, 'File not found') }),
  PATCH: viaWeb(async (req, { params }) => {
    const c = await siloContext(req);
    const file = await entryFileOf(c, params);
    return json(
      await fileRecord(c, await updateFile({ db: c.db, store: c.store, file, patch: await readFileUpdate(req), actor: c.actor })),
    );
  }),
  DELETE: viaWeb(async (req, { params }) => {
    const c = await deleteContext(req);
    const file = await entryFileOf(c, params);
    await deleteFile({ db: c.db, store: c.store, file, actor: c.actor, bypassGovernance: c.bypassGovernance });
    return noContent();
  }),
});
