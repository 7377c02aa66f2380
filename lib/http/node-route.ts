// The Pages Router counterpart of route(): request ids, 405 with Allow, one error handler, and
// connection handling for bodies we refuse before reading them to the end.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, toApiError } from '../errors';
import { logQueryCount, withRequestId } from '../log';
import { requestIdFrom } from './request-id';
import { JSON_TYPE } from './respond';

export interface NodeContext {
  requestId: string;
  query: Record<string, string | undefined>;
}
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, ctx: NodeContext) => Promise<void>;
type Method = 'GET' | 'HEAD' | 'PUT' | 'PATCH' | 'DELETE' | 'POST';

export function sendError(req: IncomingMessage, res: ServerResponse, err: ApiError, requestId: string) {
  if (res.headersSent) return void res.destroy();
  const body = Buffer.from(JSON.stringify(err.body()));
  res.statusCode = err.status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', body.length);
  res.setHeader('X-Request-Id', requestId);
  for (const [k, v] of Object.entries(err.headers ?? {})) res.setHeader(k, v);
  // A body we stopped reading (413, or refused before reading) cannot be left on the socket.
  if (!req.readableEnded) res.setHeader('Connection', 'close');
  res.end(req.method === 'HEAD' ? undefined : body);
  if (!req.readableEnded) res.once('finish', () => lingerThenClose(req));
}

/** How long a refused body may go on arriving after the answer, to be read and dropped. */
const LINGER_MS = 1_000;

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
