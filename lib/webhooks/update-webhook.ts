// PATCH and DELETE /silo/v1/webhooks/{id}, and Silo's own disabling of an endpoint (gone, failing):
// each change with its webhook.* record in its transaction. Enabling moves the cursor to the
// chain's head: records made while it was disabled are not sent.
import type { Db, Tx } from '../db/client';
import type { Webhook } from '../db/generated/client';
import { isRecordGone } from '../db/db-errors';
import type { Scope } from '../db/scope';
import { appendEvent } from '../events/append-event';
import { changesOf } from '../events/changes';
import { type EventActor, eventActorFor, systemActor } from '../events/catalogue';
import type { WebhookUpdate } from '../schemas/webhooks';
import { assertWebhookUrl, type WebhookSettings } from './create-webhook';
import { findWebhook, presentWebhook, webhookNotFound } from './find-webhook';
import { recordedUrl } from './recorded-url';

export interface UpdateWebhookOptions {
  db: Db;
  scope: Scope;
  id: string;
  patch: WebhookUpdate;
  actor: EventActor | null;
  settings: WebhookSettings;
}

const EDITABLE = ['url', 'types', 'description', 'disabled', 'disabledReason'] as const;

export async function updateWebhook({ db, scope, id, patch, actor, settings }: UpdateWebhookOptions) {
  if (patch.url !== undefined) await assertWebhookUrl(patch.url, settings);
  const hook = await findWebhook(db, scope, id);
  try {
    const row = await db.$transaction(async (tx) => {
      const before = await lockWebhook(tx, hook.id);
      const data: Partial<Webhook> = {
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.types !== undefined ? { types: patch.types } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
      };
      if (patch.disabled === true && !before.disabled) Object.assign(data, { disabled: true, disabledReason: 'manual' });
      if (patch.disabled === false && before.disabled) Object.assign(data, { disabled: false, disabledReason: null, failingSince: null });
      const changes = changesOf(before, { ...before, ...data }, EDITABLE);
      if (!changes) return before;
      const seq = await appendEvent(tx, {
        type: 'webhook.updated',
        ownerId: before.ownerId,
        sandbox: before.sandbox,
        actor: eventActorFor(actor),
        data: { webhook_id: before.id, ...renamed(changes) },
      });
      // enabled again: it resumes after this record; those made while it was disabled are not sent
      if (patch.disabled === false && before.disabled) data.scannedSeq = BigInt(seq);
      return tx.webhook.update({ where: { id: before.id }, data });
    });
    return presentWebhook(row);
  } catch (err) {
    if (isRecordGone(err)) throw webhookNotFound();
    throw err;
  }
}

/** disabledReason → disabled_reason in a record's before/after; a URL as the log keeps it (recorded-url.ts). */
function renamed(changes: { before: Record<string, unknown>; after: Record<string, unknown> }) {
  const fix = (o: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(o).map(([k, v]) => [k === 'disabledReason' ? 'disabled_reason' : k, k === 'url' ? recordedUrl(String(v)) : v]),
    );
  return { before: fix(changes.before), after: fix(changes.after) };
}

async function lockWebhook(tx: Tx, id: string): Promise<Webhook> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM webhooks WHERE id = ${id}::uuid FOR UPDATE`;
  if (!locked.length) throw webhookNotFound();
  const row = await tx.webhook.findUnique({ where: { id } });
  if (!row) throw webhookNotFound();
  return row;
}

export async function deleteWebhook({ db, scope, id, actor }: { db: Db; scope: Scope; id: string; actor: EventActor | null }) {
  const hook = await findWebhook(db, scope, id);
  await db.$transaction(async (tx) => {
    const before = await lockWebhook(tx, hook.id);
    await tx.webhook.delete({ where: { id: before.id } });
    await appendEvent(tx, {
      type: 'webhook.deleted',
      ownerId: before.ownerId,
      sandbox: before.sandbox,
      actor: eventActorFor(actor),
      data: { webhook_id: before.id, url: recordedUrl(before.url) },
    });
  });
}

/**
 * Silo turns an endpoint off: it answered 410 (`gone`) or has failed for 5 days (`failing`). Once:
 * an endpoint disabled meanwhile is left as it is.
 */
export async function disableWebhook(db: Db, id: string, reason: 'gone' | 'failing'): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM webhooks WHERE id = ${id}::uuid AND NOT disabled FOR UPDATE`;
    if (!locked.length) return false;
    const row = await tx.webhook.update({ where: { id }, data: { disabled: true, disabledReason: reason } });
    await appendEvent(tx, {
      type: 'webhook.updated',
      ownerId: row.ownerId,
      sandbox: row.sandbox,
      actor: systemActor('webhooks'),
      data: { webhook_id: id, before: { disabled: false, disabled_reason: null }, after: { disabled: true, disabled_reason: reason } },
    });
    return true;
  });
}
