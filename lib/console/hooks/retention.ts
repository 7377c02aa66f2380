'use client';
// A workspace's retention (docs/api.md, Retention): its rules in one environment
// (/silo/v1/retention-rules, X-Silo-Owner and X-Silo-Sandbox), the entries whose retention has
// passed (GET /silo/v1/entries?retention=expired) and an entry's legal hold (PUT …/legal-hold).
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import type { Entry, Page } from '../../schemas/records';
import type { RetentionRuleInput, RetentionRuleRecord } from '../../schemas/retention';
import { entryKeys } from './entries';
import { useApiMutation, type After } from './mutation';

const BASE = '/silo/v1/retention-rules';

export const retentionKeys = {
  rules: (owner: string, sandbox: boolean) => ['retention-rules', owner, sandbox] as const,
  /** under the entry list's key: what makes the list stale (an entry's delete) makes it stale */
  expired: (owner: string, sandbox: boolean) => [...entryKeys.list(owner), 'retention-expired', sandbox] as const,
};

export interface NewRetentionRule {
  rule: RetentionRuleInput;
  /** also extend the matching versions stored before (never shortens) */
  applyToExisting: boolean;
}

export const useRetentionRules = (owner: string, sandbox: boolean) =>
  useQuery({
    queryKey: retentionKeys.rules(owner, sandbox),
    queryFn: ({ signal }) => api<{ list: RetentionRuleRecord[] }>(BASE, { owner, sandbox, signal }).then((r) => r.list),
  });

/** Applied to existing versions, the rule changes their records: every entry shown is stale. */
export const useCreateRetentionRule = (owner: string, sandbox: boolean, after?: After<RetentionRuleRecord, NewRetentionRule>) =>
  useApiMutation(
    ({ rule, applyToExisting }: NewRetentionRule) =>
      api<RetentionRuleRecord>(`${BASE}${applyToExisting ? '?apply_to_existing=true' : ''}`, {
        method: 'POST',
        body: rule,
        owner,
        sandbox,
      }),
    (_, { applyToExisting }) => [retentionKeys.rules(owner, sandbox), ...(applyToExisting ? [['entry'], entryKeys.list(owner)] : [])],
    after,
  );

/** Versions keep the dates the rule gave them. */
export const useDeleteRetentionRule = (owner: string, sandbox: boolean, after?: After<void, string>) =>
  useApiMutation(
    (id: string) => api<void>(`${BASE}/${id}`, { method: 'DELETE', owner, sandbox }),
    () => [retentionKeys.rules(owner, sandbox)],
    after,
  );

/** Entries holding a stored version whose retention has passed and no hold: what may now be deleted (first 100). */
export const useExpiredEntries = (owner: string, sandbox: boolean) =>
  useQuery({
    queryKey: retentionKeys.expired(owner, sandbox),
    queryFn: ({ signal }) => api<Page<Entry>>('/silo/v1/entries?retention=expired&limit=100', { owner, sandbox, signal }),
  });

export interface LegalHold {
  hold: boolean;
  reason: string;
}

/** Sets or lifts the entry's hold; its versions' records show it. */
export const useSetLegalHold = (owner: string, entryId: string, after?: After<unknown, LegalHold>) =>
  useApiMutation(
    (body: LegalHold) => api<unknown>(`/silo/v1/entries/${entryId}/legal-hold`, { method: 'PUT', body }),
    () => [entryKeys.one(entryId), entryKeys.list(owner)],
    after,
  );
