'use client';
// A workspace's entries: /silo/v1/entries…, called in the workspace (X-Silo-Owner) and
// environment (X-Silo-Sandbox) being browsed.
import type { z } from 'zod';
import type { entryInput, entryUpdate } from '../../schemas/entries';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../api';
import type { Entry, Folder, Page } from '../../schemas/records';
import { useApiMutation, type After } from './mutation';
import { nextCursor, pageQuery } from './pages';

const BASE = '/silo/v1/entries';
export const entryKeys = {
  list: (owner: string) => ['entries', owner] as const,
  one: (id: string) => ['entry', id] as const,
};

export interface EntryFilter {
  sandbox: boolean;
  /** this folder and everything below it */
  folder?: string;
  key?: string;
  /** a search in names, keys and file names */
  q?: string;
  /** invoice facts (docs/api.md, Invoice facts): each one given must match one current version */
  facts?: FactFilter;
}

/** The entry list's invoice fact filters, named as the API's query parameters. */
export interface FactFilter {
  seller_vat?: string;
  buyer_vat?: string;
  number?: string;
  currency?: string;
  issued_from?: string;
  issued_to?: string;
}

export const FACT_FILTERS = ['seller_vat', 'buyer_vat', 'number', 'currency', 'issued_from', 'issued_to'] as const;

export function useEntries(owner: string, f: EntryFilter) {
  return useInfiniteQuery({
    queryKey: [...entryKeys.list(owner), f],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api<Page<Entry>>(`${BASE}?${pageQuery(20, pageParam, { folder: f.folder, key: f.key, q: f.q, ...f.facts })}`, {
        owner,
        sandbox: f.sandbox,
        signal,
      }),
    getNextPageParam: nextCursor,
  });
}

/** How many folders one request of the tree asks for. */
export const FOLDER_PAGE = 50;

/**
 * One level of the workspace's folder tree (GET /silo/v1/folders?parent=; '' the top level), in pages
 * of FOLDER_PAGE; under the list's key, so what makes the list stale makes them stale.
 */
export const useFolderLevel = (owner: string, sandbox: boolean, parent: string) =>
  useInfiniteQuery({
    queryKey: [...entryKeys.list(owner), 'folders', sandbox, parent],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api<Page<Folder>>(`/silo/v1/folders?${pageQuery(FOLDER_PAGE, pageParam)}&parent=${encodeURIComponent(parent)}`, {
        owner,
        sandbox,
        signal,
      }),
    getNextPageParam: nextCursor,
  });

/** The entry with its files (`attachments`) and each file's earlier versions. */
export const useEntry = (id: string) => useQuery({ queryKey: entryKeys.one(id), queryFn: () => api<Entry>(`${BASE}/${id}`) });

/** POST /silo/v1/entries's body, as its schema reads it (the one source: lib/schemas/entries.ts). */
export type NewEntry = z.input<ReturnType<typeof entryInput>>;

export const useCreateEntry = (owner: string, sandbox: boolean, after?: After<Entry, NewEntry>) =>
  useApiMutation(
    (body: NewEntry) => api<Entry>(BASE, { method: 'POST', owner, sandbox, body }),
    () => [entryKeys.list(owner)],
    after,
  );

/** Deletes the entry and all its files. */
export const useDeleteEntry = (owner: string, entryId: string, after?: After<void, void>) =>
  useApiMutation(
    () => api<void>(`${BASE}/${entryId}`, { method: 'DELETE' }),
    () => [entryKeys.list(owner)],
    after,
  );

/** PATCH's body, as its schema reads it. */
export type EntryChanges = z.input<ReturnType<typeof entryUpdate>>;

/** PATCH: name, folder, key (null removes it), meta. */
export const useUpdateEntry = (owner: string, entryId: string, after?: After<Entry, EntryChanges>) =>
  useApiMutation(
    (body: EntryChanges) => api<Entry>(`${BASE}/${entryId}`, { method: 'PATCH', body }),
    () => [entryKeys.one(entryId), entryKeys.list(owner)],
    after,
  );
