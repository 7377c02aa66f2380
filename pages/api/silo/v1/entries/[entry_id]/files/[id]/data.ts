// /silo/v1/entries/{entry_id}/files/{id}/data — the upload with the usual Bearer credential
// (the form of Invopop's current API); HEAD tells how many bytes are held, for a resume.
import type { IncomingMessage } from 'node:http';
import { acceptUpload, uploadStatus } from '@/lib/http/bytes';
import { siloContext } from '@/lib/http/context';
import { entryFileOf } from '@/lib/http/entry-file';
import { nodeRoute, type NodeContext } from '@/lib/http/node-route';
import { callerOf } from '@/lib/http/node-adapter';

export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

async function load(req: IncomingMessage, ctx: NodeContext) {
  const c = await siloContext(callerOf(req));
  return { ...c, file: await entryFileOf(c, ctx.query) };
}

export default nodeRoute({
  PUT: async (req, res, ctx) => {
    const c = await load(req, ctx);
    await acceptUpload(req, res, c, c.file);
  },
  HEAD: async (req, res, ctx) => {
    const c = await load(req, ctx);
    await uploadStatus(res, c, c.file);
  },
});
