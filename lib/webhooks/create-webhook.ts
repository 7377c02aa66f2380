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
import { recordedUrl } from './recorded-url';
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

/**
 * Endpoints a workspace environment may have (docs/api.md, Webhooks): each is sent every record it
 * asks for, so a workspace with hundreds would take the delivery engine for itself; a 21st is 409.
 */
export const WEBHOOKS_PER_ENVIRONMENT = 20;

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
      data: { webhook_id: id, url: recordedUrl(input.url), types: input.types, description: input.description },
    });
    // Counted under the chain's head, which the append locked: two creations cannot both pass at 19.
    const count = await tx.webhook.count({ where: { ownerId: target.ownerId, sandbox: target.sandbox } });
    if (count >= WEBHOOKS_PER_ENVIRONMENT)
      throw new ApiError('conflict', `A workspace environment has at most ${WEBHOOKS_PER_ENVIRONMENT} webhooks: delete one first`);
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
