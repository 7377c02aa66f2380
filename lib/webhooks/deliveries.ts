// An endpoint's deliveries for the API: the newest first with their latest attempts, a retry now,
// and a test message (a `webhook.test` record made for that endpoint alone, not in the event log).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { afterCursor, NEWEST_FIRST, page } from '../db/cursor';
import type { WebhookDelivery } from '../db/generated/client';
import type { Scope } from '../db/scope';
import { ApiError } from '../errors';
import type { EventActor } from '../events/catalogue';
import { eventActorFor } from '../events/catalogue';
import { findWebhook } from './find-webhook';

const ATTEMPTS_SHOWN = 10;

export async function listDeliveries(db: Db, scope: Scope, webhookId: string, q: { limit: number; cursor?: string }) {
  const hook = await findWebhook(db, scope, webhookId);
  const rows = await db.webhookDelivery.findMany({
    where: { webhookId: hook.id, ...afterCursor(q.cursor) },
    orderBy: NEWEST_FIRST,
    take: q.limit + 1,
  });
  const p = page(rows, q.limit, q.cursor);
  return { ...p, list: await presentDeliveries(db, p.list) };
}

async function presentDeliveries(db: Db, rows: WebhookDelivery[]) {
  const ids = rows.map((r) => r.id);
  const [events, attempts] = await Promise.all([
    db.event.findMany({ where: { id: { in: rows.filter((r) => !r.payload).map((r) => r.eventId) } }, select: { id: true, type: true } }),
    db.webhookAttempt.findMany({ where: { deliveryId: { in: ids } }, orderBy: [{ at: 'desc' }] }),
  ]);
  const typeOf = new Map(events.map((e) => [e.id, e.type]));
  return rows.map((r) => ({
    id: r.id,
    event_id: r.eventId,
    type: r.payload ? String((r.payload as { type?: string }).type) : (typeOf.get(r.eventId) ?? 'unknown'),
    seq: r.seq === null ? null : Number(r.seq),
    entry_id: r.entryId,
    state: r.state as 'pending' | 'succeeded' | 'failed',
    attempt_count: r.attempts,
    next_attempt_at: r.state === 'pending' ? r.nextAttemptAt.toISOString() : null,
    created_at: r.createdAt.toISOString(),
    attempts: attempts
      .filter((a) => a.deliveryId === r.id)
      .slice(0, ATTEMPTS_SHOWN)
      .map((a) => ({ at: a.at.toISOString(), status: a.status, duration_ms: a.durationMs, body: a.body, error: a.error })),
  }));
}

/** POST …/deliveries/{id}/retry: due now, with 24 hours of retries again from now. */
export async function retryDelivery(db: Db, scope: Scope, webhookId: string, deliveryId: string, now = new Date()) {
  const hook = await findWebhook(db, scope, webhookId);
  const updated = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, webhookId: hook.id },
    data: { state: 'pending', nextAttemptAt: now, windowStart: now, finishedAt: null },
  });
  if (!updated.count) throw new ApiError('not_found', 'Delivery not found');
  const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
  return (await presentDeliveries(db, [row]))[0];
}

/** POST …/webhooks/{id}/test: a `webhook.test` message for this endpoint, sent like a record; 409 while it is disabled. */
export async function sendTestMessage(db: Db, scope: Scope, webhookId: string, actor: EventActor | null, now = new Date()) {
  const hook = await findWebhook(db, scope, webhookId);
  if (hook.disabled) throw new ApiError('conflict', 'The webhook is disabled: enable it first');
  const id = randomUUID();
  const payload = {
    id,
    type: 'webhook.test',
    at: now.toISOString(),
    sandbox: hook.sandbox,
    actor: { ...eventActorFor(actor) },
    entry_id: null,
    file_id: null,
    version: null,
    data: { webhook_id: hook.id },
  };
  const row = await db.webhookDelivery.create({
    data: { id: randomUUID(), webhookId: hook.id, eventId: id, payload, createdAt: now, windowStart: now, nextAttemptAt: now },
  });
  return (await presentDeliveries(db, [row]))[0];
}
