// /silo/v1/webhooks: endpoints that get the event log's records, signed (docs/api.md, Webhooks).
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { listQuery } from '../schemas/common';
import {
  WebhookDeliveryList,
  WebhookDeliveryRecord,
  WebhookList,
  WebhookRecord,
  WebhookWithSecret,
  webhookInput,
  webhookUpdate,
} from '../schemas/webhooks';
import { EventRecord } from '../schemas/events';
import { body, errors, ok, PUBLIC, uuidParam, type DocLimits } from './shared';

const tags = ['Webhooks'];
const WEBHOOK_ID = uuidParam('id', 'The webhook id');
const DELIVERY_ID = uuidParam('delivery_id', 'The delivery id');

export const webhookPaths = (l: DocLimits): ZodOpenApiPathsObject => ({
  '/silo/v1/webhooks': {
    get: {
      operationId: 'listWebhooks',
      tags,
      summary: "The workspace environment's webhook endpoints, newest first",
      requestParams: { query: listQuery(l.maxListLimit) },
      responses: { '200': ok('A page of endpoints', WebhookList), ...errors(400, 401, 403, 422) },
    },
    post: {
      operationId: 'createWebhook',
      tags,
      summary: 'Add an endpoint: every record of the event log after it that matches its types is POSTed to it, signed',
      description:
        'url must be https:// (http:// only with WEBHOOK_ALLOW_HTTP=true) and may not resolve to a loopback, private, link-local or metadata address (unless WEBHOOK_ALLOW_PRIVATE=true). The secret (whsec_…) is in this answer only. At most 20 endpoints a workspace environment: 409 conflict beyond.',
      requestBody: body(webhookInput),
      responses: { '201': ok('Created, with its secret', WebhookWithSecret), ...errors(400, 401, 403, 409, 415, 422) },
    },
  },
  '/silo/v1/webhooks/{id}': {
    parameters: [WEBHOOK_ID],
    get: {
      operationId: 'getWebhook',
      tags,
      summary: 'An endpoint (never its secret)',
      responses: { '200': ok('The endpoint', WebhookRecord), ...errors(401, 403, 404) },
    },
    patch: {
      operationId: 'updateWebhook',
      tags,
      summary: 'Change url, types or description; disable or enable it (enabled again, it resumes at the newest record)',
      requestBody: body(webhookUpdate),
      responses: { '200': ok('Updated', WebhookRecord), ...errors(401, 403, 404, 415, 422) },
    },
    delete: {
      operationId: 'deleteWebhook',
      tags,
      summary: 'Remove an endpoint and its deliveries',
      responses: { '204': { description: 'Removed' }, ...errors(401, 403, 404) },
    },
  },
  '/silo/v1/webhooks/{id}/rotate-secret': {
    parameters: [WEBHOOK_ID],
    post: {
      operationId: 'rotateWebhookSecret',
      tags,
      summary: 'A new secret, shown once; the previous one signs too for 24 hours',
      responses: { '200': ok('The endpoint with its new secret', WebhookWithSecret), ...errors(401, 403, 404) },
    },
  },
  '/silo/v1/webhooks/{id}/test': {
    parameters: [WEBHOOK_ID],
    post: {
      operationId: 'testWebhook',
      tags,
      summary: 'Send a webhook.test message to this endpoint (not a record of the event log)',
      responses: { '202': ok('The delivery, pending', WebhookDeliveryRecord), ...errors(401, 403, 404, 409) },
    },
  },
  '/silo/v1/webhooks/{id}/deliveries': {
    parameters: [WEBHOOK_ID],
    get: {
      operationId: 'listWebhookDeliveries',
      tags,
      summary: "The endpoint's deliveries, newest first, each with its latest attempts (kept 30 days)",
      requestParams: { query: listQuery(l.maxListLimit) },
      responses: { '200': ok('A page of deliveries', WebhookDeliveryList), ...errors(401, 403, 404, 422) },
    },
  },
  '/silo/v1/webhooks/{id}/deliveries/{delivery_id}/retry': {
    parameters: [WEBHOOK_ID, DELIVERY_ID],
    post: {
      operationId: 'retryWebhookDelivery',
      tags,
      summary: 'Send a delivery again now, with 24 hours of retries from now',
      responses: { '202': ok('The delivery, pending', WebhookDeliveryRecord), ...errors(401, 403, 404) },
    },
  },
});

const header = (name: string, description: string, example: string) => ({
  name,
  in: 'header' as const,
  required: true,
  description,
  schema: { type: 'string' as const, example },
});

/** What Silo sends to an endpoint (the document's `webhooks`): a record, signed as Standard Webhooks v1. */
export const webhookMessages = () => ({
  eventRecord: {
    post: {
      operationId: 'receiveEventRecord',
      tags,
      summary: 'What Silo POSTs to an endpoint: a record of the event log as GET /silo/v1/events shows it (or a webhook.test message)',
      description:
        'Verify webhook-signature before trusting the body (the standardwebhooks package: docs/api.md, Webhooks). Any 2xx within 15 s is delivered; otherwise it is sent again (5 s doubling to 1,280 s, then every 30 min, for 24 h; Retry-After honoured) with the same webhook-id.',
      security: PUBLIC,
      parameters: [
        header('webhook-id', "The record's id: the same on every retry (keep it to act once)", '0b9d4a52-5c1e-4f4e-9d3a-6a2f0c1b7e21'),
        header('webhook-timestamp', 'When this attempt was signed, Unix seconds', '1764151200'),
        header(
          'webhook-signature',
          'v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">, one per secret, space separated (two for 24 h after a rotation)',
          'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
        ),
      ],
      requestBody: body(EventRecord),
      responses: {
        '204': { description: 'Any 2xx: delivered' },
        '410': { description: 'Gone: Silo disables the endpoint at once' },
        '503': { description: 'Any other answer, or none within 15 s: sent again later' },
      },
    },
  },
});
