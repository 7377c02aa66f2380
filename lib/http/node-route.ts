// The Pages Router counterpart of route(): request ids, one error handler, and the answer to a
// request whose body was refused before it was read to the end (refused-body.mjs).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WITNESS_HEADER, witnessHeader } from '../events/witness';
import { ApiError } from '../errors';
import { toApiError } from './to-api-error';
import { currentRequest, logQueryCount, withRequestId } from '../log';
import { requestIdFrom } from './request-id';
import { endRefused } from './refused-body.mjs';
import { JSON_TYPE } from './respond';
import { refuseAuditorWrite, sendsAuditorKey } from './auth';
import { callerOf } from './node-adapter';

export interface NodeContext {
  requestId: string;
  query: Record<string, string | undefined>;
}
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, ctx: NodeContext) => Promise<void>;

export function sendError(req: IncomingMessage, res: ServerResponse, err: ApiError, requestId: string) {
  if (res.headersSent) return void res.destroy();
  const body = Buffer.from(JSON.stringify(err.body()));
  res.statusCode = err.status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', body.length);
  res.setHeader('X-Request-Id', requestId);
  for (const [k, v] of Object.entries(err.headers ?? {})) res.setHeader(k, v);
  endRefused(req, res, body);
}

/** What nodeRoute() takes: a handler per method the route serves. OPTIONS is the server's (scripts/serve.mjs). */
type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHODS: Method[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
type NodeRequest = IncomingMessage & { query?: Record<string, string | string[]> };

/**
 * A Pages API route serving the methods it is given. scripts/serve.mjs answers OPTIONS and every
 * other method from the route table (scripts/route-table.mjs reads these keys) before Next runs;
 * the 405 here is for a server without it (`next dev`).
 */
export function nodeRoute(handlers: Partial<Record<Method, NodeHandler>>) {
  const served = METHODS.filter((m) => handlers[m]);
  const allow = [...served, 'OPTIONS'].join(', ');
  const handler = answer((req) => {
    const h = handlers[(req.method ?? 'GET').toUpperCase() as Method];
    if (!h) throw new ApiError('method_not_allowed', `${req.method} is not allowed on this path`, { headers: { Allow: allow } });
    return h;
  });
  return Object.assign(handler, { methods: served });
}

/** A Pages API route that answers every method with the same handler (pages/api/fallback.ts). */
export function everyMethod(h: NodeHandler) {
  return answer(() => h);
}

function answer(pick: (req: NodeRequest) => NodeHandler) {
  return (req: NodeRequest, res: ServerResponse) => {
    const requestId = requestIdFrom(req.headers['x-request-id'] as string | undefined);
    return withRequestId(requestId, () => run(req, res, requestId));
  };

  async function run(req: NodeRequest, res: ServerResponse, requestId: string) {
    res.setHeader('X-Request-Id', requestId);
    nameLastEvent(res);
    const query = Object.fromEntries(Object.entries(req.query ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
    try {
      const method = (req.method ?? 'GET').toUpperCase();
      // An auditor's key never writes, wherever it sends one, before a byte of the body is read
      // (docs/api.md, Auditor keys); credentials of other kinds are left to the route.
      if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' && sendsAuditorKey(req.headers.authorization))
        await refuseAuditorWrite(callerOf(req));
      await pick(req)(req, res, { requestId, query });
    } catch (err) {
      // A client that hung up mid-upload has nobody to answer.
      if (req.destroyed && (err as NodeJS.ErrnoException)?.code === 'ECONNRESET') return;
      sendError(req, res, toApiError(err, requestId), requestId);
    } finally {
      logQueryCount();
    }
  }
}

/**
 * A successful answer names the last event record its request appended (Silo-Event, witness.ts):
 * set as the head goes out (an explicit writeHead or the one end() makes), after the handler wrote.
 */
function nameLastEvent(res: ServerResponse) {
  const request = currentRequest(); // end() may run outside the request's async context (a stream's callback)
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
    const witness = witnessHeader(request);
    if (witness && args[0] < 400 && !this.headersSent) this.setHeader(WITNESS_HEADER, witness);
    return writeHead.apply(this, args);
  } as typeof writeHead;
}
