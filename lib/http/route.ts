// Wraps a route's method handlers: request ids, 405 with Allow, and the one error handler.
import { ApiError } from '../errors';
import { toApiError } from './to-api-error';
import { logQueryCount, withRequestId } from '../log';
import { requestIdFrom } from './request-id';
import { errorResponse } from './respond';

export interface RouteContext {
  params: Record<string, string>;
  requestId: string;
}
export type Handler = (req: Request, ctx: RouteContext) => Promise<Response>;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
type Method = (typeof METHODS)[number];
type NextContext = { params?: Promise<Record<string, string | string[]>> };

/** Runs a handler so that whatever it throws becomes the contract's error body. */
export async function handle(requestId: string, fn: () => Promise<Response>): Promise<Response> {
  try {
    const res = await fn();
    res.headers.set('X-Request-Id', requestId);
    return res;
  } catch (err) {
    return errorResponse(toApiError(err, requestId), requestId);
  } finally {
    logQueryCount();
  }
}

export function route(handlers: Partial<Record<Method, Handler>>): Record<Method, (req: Request, ctx: NextContext) => Promise<Response>> {
  const own: Partial<Record<Method, Handler>> = { ...handlers };
  if (own.GET && !own.HEAD) {
    const get = own.GET;
    own.HEAD = async (req, ctx) => {
      const res = await get(req, ctx);
      return new Response(null, { status: res.status, headers: res.headers });
    };
  }
  const allow = METHODS.filter((m) => own[m])
    .concat('OPTIONS')
    .join(', ');
  own.OPTIONS ??= async () => new Response(null, { status: 204, headers: { Allow: allow } });

  const out = {} as Record<Method, (req: Request, ctx: NextContext) => Promise<Response>>;
  for (const method of METHODS) {
    out[method] = async (req, nextCtx) => {
      const requestId = requestIdFrom(req.headers.get('x-request-id'));
      return withRequestId(requestId, () =>
        handle(requestId, async () => {
          const h = own[method];
          if (!h) throw new ApiError('method_not_allowed', `${method} is not allowed on this path`, { headers: { Allow: allow } });
          const raw = (await nextCtx?.params) ?? {};
          const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join('/') : v]));
          return h(req, { params, requestId });
        }),
      );
    };
  }
  return out;
}
