// /silo/v1/files/{id}?sig=… — a file's signed url: PUT/HEAD for the upload, GET/HEAD for the bytes.
// A placeholder's url is the upload capability (docs/api.md, Uploads: no other credential); once
// stored, a private file's url needs its owner's credentials for every method, PUT included (no oracle).
// /silo/v1/files/{id}?expires=…&link=… — a link (docs/api.md, Links): GET/HEAD only, no credentials
// needed, private files included, until it expires.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { optionalSiloScope, sendsAuditorKey } from '@/lib/http/auth';
import { acceptUpload, serveFile, uploadStatus } from '@/lib/http/bytes';
import { fileAtUrlBody } from '@/lib/http/file-reply';
import { signerFor } from '@/lib/http/context';
import { nodeRoute, type NodeContext } from '@/lib/http/node-route';
import { callerOf } from '@/lib/http/node-adapter';
import { pathId } from '@/lib/http/request';
import { assertMayRead, findFileByUrl } from '@/lib/silo/files/find-file';
import { findFileByLink } from '@/lib/silo/files/file-links';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import type { File } from '@/lib/db/generated/client';
import { filesStore } from '@/lib/storage';

export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

async function load(req: IncomingMessage, ctx: NodeContext) {
  const db = await getDb();
  const caller = callerOf(req);
  const signer = await signerFor(caller.headers);
  const file = await findFileByUrl({ db, secret: signer.secret, id: pathId(ctx.query.id, 'File not found'), sig: ctx.query.sig ?? null });
  const mayRead = async (f: File) => assertMayRead(db, f, await optionalSiloScope(caller));
  return { db, signer, file, store: filesStore(db), mayRead };
}

/**
 * A link's GET/HEAD: the link is the whole credential. Sent with an auditor's key, it is that
 * key's read too: recorded, and only of its period (docs/api.md, Auditor keys).
 */
async function readLink(req: IncomingMessage, res: ServerResponse, ctx: NodeContext, sig: string) {
  const db = await getDb();
  const caller = callerOf(req);
  const { secret } = await signerFor(caller.headers);
  const id = pathId(ctx.query.id, 'File not found');
  const file = await findFileByLink({ db, secret, id, expires: ctx.query.expires, sig });
  if (sendsAuditorKey(req.headers.authorization)) await assertMayRead(db, file, await optionalSiloScope(caller));
  await serveFile(req, res, { store: filesStore(db) }, file, ctx.query.download === '1');
}

async function read(req: IncomingMessage, res: ServerResponse, ctx: NodeContext) {
  if (ctx.query.link !== undefined) return readLink(req, res, ctx, ctx.query.link);
  const c = await load(req, ctx);
  // An auditor's key reads no placeholder, not even its upload status (403 outside_period).
  if (!c.file.stored && req.method === 'HEAD' && !sendsAuditorKey(req.headers.authorization)) return uploadStatus(res, c, c.file);
  await c.mayRead(c.file);
  await serveFile(req, res, c, c.file, ctx.query.download === '1');
}

async function upload(req: IncomingMessage, res: ServerResponse, ctx: NodeContext) {
  if (ctx.query.link !== undefined) throw new ApiError('forbidden', 'A link only reads: GET or HEAD');
  const c = await load(req, ctx);
  // Credentials are looked at only when the file turns out to be stored and private, and to choose
  // the answer: the holder of the url alone learns no more than GET of the url tells.
  await acceptUpload(
    req,
    res,
    {
      ...c,
      authorizeStored: async (f) => (f.private ? c.mayRead(f) : undefined),
      storedBody: (f) => fileAtUrlBody(c, callerOf(req), f),
    },
    c.file,
  );
}

export default nodeRoute({ GET: read, HEAD: read, PUT: upload });
