// POST /silo/v1/webhooks: a new endpoint of a workspace's environment, its secret shown once. Its
// cursor starts at its own webhook.created record: it gets every record after it.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import type { Target } from '../db/scope';
import { ApiError } from '../errors';
import { appendEvent } from '../events/append-event';
import { type EventActor, eventActorFor } from '../events/catalogue';
import type { WebhookInput } from '../schemas/webhooks';
import { type Resolver, urlProblem, type WebhookRules } from './address-rules';
import { presentWebhook } from './find-webhook';
import { newWebhookSecret, type SecretBox } from './secret-box';

export interface WebhookSettings {
  rules: WebhookRules;
  box: SecretBox;
  /** DNS for the URL check (tests answer for names of their own) */
  resolve?: Resolver;
}

export async function assertWebhookUrl(url: string, s: WebhookSettings) {
  const problem = await urlProblem(url, s.rules, s.resolve);
  if (problem) throw new ApiError('validation', `url ${problem}`, { fields: { url: problem } });
}

export interface CreateWebhookOptions {
  db: Db;
  target: Target;
  input: WebhookInput;
  actor: EventActor | null;
  settings: WebhookSettings;
}

export async function createWebhook({ db, target, input, actor, settings }: CreateWebhookOptions) {
  await assertWebhookUrl(input.url, settings);
  const secret = newWebhookSecret();
  const id = randomUUID();
  const row = await db.$transaction(async (tx) => {
    const seq = await appendEvent(tx, {
      type: 'webhook.created',
      ...target,
      actor: eventActorFor(actor),
      data: { webhook_id: id, url: input.url, types: input.types, description: input.description },
    });
    return tx.webhook.create({
      data: {
        id,
        ownerId: target.ownerId,
        sandbox: target.sandbox,
        url: input.url,
        types: input.types,
        description: input.description,
        secret: settings.box.seal(secret),
        scannedSeq: BigInt(seq),
      },
    });
  });
  return { ...presentWebhook(row), secret };
}
