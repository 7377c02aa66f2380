// Webhook endpoints, their deliveries and attempts (docs/api.md, Webhooks): the one source of
// their validation, types and OpenAPI.
import { z } from 'zod';
import { listOf, plain, recordId, text, timestamp } from './common';
import { EVENT_TYPES } from './event-types';

export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_WEBHOOK_DESCRIPTION = 500;

/** An absolute http(s) URL without user info or fragment; whether http and its address are allowed is the domain's check. */
const webhookUrl = plain(MAX_WEBHOOK_URL_LENGTH)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && !u.hash && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an absolute https:// URL without user info or fragment')
  .meta({ format: 'uri', example: 'https://invoices.example.com/hooks/silo' });

const typeNames = Object.keys(EVENT_TYPES) as [keyof typeof EVENT_TYPES, ...(keyof typeof EVENT_TYPES)[]];

/** ["*"] (every type), or distinct types of the catalogue. */
const webhookTypes = z
  .array(z.union([z.literal('*'), z.enum(typeNames)]))
  .min(1, 'must name at least one type, or "*"')
  .max(typeNames.length, `must have at most ${typeNames.length} types`)
  .refine((t) => new Set(t).size === t.length, 'must not repeat a type')
  .refine((t) => !t.includes('*') || t.length === 1, '"*" stands alone: every type')
  .meta({ description: 'Event types to deliver (the catalogue in docs/api.md, Events), or ["*"] for all', example: ['file.stored'] });

export const webhookInput = z.strictObject({
  url: webhookUrl,
  types: webhookTypes.default(['*']),
  description: text(MAX_WEBHOOK_DESCRIPTION).default(''),
});
export type WebhookInput = z.infer<typeof webhookInput>;

export const webhookUpdate = z
  .strictObject({
    url: webhookUrl.optional(),
    types: webhookTypes.optional(),
    description: text(MAX_WEBHOOK_DESCRIPTION).optional(),
    disabled: z.boolean().optional().meta({ description: 'false enables it again (and clears why it was disabled)' }),
  })
  .meta({ id: 'WebhookUpdate' });
export type WebhookUpdate = z.infer<typeof webhookUpdate>;

export const WebhookRecord = z
  .object({
    id: recordId,
    url: z.string().meta({ example: 'https://invoices.example.com/hooks/silo' }),
    types: z.array(z.string()).meta({ example: ['file.stored', 'entry.deleted'] }),
    description: z.string(),
    sandbox: z.boolean(),
    disabled: z.boolean(),
    disabled_reason: z
      .enum(['manual', 'gone', 'failing'])
      .nullable()
      .meta({ description: 'manual: a PATCH; gone: the endpoint answered 410; failing: no success for 5 days' }),
    failing_since: timestamp.nullable().meta({ description: 'The first failed attempt since the last success' }),
    previous_secret_until: timestamp.nullable().meta({ description: 'After a rotation: until when the previous secret signs too' }),
    created_at: timestamp,
  })
  .meta({ id: 'Webhook' });

export const WebhookWithSecret = WebhookRecord.extend({
  secret: z
    .string()
    .meta({ description: 'whsec_…: shown only here (creation and rotation)', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
}).meta({ id: 'WebhookWithSecret' });

export const WebhookList = listOf(WebhookRecord, 'WebhookList');

export const WebhookAttemptRecord = z
  .object({
    at: timestamp,
    status: z.number().int().nullable().meta({ description: 'The HTTP status; null when no answer came', example: 503 }),
    duration_ms: z.number().int().min(0).meta({ example: 42 }),
    body: z.string().meta({ description: "The first 1 KiB of the answer's body" }),
    error: z.string().nullable().meta({ description: 'Why no answer came (timeout, refused address, …)' }),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookDeliveryRecord = z
  .object({
    id: recordId,
    event_id: recordId.meta({ description: 'The record sent (webhook-id)' }),
    type: z.string().meta({ example: 'file.stored' }),
    seq: z.number().int().nullable().meta({ description: "The record's seq; null for a test message" }),
    entry_id: recordId.nullable(),
    state: z.enum(['pending', 'succeeded', 'failed']),
    attempt_count: z.number().int().min(0).meta({ example: 1 }),
    next_attempt_at: timestamp.nullable().meta({ description: 'While pending' }),
    created_at: timestamp,
    attempts: z.array(WebhookAttemptRecord).meta({ description: 'The newest 10 attempts, newest first (kept 30 days)' }),
  })
  .meta({ id: 'WebhookDelivery' });

export const WebhookDeliveryList = listOf(WebhookDeliveryRecord, 'WebhookDeliveryList');
