// Pages Router byte routes keep Node's req/res (Content-Length kept, bodies ~3× faster); these
// helpers let them share the web Request/Response handlers for their JSON methods.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export function webHeaders(req: IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
  }
  return h;
}

export function toWebRequest(req: IncomingMessage): Request {
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

export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, key) => res.setHeader(key, value));
  if (!response.body) return void res.end();
  const body = Buffer.from(await response.arrayBuffer());
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

export async function sendStream(res: ServerResponse, stream: Readable): Promise<void> {
  await pipeline(stream, res);
}
