// The one place a transaction PostgreSQL or PGlite aborted for a deadlock (40P01) or a
// serialization failure (40001) runs again: the database rolled it back whole, so running it again
// keeps its effects exactly once. Every database write goes through it: a Prisma transaction and
// a statement sent past Prisma (client.ts wraps both). The lock order of the writes (lock-slot.ts,
// append-event.ts) leaves few deadlocks; this is the seatbelt for the rest.
import { forgettingEventsOnFailure, log } from '../log';
import type { PrismaClient } from './generated/client';
import type { SqlRunner } from './migrate';
import { retryableState } from './db-errors';

export interface RetryOptions {
  /** runs in all, the first included */
  attempts?: number;
  /** the first retry's mean wait, doubled for each after it, ±50 % */
  baseMs?: number;
  /** what is retried, for the log */
  what?: string;
}

/** Runs in all: a deadlock of two requests is broken by the first retry; four more ride out a burst. */
export const RETRY_ATTEMPTS = 5;
const BASE_MS = 5;

/**
 * Runs `run`, and again (up to `attempts` runs in all, after a jittered backoff) while it fails
 * with 40P01 or 40001; any other error, or the last attempt's, is thrown as it is. `run` must be
 * the whole transaction (or one autocommit statement): never a statement inside one, which the
 * abort leaves unusable.
 */
export async function retryingConflicts<T>(run: () => Promise<T>, o: RetryOptions = {}): Promise<T> {
  const attempts = o.attempts ?? RETRY_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      const state = retryableState(err);
      if (!state || attempt >= attempts) throw err;
      const wait = jittered((o.baseMs ?? BASE_MS) * 2 ** (attempt - 1));
      log.warn({ sqlstate: state, attempt, attempts, wait_ms: wait, what: o.what ?? 'transaction' }, 'database conflict: retrying');
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** `ms` ±50 %: two transactions that deadlocked do not meet again at the same instant. */
const jittered = (ms: number) => Math.round(ms * (0.5 + Math.random()));

/**
 * Every interactive transaction of `prisma` runs again when the database aborted it for a deadlock
 * or a serialization failure (retry.ts): the one seam every write in a transaction passes. A batch
 * (an array of queries) runs once: its queries cannot be sent twice. An attempt that fails leaves
 * no event record named in the answer's Silo-Event (lib/events/witness.ts): it was rolled back.
 */
export function retryTransactions(prisma: PrismaClient): void {
  const begin = prisma.$transaction.bind(prisma) as (...args: unknown[]) => Promise<unknown>;
  const attempt = (...args: unknown[]) => forgettingEventsOnFailure(() => begin(...args));
  const retrying = (...args: unknown[]) => (typeof args[0] === 'function' ? retryingConflicts(() => attempt(...args)) : attempt(...args));
  Object.defineProperty(prisma, '$transaction', { value: retrying, configurable: true, writable: true });
}

/** A statement sent past Prisma outside a transaction (direct-query.ts) is its own transaction: run again as one. */
export const retryingRunner = (sql: SqlRunner): SqlRunner => ({
  exec: (text) => retryingConflicts(() => sql.exec(text), { what: 'statement' }),
  query: (text, params, o) => retryingConflicts(() => sql.query(text, params, o), { what: 'statement' }),
});
