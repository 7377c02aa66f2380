// Successes recorded together: every attempt that succeeded while the previous statement ran is
// recorded by the next one, as PostgreSQL's group commit does for commits. One statement (no
// transaction held open across round trips) marks each delivery succeeded, keeps its attempt and
// clears its endpoint's failing streak — each only if the lease is still its holder's — and leases
// each entry's next due record, answered claimed (the chain: deliver.ts). Alone, an attempt waits
// for nothing (its statement starts at once); under load a statement records as many as came, so
// the engine's statements stay a few however many attempts are in flight, and the API's own
// statements do not queue behind one per record (measured: at one statement per success, 64
// attempts in flight took the API from 200 to 162–167 new files a second).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { CLAIMED_COLUMNS, CLAIMED_FROM, CLAIMED_RETURNING, type Claimed, type ClaimRow, claimed } from './claimed';
import { LEASE_MS } from './schedule';
import type { SendResult } from './send-webhook';

export interface Success {
  delivery: Claimed;
  /** when the attempt started */
  at: Date;
  result: SendResult;
  /** lease the entry's next record (the chain goes on) */
  chain: boolean;
}

/** Successes one statement records at most. */
export const SUCCESSES_PER_STATEMENT = 200;
/** Statements in flight at once: one records while the next batch gathers. */
const STATEMENTS_AT_ONCE = 1;

interface Waiting extends Success {
  done: (next: Claimed | undefined) => void;
  failed: (err: unknown) => void;
}

export interface SuccessRecorder {
  /** Records a success; answers the entry's next record, leased to this holder, when one is due. */
  record(s: Success): Promise<Claimed | undefined>;
}

export function successRecorder(db: Db, holder: string, now: () => Date, leaseMs = LEASE_MS): SuccessRecorder {
  const waiting: Waiting[] = [];
  let running = 0;
  const flush = () => {
    while (running < STATEMENTS_AT_ONCE && waiting.length) {
      const batch = waiting.splice(0, SUCCESSES_PER_STATEMENT);
      running++;
      recordSuccesses(db, holder, now(), batch, leaseMs)
        .then(
          (next) => {
            for (const w of batch) w.done(next.get(w.delivery.id));
          },
          (err) => {
            for (const w of batch) w.failed(err);
          },
        )
        .finally(() => {
          running--;
          flush();
        });
    }
  };
  return {
    record: (s) =>
      new Promise((done, failed) => {
        waiting.push({ ...s, done, failed });
        flush();
      }),
  };
}

/** Records the successes; the successors leased, by the delivery each follows. */
async function recordSuccesses(db: Db, holder: string, now: Date, batch: Success[], leaseMs: number): Promise<Map<string, Claimed>> {
  // Through Prisma, not prepared (direct-query.ts): a generic plan of this statement made each
  // delivery twice as costly on the embedded database.
  const rows = await db.$queryRaw<(ClaimRow & { after_id: string })[]>(recordSuccessesSql(holder, now, batch, leaseMs));
  return new Map(rows.map((r) => [r.after_id, claimed(r)]));
}

/**
 * The statement (exported for its test). `u`: the deliveries still leased to `holder`, now
 * succeeded; `nx`: for each that goes on, its entry's next pending record. A successor is leased
 * when it is due, free, its endpoint enabled, and nothing before it is pending but the delivery it
 * follows (the statement's snapshot still shows that one pending). Two deliveries of one endpoint
 * and entry are never in flight at once (the claim's rule), so each successor follows one delivery.
 */
export function recordSuccessesSql(holder: string, now: Date, batch: Success[], leaseMs = LEASE_MS) {
  const until = new Date(now.getTime() + leaseMs);
  const ids = batch.map((s) => s.delivery.id);
  const column = <T>(f: (s: Success) => T) => batch.map(f);
  return Prisma.sql`
    WITH s AS (
      SELECT * FROM unnest(${ids}::uuid[], ${column((s) => s.delivery.attempts + 1)}::int[], ${column((s) => s.result.status)}::int[],
                           ${column((s) => s.result.durationMs)}::int[], ${column((s) => s.result.body)}::text[],
                           ${column((s) => s.result.error ?? null)}::text[], ${column((s) => s.at.toISOString())}::timestamptz[],
                           ${column(() => randomUUID())}::uuid[], ${column((s) => s.chain && s.delivery.entryId !== null && s.delivery.seq !== null)}::boolean[])
        AS s(id, attempts, status, duration_ms, body, error, at, attempt_id, chain)),
    u AS (
      UPDATE webhook_deliveries d
         SET state = 'succeeded', attempts = s.attempts, last_status = s.status,
             lease_holder = NULL, lease_until = NULL, finished_at = ${now}
        FROM s
       WHERE d.id = s.id AND d.lease_holder = ${holder}::uuid
      RETURNING d.id, d.webhook_id, d.entry_id, d.seq, s.chain),
    a AS (
      INSERT INTO webhook_attempts (id, delivery_id, at, status, duration_ms, body, error)
      SELECT s.attempt_id, s.id, s.at, s.status, s.duration_ms, s.body, s.error FROM s JOIN u ON u.id = s.id),
    f AS (
      UPDATE webhooks SET failing_since = NULL
       WHERE id IN (SELECT webhook_id FROM u) AND failing_since IS NOT NULL),
    nx AS (
      SELECT u.id AS after_id,
             (SELECT n.id FROM webhook_deliveries n
               WHERE n.webhook_id = u.webhook_id AND n.entry_id = u.entry_id AND n.state = 'pending' AND n.seq > u.seq
               ORDER BY n.seq LIMIT 1) AS next_id
        FROM u WHERE u.chain),
    c AS (
      UPDATE webhook_deliveries x SET lease_holder = ${holder}::uuid, lease_until = ${until}
        FROM nx
       WHERE x.id = nx.next_id
         AND x.next_attempt_at <= ${now} AND (x.lease_until IS NULL OR x.lease_until <= ${now})
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
                          WHERE p.webhook_id = x.webhook_id AND p.entry_id = x.entry_id AND p.state = 'pending'
                            AND p.seq < x.seq AND p.id <> nx.after_id)
         AND NOT EXISTS (SELECT 1 FROM webhooks h WHERE h.id = x.webhook_id AND h.disabled)
      ${CLAIMED_RETURNING}, nx.after_id)
    SELECT ${CLAIMED_COLUMNS}, c.after_id::text ${CLAIMED_FROM}`;
}
