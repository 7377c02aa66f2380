// /silo/v1/files/{id}?sig=… — a file's signed url: PUT/HEAD for the upload, GET/HEAD for the bytes.
// A placeholder's url is the upload capability (contract §4: no other credential); once stored, a
// private file's url needs its owner's credentials for every method, PUT included (no oracle).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { acceptUpload, serveFile, uploadStatus } from '@/lib/http/bytes';
import { authenticate, siloScope } from '@/lib/http/auth';
import { signerFor } from '@/lib/http/context';
import { nodeRoute, type NodeContext } from '@/lib/http/node-route';
import { webHeaders } from '@/lib/http/node-adapter';
import { pathId } from '@/lib/http/request';
import { sessionPrincipal } from '@/lib/http/session';
import { assertMayRead, findFileByUrl } from '@/lib/silo/files/find-file';
import type { File } from '@/lib/db/generated/client';
import { getDb, type Db } from '@/lib/db/client';
import { blobStore } from '@/lib/storage';

export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

async function load(req: IncomingMessage, ctx: NodeContext) {
  const db = await getDb();
  const signer = await signerFor(webHeaders(req));
  const file = await findFileByUrl(db, signer.secret, pathId(ctx.query.id, 'File not found'), ctx.query.sig ?? null);
  // A stored private file's link needs its owner's credentials, for every method; a public one's none.
  const authorizeStored = async (f: File) => {
    if (f.private) await assertMayRead(db, f, await optionalScope(req, db));
  };
  return { db, signer, file, store: blobStore(), authorizeStored };
}

/**
 * Credentials are optional on a link; a private file needs them. A Bearer credential must be
 * valid; a session cookie that does not verify is ignored, as a browser holding a stale console
 * cookie must still open a public link (a private file then answers 401).
 */
async function optionalScope(req: IncomingMessage, db: Db) {
  const headers = webHeaders(req);
  if (headers.get('authorization')) return siloScope(await authenticate({ headers, method: req.method ?? 'GET' }));
  if (!headers.get('cookie')?.includes('next-auth.session-token')) return undefined;
  const user = await sessionPrincipal(db, headers);
  return user ? siloScope(user) : undefined;
}

async function read(req: IncomingMessage, res: ServerResponse, ctx: NodeContext) {
  const deps = await load(req, ctx);
  if (!deps.file.stored && req.method === 'HEAD') return uploadStatus(res, deps, deps.file);
  await assertMayRead(deps.db, deps.file, await optionalScope(req, deps.db));
  await serveFile(req, res, deps.store, deps.file, ctx.query.download === '1');
}

async function upload(req: IncomingMessage, res: ServerResponse, ctx: NodeContext) {
  const deps = await load(req, ctx);
  await acceptUpload(req, res, deps, deps.file);
}

export default nodeRoute({ GET: read, HEAD: read, PUT: upload });
