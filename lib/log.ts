// The process's structured log: JSON lines through pino, each line inside a request carrying
// that request's id (the same id the response's X-Request-Id carries).
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';
import { processSettings } from './config';

// On globalThis: Next bundles this module once per route, and every copy must share the context.
interface RequestStore {
  requestId: string;
  /** database queries made so far (only counted with SILO_COUNT_QUERIES=1) */
  queries: number;
  /** the last event record this request appended (lib/events/witness.ts) */
  lastEvent?: { chain: string; seq: number; hash: string };
}
const g = globalThis as unknown as {
  __siloLog?: Logger;
  __siloRequest?: AsyncLocalStorage<RequestStore>;
  /** where lines go instead of stdout: set by the unit tests' setup (lib/testing/log-capture.ts) */
  __siloLogSink?: { write(line: string): void };
};

g.__siloRequest ??= new AsyncLocalStorage<RequestStore>();
const requests = g.__siloRequest;

const options: pino.LoggerOptions = {
  level: processSettings.logLevel(),
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  mixin: () => {
    const r = requests.getStore();
    return r ? { request_id: r.requestId } : {};
  },
};
g.__siloLog ??= g.__siloLogSink ? pino(options, g.__siloLogSink) : pino(options);
export const log: Logger = g.__siloLog;

/** Runs `fn` with `requestId` on every log line it writes. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return requests.run({ requestId, queries: 0 }, fn);
}

/**
 * SILO_COUNT_QUERIES=1 (benchmarks): the database client counts each query against the request
 * that made it, and every request logs its count when it ends. Off by default: no cost, no line.
 */
export const countingQueries = processSettings.countQueries();

export function countQuery(): void {
  const r = requests.getStore();
  if (r) r.queries++;
}

/** Logs the request's query count (bench/small-requests.ts reads it), when counting. */
export function logQueryCount(): void {
  const r = requests.getStore();
  if (countingQueries && r) log.info({ queries: r.queries }, 'database queries');
}

/** The request this code runs for, as an object of its own (the read cache keys by it), if it runs for one. */
export const currentRequest = (): object | undefined => requests.getStore();

/** Keeps `e` as the last event record the request this code runs for appended (lib/events/witness.ts). */
export function noteLastEvent(e: { chain: string; seq: number; hash: string }): void {
  const r = requests.getStore();
  if (r) r.lastEvent = e;
}

/**
 * Runs a transaction so that an event record it appended stops being the request's last when it
 * fails (rolled back: the record never was), even when the request then succeeds (lib/db/client.ts).
 */
export async function forgettingEventsOnFailure<T>(fn: () => Promise<T>): Promise<T> {
  const r = requests.getStore();
  const before = r?.lastEvent;
  try {
    return await fn();
  } catch (err) {
    if (r) r.lastEvent = before;
    throw err;
  }
}

/** The last event record the request this code runs for (or `request`, from currentRequest) appended, if any. */
export const lastEvent = (request: object | undefined = requests.getStore()) => (request as RequestStore | undefined)?.lastEvent;

/** The id of the request this code runs for (its X-Request-Id), if it runs for one. */
export const currentRequestId = (): string | undefined => requests.getStore()?.requestId;
