// POST /silo/v1/webhooks/{id}/rotate-secret: a new secret, shown once; the previous one signs too
// for 24 hours (webhook-signature carries both), so a receiver switches without missing a message.
import type { Db } from '../db/client';
import type { Scope } from '../db/scope';
import { appendEvent } from '../events/append-event';
import { type EventActor, eventActorFor } from '../events/catalogue';
import type { WebhookSettings } from './create-webhook';
import { findWebhook, presentWebhook, webhookNotFound } from './find-webhook';
import { newWebhookSecret } from './secret-box';

export const PREVIOUS_SECRET_MS = 24 * 3600 * 1000;

export interface RotateWebhookSecretOptions {
  db: Db;
  scope: Scope;
  id: string;
  actor: EventActor | null;
  settings: WebhookSettings;
  now?: Date;
}

export async function rotateWebhookSecret({ db, scope, id, actor, settings, now = new Date() }: RotateWebhookSecretOptions) {
  const hook = await findWebhook(db, scope, id);
  const secret = newWebhookSecret();
  const until = new Date(now.getTime() + PREVIOUS_SECRET_MS);
  const row = await db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ secret: string }[]>`SELECT secret FROM webhooks WHERE id = ${hook.id}::uuid FOR UPDATE`;
    if (!locked.length) throw webhookNotFound();
    await appendEvent(tx, {
      type: 'webhook.secret_rotated',
      ownerId: hook.ownerId,
      sandbox: hook.sandbox,
      actor: eventActorFor(actor),
      data: { webhook_id: hook.id, previous_until: until.toISOString() },
    });
    return tx.webhook.update({
      where: { id: hook.id },
      data: { secret: settings.box.seal(secret), previousSecret: locked[0].secret, previousSecretUntil: until },
    });
  });
  return { ...presentWebhook(row), secret };
}
