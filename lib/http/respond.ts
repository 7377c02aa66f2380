// Building replies: JSON with the contract's content type, and the error body.
import type { ApiError } from '../errors';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON answer for either router: json() makes it a web Response, sendJson() (node-adapter.ts) writes it to Node's. */
export interface JsonReply {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'Content-Type': JSON_TYPE, ...init.headers },
  });
}

export function noContent(headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 204, headers });
}

export function errorResponse(err: ApiError, requestId: string): Response {
  const res = json(err.body(), { status: err.status, headers: err.headers });
  res.headers.set('X-Request-Id', requestId);
  return res;
}
