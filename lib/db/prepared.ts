// Named statements on PostgreSQL: the hot statements sent past Prisma (the read cache's question,
// direct-query.ts's) are prepared once per connection and then only bound and run, instead of
// parsed and planned on every request. Planning was a third of their time in the database
// (measured with pg_stat_statements): 0.17 ms of a new file's 0.88 ms, and
// 0.14 ms of the read cache's 0.18 ms question (then asked twice a request, now once).
//
// A name is the hash of the text, so one name is always one text. At most MAX_NAMED texts get a
// name (a statement whose text varied without bound would otherwise prepare without bound on every
// connection); later ones run unnamed. DATABASE_PREPARED_STATEMENTS=false sends every statement
// unnamed: for a transaction-pooling PgBouncer before 1.21 (or with max_prepared_statements = 0),
// which may run a statement on another server connection than the one it was prepared on. The
// embedded database names them too: its connections share PGlite's one session, so its thread
// (pglite-worker.mjs) makes each connection's names its own and deallocates them when the
// connection is gone. There, unprepared, parsing and planning a new file's statement was about a
// third of what the database's thread spent on the file (measured: 3.0–3.9 against 2.1–2.6 ms of CPU).
//
// Only statements whose best plan does not depend on their values are prepared: lookups by key.
// After five runs PostgreSQL may keep one generic plan for a named statement, made for no values in
// particular with the statistics of that moment, for the connection's life. A statement over a
// range that grows (the webhook engine's claim: the deliveries due by now) is sent unnamed instead
// (queryDirect's `prepare: false`, or through Prisma), planned for its values every time: the
// claim's generic plan, made while the queue was empty, walked every due delivery once tens of
// thousands waited, tens of seconds a claim (lib/webhooks/deliver.ts).
import { createHash } from 'node:crypto';

export const MAX_NAMED = 64;

const names = new Map<string, string>();

/** The name `text` is prepared under, or none (past MAX_NAMED texts). */
export function statementName(text: string): string | undefined {
  const known = names.get(text);
  if (known || names.size >= MAX_NAMED) return known;
  const name = `silo_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  names.set(text, name);
  return name;
}

/** Whether `text` was given a name (the tests of statements that must be planned on every run). */
export const isPrepared = (text: string) => names.has(text);

/**
 * PostgreSQL refuses to run a prepared statement whose result's shape a schema change altered
 * (0A000 "cached plan must not change result type": another instance migrated meanwhile); the
 * statement is then sent again unnamed. The pool ends a connection whose statement failed
 * (pg-pool's query releases it with the error), so the stale plan goes with it: the next call
 * prepares the text afresh on a new connection (prepared.test.ts).
 */
export const isStalePlan = (err: unknown) =>
  (err as { code?: string }).code === '0A000' && /cached plan must not change result type/.test(String((err as Error).message));
