// Pages Router byte routes keep Node's req/res (Content-Length kept, bodies ~3× faster); these
// helpers let them answer their JSON methods with web Request/Response handlers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { NodeHandler } from './node-route';
import type { JsonSource } from './request';
import { JSON_TYPE, type JsonReply } from './respond';
import type { Handler } from './route';

/** A web handler as a Pages route method; the route's path parameters are its params. */
export const viaWeb =
  (handler: Handler): NodeHandler =>
  async (req, res, ctx) => {
    const params = Object.fromEntries(Object.entries(ctx.query).map(([k, v]) => [k, v ?? '']));
    await sendWebResponse(res, await handler(toWebRequest(req), { params, requestId: ctx.requestId }));
  };

function webHeaders(req: IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
  }
  return h;
}

function toWebRequest(req: IncomingMessage): Request {
  const method = req.method ?? 'GET';
  const hasBody = !['GET', 'HEAD'].includes(method);
  return new Request(`http://internal${req.url ?? '/'}`, {
    method,
    headers: webHeaders(req),
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    // @ts-expect-error Node's fetch needs this for a streamed body
    duplex: 'half',
  });
}

async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  for (const [key, value] of response.headers) res.setHeader(key, value);
  if (!response.body) return void res.end();
  const body = Buffer.from(await response.arrayBuffer());
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/**
 * A Node request's JSON body as readJson reads it, without a web stream in between. Its iterator
 * leaves the request open when readJson stops early (413): the answer is still to be sent.
 */
export const jsonSourceOf = (req: IncomingMessage): JsonSource => ({
  contentType: (req.headers['content-type'] as string | undefined) ?? null,
  contentLength: (req.headers['content-length'] as string | undefined) ?? null,
  body: req.iterator({ destroyOnReturn: false }),
});

/** Answers JSON, with Content-Length. */
export function sendJson(res: ServerResponse, reply: JsonReply) {
  sendJsonText(res, reply, [Buffer.from(JSON.stringify(reply.body))]);
}

/** A JSON answer already written as text, in pieces sent in order (one writev, no joined copy). */
export function sendJsonText(res: ServerResponse, reply: Omit<JsonReply, 'body'>, pieces: Buffer[]) {
  res.statusCode = reply.status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader(
    'Content-Length',
    pieces.reduce((n, p) => n + p.length, 0),
  );
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  if (pieces.length === 1) return void res.end(pieces[0]);
  // Corked so a plain answer leaves in one writev, and uncorked before end(): when Next
  // compresses, these writes go to its gzip stream, which writes the compressed bytes to this res
  // later and waits for a 'drain' a still-corked res never emits (the answer would never come).
  res.cork();
  try {
    for (const p of pieces) res.write(p);
  } finally {
    res.uncork();
  }
  res.end();
}

/** The caller of a Pages route, as authenticate() reads it. */
export const callerOf = (req: IncomingMessage) => ({ headers: webHeaders(req), method: req.method ?? 'GET', url: req.url });
