// /silo/v1/entries/{entry_id}/files — GET/HEAD the current files with their history; POST a new
// file or version (service id; docs/api.md, Files). POST is on Node's req/res, as the byte paths
// are: most of the traffic is small inline files, and the body read straight from the socket and
// the answer written with Content-Length skip the web streams of an App Router handler
// (bench/small-requests.ts). PUT …/files/{id} (the caller's id) is [id].ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { siloContext } from '@/lib/http/context';
import { answerFileCreate } from '@/lib/http/file-reply';
import { fileRecordsOf } from '@/lib/silo/files/period-files';
import { viaWeb } from '@/lib/http/node-adapter';
import { nodeRoute, type NodeContext } from '@/lib/http/node-route';
import { pathId } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import type { Handler } from '@/lib/http/route';
import { findEntry } from '@/lib/silo/find-entry';

export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

const entryId = (params: Record<string, string | undefined>) => pathId(params.entry_id, 'Entry not found');

const list: Handler = async (req, { params }) => {
  const c = await siloContext(req, { auditor: true });
  const entry = await findEntry({ db: c.db, scope: c.scope, id: entryId(params) });
  return json({ list: await fileRecordsOf(c, entry.id, c.scope.period) });
};

const create = (req: IncomingMessage, res: ServerResponse, ctx: NodeContext) => answerFileCreate(req, res, { entryId: entryId(ctx.query) });

export default nodeRoute({ GET: viaWeb(list), HEAD: viaWeb(list), POST: create });
