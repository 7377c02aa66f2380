// The attempts: claim due deliveries under a lease (one instance sends each attempt), send each,
// and record the outcome only while still holding the lease. A later record of an entry is not
// due while an earlier one of the same endpoint is pending; records of other entries never wait.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { presentEvent } from '../events/record';
import { log } from '../log';
import type { Resolver } from './address-rules';
import type { WebhookSettings } from './create-webhook';
import { DISABLE_AFTER_FAILING_MS, nextAttemptAt, retryAfterMs } from './schedule';
import { type SendResult, sendWebhook } from './send-webhook';
import { disableWebhook } from './update-webhook';

/** Longer than an attempt's 15 s: a lease lapses only when its holder died or stalled. */
export const LEASE_MS = 30_000;

export interface Claimed {
  id: string;
  webhookId: string;
  eventId: string;
  /** the record's seq and entry (null for a test message): its successor is the entry's next */
  seq: bigint | null;
  entryId: string | null;
  attempts: number;
  windowStart: Date;
  /** the endpoint as the claim read it: where to send, and the secrets (sealed) to sign with */
  hook: { url: string; secret: string; previousSecret: string | null; previousSecretUntil: Date | null };
  /** the bytes to send: the record as GET /silo/v1/events shows it, or a test message; none if the record is gone */
  body: string | undefined;
}

interface ClaimRow {
  id: string;
  webhook_id: string;
  event_id: string;
  d_seq: bigint | null;
  d_entry_id: string | null;
  attempts: number;
  window_start: Date;
  payload: unknown;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  // the record's columns (null for a test message)
  e_id: string | null;
  owner_id: string;
  sandbox: boolean;
  seq: bigint;
  at: Date;
  type: string;
  actor: unknown;
  entry_id: string | null;
  file_id: string | null;
  version: number | null;
  data: unknown;
  request_id: string | null;
  prev_hash: string;
  hash: string;
}

/**
 * Leases up to `max` due deliveries to `holder` and returns each with everything its attempt
 * needs (the endpoint, and the record it sends), in one statement: an attempt reads nothing more.
 */
export async function claimDeliveries(db: Db, holder: string, now: Date, max: number, leaseMs = LEASE_MS): Promise<Claimed[]> {
  const rows = await db.$queryRaw<ClaimRow[]>(claimSql(holder, now, max, leaseMs));
  return rows.map(claimed);
}

function claimed(r: ClaimRow): Claimed {
  return {
    id: r.id,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    seq: r.d_seq,
    entryId: r.d_entry_id,
    attempts: r.attempts,
    windowStart: r.window_start,
    hook: { url: r.url, secret: r.secret, previousSecret: r.previous_secret, previousSecretUntil: r.previous_secret_until },
    body: deliveryBody(r),
  };
}

/**
 * The claim's statement (exported for the plan test): a candidate is due when no earlier record of
 * its endpoint and entry is pending; the plan reads pending deliveries only, so an entry's
 * finished ones (thousands, for a file replaced all day) are never read again.
 */
export function claimSql(holder: string, now: Date, max: number, leaseMs = LEASE_MS) {
  const until = new Date(now.getTime() + leaseMs);
  return Prisma.sql`
    WITH c AS (
      UPDATE webhook_deliveries SET lease_holder = ${holder}::uuid, lease_until = ${until}
       WHERE id IN (
         SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
          WHERE d.state = 'pending' AND d.next_attempt_at <= ${now} AND (d.lease_until IS NULL OR d.lease_until <= ${now})
            AND NOT w.disabled
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
                             WHERE p.webhook_id = d.webhook_id AND p.entry_id = d.entry_id AND p.state = 'pending' AND p.seq < d.seq)
          ORDER BY d.next_attempt_at, d.seq LIMIT ${max}::int
            FOR UPDATE OF d SKIP LOCKED)
         AND (lease_until IS NULL OR lease_until <= ${now})
      ${CLAIMED_RETURNING})
    ${CLAIMED_ROWS}`;
}

/** What a claiming UPDATE returns (as `c`), and the rows made of it: each with its endpoint and record. */
const CLAIMED_RETURNING = Prisma.sql`RETURNING id, webhook_id, event_id, attempts, window_start, payload, seq, entry_id`;
const CLAIMED_ROWS = Prisma.sql`
    SELECT c.id::text, c.webhook_id::text, c.event_id::text, c.seq AS d_seq, c.entry_id::text AS d_entry_id,
           c.attempts, c.window_start, c.payload,
           w.url, w.secret, w.previous_secret, w.previous_secret_until,
           e.id::text AS e_id, e.owner_id::text, e.sandbox, e.seq, e.at, e.type, e.actor, e.entry_id::text,
           e.file_id::text, e.version, e.data, e.request_id, e.prev_hash, e.hash
      FROM c JOIN webhooks w ON w.id = c.webhook_id
      LEFT JOIN events e ON c.payload IS NULL AND e.id = c.event_id`;

/** The bytes a delivery sends: the record as GET /silo/v1/events shows it, or a test message. */
function deliveryBody(r: ClaimRow): string | undefined {
  if (r.payload) return JSON.stringify(r.payload);
  if (r.e_id === null) return undefined;
  return JSON.stringify(
    presentEvent({
      id: r.e_id,
      ownerId: r.owner_id,
      sandbox: r.sandbox,
      seq: r.seq,
      at: r.at,
      type: r.type,
      actor: r.actor as Prisma.JsonValue,
      entryId: r.entry_id,
      fileId: r.file_id,
      version: r.version,
      data: r.data as Prisma.JsonValue,
      requestId: r.request_id,
      prevHash: r.prev_hash,
      hash: r.hash,
    }),
  );
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
}

/** An entry's records sent one after another by one attempt at most (then a round gives others their turn). */
export const CHAIN_MAX = 50;

/**
 * One attempt of a claimed delivery, recorded if the lease is still ours. After a success the
 * entry's next record, leased in the very statement that records the success, is sent at once
 * (up to CHAIN_MAX): an entry's records follow one another at the receiver's pace, not a round's.
 * Answers the first attempt's result.
 */
export async function attemptDelivery(o: AttemptOptions, first: Claimed): Promise<SendResult | undefined> {
  let d: Claimed | undefined = first;
  let firstResult: SendResult | undefined;
  for (let n = 1; d; n++) {
    const { result, next }: { result?: SendResult; next?: Claimed } = await attemptOne(o, d, n < CHAIN_MAX);
    firstResult ??= result;
    d = next;
  }
  return firstResult;
}

async function attemptOne(o: AttemptOptions, d: Claimed, chain: boolean): Promise<{ result?: SendResult; next?: Claimed }> {
  const { hook, body } = d;
  if (!body) return {};
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
    return { result, next: await recordSuccess(o, d, at, result, chain) };
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

/**
 * The common outcome in one statement (no transaction held open across round trips): the
 * delivery succeeded, its attempt is kept, its endpoint is no longer failing — each only if the
 * lease is still ours (`u` is empty otherwise, and so is everything that reads it). With `chain`,
 * the same statement leases the entry's next pending record when it is due and nothing before it
 * is pending (the statement's snapshot still shows this delivery pending: it is left out), and
 * answers it claimed.
 */
async function recordSuccess(o: AttemptOptions, d: Claimed, at: Date, r: SendResult, chain: boolean): Promise<Claimed | undefined> {
  const now = o.now();
  const until = new Date(now.getTime() + (o.leaseMs ?? LEASE_MS));
  const successor = chain && d.entryId !== null && d.seq !== null;
  const rows = await o.db.$queryRaw<ClaimRow[]>`
    WITH u AS (
      UPDATE webhook_deliveries
         SET state = 'succeeded', attempts = ${d.attempts + 1}::int, last_status = ${r.status}::int,
             lease_holder = NULL, lease_until = NULL, finished_at = ${now}
       WHERE id = ${d.id}::uuid AND lease_holder = ${o.holder}::uuid
      RETURNING id),
    a AS (
      INSERT INTO webhook_attempts (id, delivery_id, at, status, duration_ms, body, error)
      SELECT ${randomUUID()}::uuid, u.id, ${at}, ${r.status}::int, ${r.durationMs}::int, ${r.body}, ${r.error ?? null} FROM u),
    f AS (
      UPDATE webhooks SET failing_since = NULL
       WHERE id = ${d.webhookId}::uuid AND failing_since IS NOT NULL AND EXISTS (SELECT 1 FROM u)),
    c AS (
      UPDATE webhook_deliveries x SET lease_holder = ${o.holder}::uuid, lease_until = ${until}
       WHERE ${successor}::boolean
         AND x.id = (SELECT n.id FROM webhook_deliveries n
                      WHERE n.webhook_id = ${d.webhookId}::uuid AND n.entry_id = ${d.entryId}::uuid
                        AND n.state = 'pending' AND n.seq > ${d.seq ?? 0n}
                      ORDER BY n.seq LIMIT 1)
         AND EXISTS (SELECT 1 FROM u)
         AND x.next_attempt_at <= ${now} AND (x.lease_until IS NULL OR x.lease_until <= ${now})
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
                          WHERE p.webhook_id = x.webhook_id AND p.entry_id = x.entry_id AND p.state = 'pending'
                            AND p.seq < x.seq AND p.id <> ${d.id}::uuid)
         AND NOT EXISTS (SELECT 1 FROM webhooks h WHERE h.id = x.webhook_id AND h.disabled)
      ${CLAIMED_RETURNING})
    ${CLAIMED_ROWS}`;
  return rows.length ? claimed(rows[0]) : undefined;
}
