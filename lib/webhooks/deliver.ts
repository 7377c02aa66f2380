// The attempts: claim due deliveries under a lease (one instance sends each attempt), send each,
// and record the outcome only while still holding the lease (a success together with the others of
// the moment: record-successes.ts). A later record of an entry is not due while an earlier one of
// the same endpoint is pending; records of other entries never wait.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { queryDirect } from '../db/direct-query';
import { Prisma } from '../db/generated/client';
import { log } from '../log';
import type { Resolver } from './address-rules';
import { CLAIMED_RETURNING, CLAIMED_ROWS, type Claimed, type ClaimRow, claimed } from './claimed';
import type { WebhookSettings } from './create-webhook';
import { type SuccessRecorder, successRecorder } from './record-successes';
import { DISABLE_AFTER_FAILING_MS, LEASE_MS, nextAttemptAt, retryAfterMs } from './schedule';
import { type SendResult, sendWebhook } from './send-webhook';
import { disableWebhook } from './update-webhook';

export { type Claimed, LEASE_MS };

/**
 * A workspace's share of an instance's attempts in flight: half of them (32 of CONCURRENCY's 64).
 * Its endpoints that never answer hold their slots for 15 s each; the other half stays for the
 * other workspaces, whose records then go out in the next round (docs/api.md, Webhooks).
 */
export const WORKSPACE_SHARE = 0.5;

/** The attempts a workspace may have in flight on an instance of `concurrency` attempts. */
export function workspaceCap(concurrency: number): number {
  return Math.max(1, Math.floor(concurrency * WORKSPACE_SHARE));
}

/** What the instance has in flight, by workspace (owner id), and how many a workspace may have. */
export interface Fairness {
  inFlight: ReadonlyMap<string, number>;
  cap: number;
}

/**
 * Leases up to `max` due deliveries to `holder` and returns each with everything its attempt
 * needs (the endpoint, and the record it sends), in one statement: an attempt reads nothing more.
 * Workspaces take turns (claimSql); none goes past `fair.cap` attempts in flight.
 */
export async function claimDeliveries(
  db: Db,
  holder: string,
  now: Date,
  max: number,
  leaseMs = LEASE_MS,
  fair: Fairness = { inFlight: new Map(), cap: workspaceCap(max) },
): Promise<Claimed[]> {
  // Planned for its values on every run, never prepared (prepared.ts): a generic plan made while the
  // queue was empty walked every due delivery once it was not (tens of seconds a claim with tens of thousands
  // waiting, on a core the requests needed; 118 ms against 3 ms when reproduced with 29,000 due).
  const rows = await queryDirect<ClaimRow>(db, claimSql(holder, now, max, leaseMs, fair), { prepare: false });
  return rows.map(claimed);
}

/**
 * The claim's statement (exported for the plan test). A delivery of an entry is due only at the
 * head of its queue (its endpoint's and entry's lowest-seq pending delivery): a later record waits
 * while an earlier one is pending. The heads are found by a skip scan over the pending rows of
 * index (state, webhook_id, entry_id, seq): one index probe per queue, so a claim reads neither the
 * finished deliveries (thousands for an entry replaced all day) nor the records queued behind a head
 * (tens of thousands when one entry's writes outrun the receiver). Deliveries without an entry (and
 * test messages) wait for nothing.
 *
 * Workspaces take turns: a due delivery's turn is its workspace's attempts already in flight here
 * plus its rank among the workspace's due ones (whose endpoints take turns too); the lowest turns go
 * first and none past `fair.cap`. So a workspace with hundreds of deliveries due to endpoints that
 * never answer takes its share, and another's one delivery comes before the rest of them.
 */
export function claimSql(holder: string, now: Date, max: number, leaseMs = LEASE_MS, fair?: Fairness) {
  const until = new Date(now.getTime() + leaseMs);
  const cap = fair?.cap ?? workspaceCap(max);
  const busy = [...(fair?.inFlight ?? new Map<string, number>())].filter(([, n]) => n > 0);
  const owners = busy.map(([owner]) => owner);
  const counts = busy.map(([, n]) => n);
  const full = busy.filter(([, n]) => n >= cap).map(([owner]) => owner);
  return Prisma.sql`
    WITH RECURSIVE heads AS (
      (SELECT d.id, d.webhook_id, d.entry_id, d.seq, d.next_attempt_at, d.lease_until FROM webhook_deliveries d
        WHERE d.state = 'pending' AND d.entry_id IS NOT NULL
        ORDER BY d.state, d.webhook_id, d.entry_id, d.seq LIMIT 1)
      UNION ALL
      SELECT n.* FROM heads h CROSS JOIN LATERAL (
        SELECT d.id, d.webhook_id, d.entry_id, d.seq, d.next_attempt_at, d.lease_until FROM webhook_deliveries d
         WHERE d.state = 'pending' AND d.entry_id IS NOT NULL AND (d.webhook_id, d.entry_id) > (h.webhook_id, h.entry_id)
         ORDER BY d.state, d.webhook_id, d.entry_id, d.seq LIMIT 1) n
    ), due AS (
      SELECT h.id, h.webhook_id, h.seq, h.next_attempt_at FROM heads h
       WHERE h.next_attempt_at <= ${now} AND (h.lease_until IS NULL OR h.lease_until <= ${now})
      UNION ALL
      -- a workspace with its share in flight has none of these taken: they leave room for the others'
      (SELECT d.id, d.webhook_id, d.seq, d.next_attempt_at FROM webhook_deliveries d
        WHERE d.state = 'pending' AND d.entry_id IS NULL AND d.next_attempt_at <= ${now}
          AND (d.lease_until IS NULL OR d.lease_until <= ${now})
          AND NOT EXISTS (SELECT 1 FROM webhooks o WHERE o.id = d.webhook_id AND o.owner_id = ANY (${full}::uuid[]))
        ORDER BY d.next_attempt_at LIMIT ${max}::int)
    ), ranked AS (
      SELECT x.id, x.seq, x.next_attempt_at, w.owner_id,
             row_number() OVER (PARTITION BY x.webhook_id ORDER BY x.next_attempt_at, x.seq) AS hook_turn
        FROM due x JOIN webhooks w ON w.id = x.webhook_id WHERE NOT w.disabled
    ), turns AS (
      SELECT r.id, r.seq, r.next_attempt_at,
             COALESCE(f.n, 0) + row_number() OVER (PARTITION BY r.owner_id ORDER BY r.hook_turn, r.next_attempt_at, r.seq) AS turn
        FROM ranked r LEFT JOIN unnest(${owners}::uuid[], ${counts}::int[]) AS f(owner_id, n) ON f.owner_id = r.owner_id
    ), c AS (
      UPDATE webhook_deliveries SET lease_holder = ${holder}::uuid, lease_until = ${until}
       WHERE id IN (
         SELECT d.id FROM webhook_deliveries d
          WHERE d.id = ANY (ARRAY(SELECT t.id FROM turns t WHERE t.turn <= ${cap}::int
                                   ORDER BY t.turn, t.next_attempt_at, t.seq LIMIT ${max}::int))
            FOR UPDATE SKIP LOCKED)
         -- checked again on the row as locked (another instance may have claimed or finished it)
         AND state = 'pending' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now})
      ${CLAIMED_RETURNING})
    ${CLAIMED_ROWS}`;
}

export interface AttemptOptions {
  db: Db;
  settings: WebhookSettings;
  holder: string;
  now: () => Date;
  resolve?: Resolver;
  timeoutMs?: number;
  /** a successor's lease (LEASE_MS) */
  leaseMs?: number;
  /** records successes together (record-successes.ts): the engine's one; else one for this attempt */
  successes?: SuccessRecorder;
  /** whether a success still leases and sends its entry's next record (not while the instance is busy: pace.ts) */
  chaining?: () => boolean;
  /** told of each attempt made (the engine counts them) */
  onAttempt?: () => void;
}

/** An entry's records sent one after another by one attempt at most (then a round gives others their turn). */
export const CHAIN_MAX = 50;

/**
 * One attempt of a claimed delivery, recorded if the lease is still ours. After a success the
 * entry's next record, leased in the very statement that records the success (with the others that
 * succeeded meanwhile: record-successes.ts), is sent at once
 * (up to CHAIN_MAX): an entry's records follow one another at the receiver's pace, not a round's.
 * Answers the first attempt's result.
 */
export async function attemptDelivery(options: AttemptOptions, first: Claimed): Promise<SendResult | undefined> {
  const o = { ...options, successes: options.successes ?? successRecorder(options.db, options.holder, options.now, options.leaseMs) };
  let d: Claimed | undefined = first;
  let firstResult: SendResult | undefined;
  for (let n = 1; d; n++) {
    const chain = n < CHAIN_MAX && (o.chaining?.() ?? true);
    const { result, next }: { result?: SendResult; next?: Claimed } = await attemptOne(o, d, chain);
    firstResult ??= result;
    d = next;
  }
  return firstResult;
}

async function attemptOne(
  o: AttemptOptions & { successes: SuccessRecorder },
  d: Claimed,
  chain: boolean,
): Promise<{ result?: SendResult; next?: Claimed }> {
  const { hook, body } = d;
  if (!body) return {};
  o.onAttempt?.();
  const at = o.now();
  const secrets = [o.settings.box.open(hook.secret)];
  if (hook.previousSecret && hook.previousSecretUntil && hook.previousSecretUntil > at)
    secrets.push(o.settings.box.open(hook.previousSecret));
  const result = await sendWebhook({
    url: hook.url,
    id: d.eventId,
    body,
    secrets,
    at,
    rules: o.settings.rules,
    resolve: o.resolve ?? o.settings.resolve,
    timeoutMs: o.timeoutMs,
  });
  if (result.status !== null && result.status >= 200 && result.status < 300)
    return { result, next: await o.successes.record({ delivery: d, at, result, chain }) };
  await recordFailure(o, d, at, result);
  return { result };
}

async function recordFailure(o: AttemptOptions, d: Claimed, at: Date, r: SendResult) {
  const now = o.now();
  const failed = d.attempts + 1;
  const gone = r.status === 410;
  const next = gone ? undefined : nextAttemptAt(failed, now, d.windowStart, retryAfterMs(r.retryAfter, now));
  const state = next ? 'pending' : 'failed';
  const disable = await o.db.$transaction(async (tx) => {
    const updated = await tx.webhookDelivery.updateMany({
      where: { id: d.id, leaseHolder: o.holder },
      data: {
        state,
        attempts: failed,
        lastStatus: r.status,
        leaseHolder: null,
        leaseUntil: null,
        ...(next ? { nextAttemptAt: next } : { finishedAt: now }),
      },
    });
    // Another instance took the lease (this one stalled past it): its attempt is the one recorded.
    if (!updated.count) return undefined;
    await tx.webhookAttempt.create({
      data: { id: randomUUID(), deliveryId: d.id, at, status: r.status, durationMs: r.durationMs, body: r.body, error: r.error },
    });
    await tx.webhook.updateMany({ where: { id: d.webhookId, failingSince: null }, data: { failingSince: at } });
    if (gone) return 'gone' as const;
    const hook = await tx.webhook.findUnique({ where: { id: d.webhookId }, select: { failingSince: true } });
    return hook?.failingSince && now.getTime() - hook.failingSince.getTime() >= DISABLE_AFTER_FAILING_MS ? ('failing' as const) : undefined;
  });
  if (disable && (await disableWebhook(o.db, d.webhookId, disable)))
    log.warn(
      { webhook_id: d.webhookId, reason: disable },
      `webhook disabled: ${disable === 'gone' ? 'the endpoint answered 410' : 'failing for 5 days'}`,
    );
}
