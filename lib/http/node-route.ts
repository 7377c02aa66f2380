// The Pages Router counterpart of route(): request ids, 405 with Allow, one error handler, and
// connection handling for bodies we refuse before reading them to the end.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../errors';
import { toApiError } from './to-api-error';
import { logQueryCount, withRequestId } from '../log';
import { requestIdFrom } from './request-id';
import { JSON_TYPE } from './respond';

export interface NodeContext {
  requestId: string;
  query: Record<string, string | undefined>;
}
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, ctx: NodeContext) => Promise<void>;
type Method = 'GET' | 'HEAD' | 'PUT' | 'PATCH' | 'DELETE' | 'POST' | 'OPTIONS';

export function sendError(req: IncomingMessage, res: ServerResponse, err: ApiError, requestId: string) {
  if (res.headersSent) return void res.destroy();
  const body = Buffer.from(JSON.stringify(err.body()));
  res.statusCode = err.status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', body.length);
  res.setHeader('X-Request-Id', requestId);
  for (const [k, v] of Object.entries(err.headers ?? {})) res.setHeader(k, v);
  // A body we stopped reading (413, or refused before reading) cannot be left on the socket. One
  // we can afford (a declared length up to DRAIN_MAX_BYTES, or chunked) is read to its end and
  // dropped, and the connection kept: Node ends a `Connection: close` socket as soon as the
  // answer is out, and a client still sending then fails with EPIPE instead of reading the
  // answer. A declared length past that is answered `Connection: close` and cut after a linger.
  const answer = req.method === 'HEAD' ? undefined : body;
  if (req.readableEnded) return void res.end(answer);
  const declared = req.headers['content-length'];
  if (declared === undefined || Number(declared) <= DRAIN_MAX_BYTES) {
    res.end(answer);
    res.once('finish', () => drain(req));
    return;
  }
  res.setHeader('Connection', 'close');
  res.end(answer);
  res.once('finish', () => lingerThenClose(req));
}

/** The most of a refused body that is read and dropped to keep the connection. */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/** How long a refused body may go on arriving after the answer, to be read and dropped. */
const LINGER_MS = 1_000;

/**
 * Reads the rest of a refused body and drops it, so the connection serves the next request. A
 * chunked body has no declared end: past DRAIN_MAX_BYTES (or a body still unfinished after
 * DRAIN_MAX_MS) the connection is closed the lingering way.
 */
function drain(req: IncomingMessage) {
  let left = DRAIN_MAX_BYTES;
  const stop = () => {
    clearTimeout(timer);
    req.off('data', count);
  };
  const cut = () => {
    stop();
    req.socket?.end();
    lingerThenClose(req);
  };
  const count = (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) cut();
  };
  const timer = setTimeout(cut, DRAIN_MAX_MS);
  req.on('data', count);
  req.once('end', stop);
  req.once('error', stop);
  req.resume();
}

/** The longest a refused body is read after its answer before the connection is closed. */
const DRAIN_MAX_MS = 10_000;

/**
 * Closing a connection whose client is still sending resets it, and a reset may take the answer
 * with it: the client's system drops what it received but had not read (a 413 or 507 reaches it
 * as ECONNRESET). So, as nginx's lingering close does, what still arrives is read and dropped
 * until the client stops or a second has passed, and only then is the connection closed.
 */
function lingerThenClose(req: IncomingMessage) {
  const close = () => {
    clearTimeout(timer);
    req.destroy();
  };
  const timer = setTimeout(close, LINGER_MS);
  req.once('end', close);
  req.once('error', close);
  req.resume();
}

export function nodeRoute(handlers: Partial<Record<Method, NodeHandler>>) {
  const allow = Object.keys(handlers).join(', ');
  return (req: IncomingMessage & { query?: Record<string, string | string[]> }, res: ServerResponse) => {
    const requestId = requestIdFrom(req.headers['x-request-id'] as string | undefined);
    return withRequestId(requestId, () => run(req, res, requestId));
  };

  async function run(req: IncomingMessage & { query?: Record<string, string | string[]> }, res: ServerResponse, requestId: string) {
    res.setHeader('X-Request-Id', requestId);
    const query = Object.fromEntries(Object.entries(req.query ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
    try {
      const h = handlers[(req.method ?? 'GET').toUpperCase() as Method];
      if (!h) throw new ApiError('method_not_allowed', `${req.method} is not allowed on this path`, { headers: { Allow: allow } });
      await h(req, res, { requestId, query });
    } catch (err) {
      // A client that hung up mid-upload has nobody to answer.
      if (req.destroyed && (err as NodeJS.ErrnoException)?.code === 'ECONNRESET') return;
      sendError(req, res, toApiError(err, requestId), requestId);
    } finally {
      logQueryCount();
    }
  }
}
