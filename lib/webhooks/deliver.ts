// The attempts: claim due deliveries under a lease (one instance sends each attempt), send each,
// and record the outcome only while still holding the lease. A later record of an entry is not
// due while an earlier one of the same endpoint is pending; records of other entries never wait.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
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
  attempts: number;
  windowStart: Date;
  /** a test message's body; null for a record, read from the event log */
  payload: unknown;
}

export async function claimDeliveries(db: Db, holder: string, now: Date, max: number, leaseMs = LEASE_MS): Promise<Claimed[]> {
  const until = new Date(now.getTime() + leaseMs);
  const rows = await db.$queryRaw<
    { id: string; webhook_id: string; event_id: string; attempts: number; window_start: Date; payload: unknown }[]
  >`
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
    RETURNING id::text, webhook_id::text, event_id::text, attempts, window_start, payload`;
  return rows.map((r) => ({
    id: r.id,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    attempts: r.attempts,
    windowStart: r.window_start,
    payload: r.payload,
  }));
}

/** The bytes a delivery sends: the record as GET /silo/v1/events shows it, or a test message. */
async function deliveryBody(db: Db, d: Claimed): Promise<string | undefined> {
  if (d.payload) return JSON.stringify(d.payload);
  const event = await db.event.findUnique({ where: { id: d.eventId } });
  return event ? JSON.stringify(presentEvent(event)) : undefined;
}

export interface AttemptOptions {
  db: Db;
  settings: WebhookSettings;
  holder: string;
  now: () => Date;
  resolve?: Resolver;
  timeoutMs?: number;
}

/** One attempt of a claimed delivery, recorded if the lease is still ours. */
export async function attemptDelivery(o: AttemptOptions, d: Claimed): Promise<SendResult | undefined> {
  const hook = await o.db.webhook.findUnique({ where: { id: d.webhookId } });
  const body = hook && (await deliveryBody(o.db, d));
  if (!hook || !body) return undefined;
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
  await recordAttempt(o, d, at, result);
  return result;
}

async function recordAttempt(o: AttemptOptions, d: Claimed, at: Date, r: SendResult) {
  const now = o.now();
  const ok = r.status !== null && r.status >= 200 && r.status < 300;
  const failed = d.attempts + 1;
  const gone = r.status === 410;
  const next = ok || gone ? undefined : nextAttemptAt(failed, now, d.windowStart, retryAfterMs(r.retryAfter, now));
  const state = ok ? 'succeeded' : next ? 'pending' : 'failed';
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
    if (ok) {
      await tx.webhook.updateMany({ where: { id: d.webhookId, failingSince: { not: null } }, data: { failingSince: null } });
      return undefined;
    }
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
