'use client';
// A workspace's auditors' keys in one environment: /silo/v1/auditor-keys (X-Silo-Owner,
// X-Silo-Sandbox), made (the key shown once), listed and revoked (docs/api.md, Auditor keys).
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import type { AuditorKey } from '../../schemas/records';
import { useApiMutation, type After } from './mutation';

const BASE = '/silo/v1/auditor-keys';

export const auditorKeyKeys = {
  list: (owner: string, sandbox: boolean) => ['auditor-keys', owner, sandbox] as const,
};

export interface NewAuditorKeyInput {
  from: string;
  to: string;
  expires_in: number;
  note: string;
}

export const useAuditorKeys = (owner: string, sandbox: boolean) =>
  useQuery({
    queryKey: auditorKeyKeys.list(owner, sandbox),
    queryFn: () => api<{ list: AuditorKey[] }>(BASE, { owner, sandbox }).then((r) => r.list),
  });

export const useCreateAuditorKey = (owner: string, sandbox: boolean, after?: After<AuditorKey, NewAuditorKeyInput>) =>
  useApiMutation(
    (body: NewAuditorKeyInput) => api<AuditorKey>(BASE, { method: 'POST', body, owner, sandbox }),
    () => [auditorKeyKeys.list(owner, sandbox)],
    after,
  );

export const useRevokeAuditorKey = (owner: string, sandbox: boolean, after?: After<void, string>) =>
  useApiMutation(
    (id: string) => api<void>(`${BASE}/${id}`, { method: 'DELETE', owner, sandbox }),
    () => [auditorKeyKeys.list(owner, sandbox)],
    after,
  );
