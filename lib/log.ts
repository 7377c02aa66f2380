// The process's structured log: JSON lines through pino, each line inside a request carrying
// that request's id (the same id the response's X-Request-Id carries).
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';

// On globalThis: Next bundles this module once per route, and every copy must share the context.
const g = globalThis as unknown as { __siloLog?: Logger; __siloRequest?: AsyncLocalStorage<{ requestId: string }> };

const requests = (g.__siloRequest ??= new AsyncLocalStorage<{ requestId: string }>());

export const log: Logger = (g.__siloLog ??= pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  mixin: () => {
    const r = requests.getStore();
    return r ? { request_id: r.requestId } : {};
  },
}));

/** Runs `fn` with `requestId` on every log line it writes. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return requests.run({ requestId }, fn);
}
