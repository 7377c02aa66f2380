'use client';
// A workspace's webhook endpoints and their deliveries: /silo/v1/webhooks…, in the workspace
// (X-Silo-Owner) and environment (X-Silo-Sandbox) shown.
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import type { Page, Webhook, WebhookDelivery } from '../../schemas/records';
import { useApiMutation, type After } from './mutation';

const BASE = '/silo/v1/webhooks';
export const webhookKeys = {
  all: ['webhooks'] as const,
  list: (owner: string, sandbox: boolean) => ['webhooks', owner, sandbox] as const,
  deliveries: (id: string) => ['webhooks', 'deliveries', id] as const,
};

export interface NewWebhook {
  url: string;
  types: string[];
  description: string;
}

export const useWebhooks = (owner: string, sandbox: boolean) =>
  useQuery({
    queryKey: webhookKeys.list(owner, sandbox),
    queryFn: ({ signal }) => api<Page<Webhook>>(`${BASE}?limit=100`, { owner, sandbox, signal }).then((p) => p.list),
  });

/** Newest first; refreshed every few seconds while shown (attempts happen on their own). */
export const useDeliveries = (id: string) =>
  useQuery({
    queryKey: webhookKeys.deliveries(id),
    queryFn: ({ signal }) => api<Page<WebhookDelivery>>(`${BASE}/${id}/deliveries?limit=50`, { signal }).then((p) => p.list),
    refetchInterval: 3000,
  });

/** The answer carries the secret, shown once. */
export const useCreateWebhook = (owner: string, sandbox: boolean, after?: After<Webhook, NewWebhook>) =>
  useApiMutation(
    (input: NewWebhook) => api<Webhook>(BASE, { method: 'POST', body: input, owner, sandbox }),
    () => [webhookKeys.all],
    after,
  );

export const useSetWebhookDisabled = (after?: After<Webhook, { id: string; disabled: boolean }>) =>
  useApiMutation(
    ({ id, disabled }: { id: string; disabled: boolean }) => api<Webhook>(`${BASE}/${id}`, { method: 'PATCH', body: { disabled } }),
    () => [webhookKeys.all],
    after,
  );

export const useDeleteWebhook = (after?: After<void, string>) =>
  useApiMutation(
    (id: string) => api<void>(`${BASE}/${id}`, { method: 'DELETE' }),
    () => [webhookKeys.all],
    after,
  );

export const useTestWebhook = (after?: After<WebhookDelivery, string>) =>
  useApiMutation(
    (id: string) => api<WebhookDelivery>(`${BASE}/${id}/test`, { method: 'POST' }),
    (_, id) => [webhookKeys.deliveries(id)],
    after,
  );

export const useRetryDelivery = (webhookId: string, after?: After<WebhookDelivery, string>) =>
  useApiMutation(
    (deliveryId: string) => api<WebhookDelivery>(`${BASE}/${webhookId}/deliveries/${deliveryId}/retry`, { method: 'POST' }),
    () => [webhookKeys.deliveries(webhookId)],
    after,
  );
