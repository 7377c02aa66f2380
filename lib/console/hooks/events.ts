'use client';
// A workspace's event log: /silo/v1/events, newest first (?order=desc, paged by ?before=), and its
// verification, in the workspace (X-Silo-Owner) and environment (X-Silo-Sandbox) shown. Every
// change writes a record, so every mutation makes these stale (refreshQueries, mutation.ts).
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../api';
import type { ChainVerdict, EventRecord, Page } from '../../schemas/records';
import { nextCursor } from './pages';

const BASE = '/silo/v1/events';
/** Records shown per page. */
export const ACTIVITY_PAGE = 20;

export const eventKeys = {
  all: ['events'] as const,
  list: (owner: string, f: ActivityFilter) => ['events', owner, 'list', f] as const,
  verify: (owner: string, sandbox: boolean) => ['events', owner, 'verify', sandbox] as const,
};

export interface ActivityFilter {
  sandbox: boolean;
  /** a type of the catalogue (lib/schemas/events.ts) */
  type?: string;
  /** an entry's id */
  entry?: string;
}

/** The query string of one page, newest first, before `before` (none: from the head). */
export function activityQuery(f: ActivityFilter, before?: string, limit = ACTIVITY_PAGE): string {
  const q = new URLSearchParams({ order: 'desc', limit: String(limit) });
  if (before) q.set('before', before);
  if (f.type) q.set('type', f.type);
  if (f.entry) q.set('entry_id', f.entry);
  return q.toString();
}

export const useActivity = (owner: string, f: ActivityFilter) =>
  useInfiniteQuery({
    queryKey: eventKeys.list(owner, f),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api<Page<EventRecord>>(`${BASE}?${activityQuery(f, pageParam)}`, { owner, sandbox: f.sandbox, signal }),
    getNextPageParam: nextCursor,
  });

/** The chain recomputed on the server: read when asked (`refetch`), never on its own. */
export const useVerifyChain = (owner: string, sandbox: boolean) =>
  useQuery({
    queryKey: eventKeys.verify(owner, sandbox),
    queryFn: ({ signal }) => api<ChainVerdict>(`${BASE}/verify`, { owner, sandbox, signal }),
    enabled: false,
    retry: false,
  });
