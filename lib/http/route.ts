// Wraps a route's method handlers: request ids and the one error handler.
import { toApiError } from './to-api-error';
import { logQueryCount, withRequestId } from '../log';
import { requestIdFrom } from './request-id';
import { errorResponse } from './respond';
import { refuseAuditorWrite } from './auth';
import { WITNESS_HEADER, witnessHeader } from '../events/witness';

export interface RouteContext {
  params: Record<string, string>;
  requestId: string;
}
export type Handler = (req: Request, ctx: RouteContext) => Promise<Response>;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];
type NextContext = { params?: Promise<Record<string, string | string[]>> };
type NextHandler = (req: Request, ctx: NextContext) => Promise<Response>;

/** Runs a handler so that whatever it throws becomes the contract's error body. */
export async function handle(requestId: string, fn: () => Promise<Response>): Promise<Response> {
  try {
    const res = await fn();
    res.headers.set('X-Request-Id', requestId);
    const witness = witnessHeader();
    if (witness && res.status < 400) res.headers.set(WITNESS_HEADER, witness);
    return res;
  } catch (err) {
    return errorResponse(toApiError(err, requestId), requestId);
  } finally {
    logQueryCount();
  }
}

/**
 * Wraps the handlers of the methods a route serves; the route file exports exactly these
 * (`export const { GET, POST } = route({ GET: …, POST: … })`). Next answers HEAD with GET.
 * OPTIONS and every other method are answered by scripts/serve.mjs from the route table
 * (scripts/route-table.mjs reads the exports) before Next runs: the contract's 405 with `Allow`.
 */
export function route<H extends Partial<Record<Method, Handler>>>(handlers: H): { [M in keyof H]: NextHandler } {
  const out: Partial<Record<Method, NextHandler>> = {};
  for (const method of METHODS) {
    const h = handlers[method];
    if (!h) continue;
    out[method] = async (req, nextCtx) => {
      const requestId = requestIdFrom(req.headers.get('x-request-id'));
      return withRequestId(requestId, () =>
        handle(requestId, async () => {
          // An auditor's key never writes, whatever the route (docs/api.md, Auditor keys).
          if (method !== 'GET' && method !== 'HEAD') await refuseAuditorWrite(req);
          const raw = (await nextCtx?.params) ?? {};
          const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join('/') : v]));
          return h(req, { params, requestId });
        }),
      );
    };
  }
  return out as { [M in keyof H]: NextHandler };
}
