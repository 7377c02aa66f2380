'use client';
// An entry's files and versions: /silo/v1/entries/{id}/files…. Every change refreshes the entry,
// whose attachments carry the files and their history.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, failure } from '../api';
import type { FileLink, FileRecord } from '../../schemas/records';
import { UploadQueue } from '../upload/queue';
import { entryKeys } from './entries';
import { refreshQueries, useApiMutation, type After } from './mutation';

const filesOf = (entryId: string) => `/silo/v1/entries/${entryId}/files`;

/** A version's bytes; `download` asks for Content-Disposition: attachment. */
export const fileHref = (entryId: string, fileId: string, download = false) =>
  `${filesOf(entryId)}/${fileId}${download ? '?download=1' : ''}`;

export interface FilePatch {
  desc?: string;
  meta?: Record<string, string>;
  private?: boolean;
  embeddable?: boolean;
}

export function useFileActions(entryId: string, after: { restored?(): void; removed?(): void; onError?(err: Error): void } = {}) {
  const stale = () => [entryKeys.one(entryId)];
  const base = filesOf(entryId);
  const restore = useApiMutation((versionId: string) => api<FileRecord>(`${base}/${versionId}/restore`, { method: 'POST' }), stale, {
    onSuccess: after.restored,
    onError: after.onError,
  });
  const remove = useApiMutation((id: string) => api<void>(`${base}/${id}`, { method: 'DELETE' }), stale, {
    onSuccess: after.removed,
    onError: after.onError,
  });
  return { restore, remove };
}

/** Links to one version: make one that expires, or revoke every one made so far (nothing to refresh). */
export function useFileLinks(entryId: string, fileId: string, after: { revoked?(): void; onError?(err: Error): void } = {}) {
  const path = `${filesOf(entryId)}/${fileId}/links`;
  const create = useApiMutation(
    (expiresIn: number) => api<FileLink>(path, { method: 'POST', body: { expires_in: expiresIn } }),
    () => [],
    { onError: after.onError },
  );
  const revoke = useApiMutation(
    () => api<void>(path, { method: 'DELETE' }),
    () => [],
    { onSuccess: after.revoked, onError: after.onError },
  );
  return { create, revoke };
}

/** Description, meta and flags of a file; no new version. */
export const useUpdateFile = (entryId: string, after?: After<FileRecord, { id: string; patch: FilePatch }>) =>
  useApiMutation(
    ({ id, patch }: { id: string; patch: FilePatch }) => api<FileRecord>(`${filesOf(entryId)}/${id}`, { method: 'PATCH', body: patch }),
    () => [entryKeys.one(entryId)],
    after,
  );

/**
 * A version's bytes turned into what the preview shows (`draw`); a version never changes, so the
 * answer is kept for as long as the page lives.
 */
export function useFileBytes<T>(entryId: string, fileId: string, variant: unknown, draw: (res: Response) => Promise<T>, enabled: boolean) {
  return useQuery({
    queryKey: ['file-preview', fileId, variant],
    queryFn: async () => {
      const res = await fetch(fileHref(entryId, fileId), { credentials: 'same-origin' });
      if (!res.ok) throw failure(res.status, await res.json().catch(() => undefined));
      return draw(res);
    },
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}

/** The upload queue of an entry, for as long as the page lives; each stored file refreshes the entry. */
export function useUploadQueue(entryId: string, onStored: (record: FileRecord) => void): UploadQueue {
  const queries = useQueryClient();
  const [queue] = useState(
    () =>
      new UploadQueue(entryId, (record) => {
        void refreshQueries(queries, [entryKeys.one(entryId)]);
        onStored(record);
      }),
  );
  return queue;
}
