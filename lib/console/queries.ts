'use client';
// Shared TanStack Query reads: one key per resource so mutations know what to refresh.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from './api';
import type { App, Enrollment, Entry, Owner, Page, User } from '../schemas/records';

export const keys = {
  owners: ['owners'] as const,
  owner: (id: string) => ['owners', id] as const,
  apps: ['apps'] as const,
  enrollments: ['enrollments'] as const,
  users: ['users'] as const,
  entries: (owner: string) => ['entries', owner] as const,
  entry: (id: string) => ['entry', id] as const,
};

/** Admin lists are small; read every page so selects and lookups are complete. */
async function all<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = await api<Page<T>>(`${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    out.push(...page.list);
    cursor = page.next_cursor;
  } while (cursor && out.length < 5000);
  return out;
}

export const useOwners = () => useQuery({ queryKey: keys.owners, queryFn: () => all<Owner>('/admin/v1/owners') });
export const useOwner = (id: string) => useQuery({ queryKey: keys.owner(id), queryFn: () => api<Owner>(`/admin/v1/owners/${id}`) });
export const useApps = () => useQuery({ queryKey: keys.apps, queryFn: () => all<App>('/admin/v1/apps') });
export const useUsers = (enabled = true) =>
  useQuery({ queryKey: keys.users, queryFn: async () => (await api<Page<User>>('/admin/v1/users')).list, enabled });

export function useEnrollments() {
  return useInfiniteQuery({
    queryKey: keys.enrollments,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      api<Page<Enrollment>>(`/admin/v1/enrollments?limit=25${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`),
    getNextPageParam: (last) => last.next_cursor,
  });
}

export interface EntryFilter {
  sandbox: boolean;
  folder?: string;
  key?: string;
}

export function useEntries(owner: string, f: EntryFilter) {
  return useInfiniteQuery({
    queryKey: [...keys.entries(owner), f],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const q = new URLSearchParams({ limit: '20' });
      if (pageParam) q.set('cursor', pageParam);
      if (f.folder) q.set('folder', f.folder);
      if (f.key) q.set('key', f.key);
      return api<Page<Entry>>(`/silo/v1/entries?${q}`, { owner, sandbox: f.sandbox, signal });
    },
    getNextPageParam: (last) => last.next_cursor,
  });
}

export const useEntry = (id: string) => useQuery({ queryKey: keys.entry(id), queryFn: () => api<Entry>(`/silo/v1/entries/${id}`) });
