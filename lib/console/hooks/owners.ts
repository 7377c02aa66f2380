'use client';
// Workspaces (owners) and their API keys: /admin/v1/owners…
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import type { ApiKey, Owner } from '../../schemas/records';
import { useApiMutation, type After } from './mutation';
import { readAll } from './pages';

const BASE = '/admin/v1/owners';
export const ownerKeys = {
  all: ['owners'] as const,
  one: (id: string) => ['owners', id] as const,
};

export const useOwners = () => useQuery({ queryKey: ownerKeys.all, queryFn: () => readAll<Owner>(BASE) });
export const useOwner = (id: string) => useQuery({ queryKey: ownerKeys.one(id), queryFn: () => api<Owner>(`${BASE}/${id}`) });

/** The answer carries the two new API keys, shown once. */
export const useCreateOwner = (after?: After<Owner, string>) =>
  useApiMutation(
    (name: string) => api<Owner>(BASE, { method: 'POST', body: { name } }),
    () => [ownerKeys.all],
    after,
  );

/** Admins rename a workspace; lists and the workspace page show the new name. */
export const useRenameOwner = (id: string, after?: After<Owner, string>) =>
  useApiMutation(
    (name: string) => api<Owner>(`${BASE}/${id}`, { method: 'PATCH', body: { name } }),
    () => [ownerKeys.all],
    after,
  );

export const useCreateKey = (ownerId: string, after?: After<ApiKey, boolean>) =>
  useApiMutation(
    (sandbox: boolean) => api<ApiKey>(`${BASE}/${ownerId}/keys`, { method: 'POST', body: { sandbox } }),
    () => [ownerKeys.one(ownerId)],
    after,
  );

export const useRevokeKey = (ownerId: string, after?: After<void, string>) =>
  useApiMutation(
    (keyId: string) => api<void>(`${BASE}/${ownerId}/keys/${keyId}`, { method: 'DELETE' }),
    () => [ownerKeys.one(ownerId)],
    after,
  );
