'use client';
// Mutations on an entry's files; each refreshes the entry (its attachments carry the history).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '@/components/ui/Toaster';
import { api } from '@/lib/console/api';
import { keys } from '@/lib/console/queries';
import type { FileRecord } from '@/lib/schemas/records';

export interface FilePatch {
  desc?: string;
  meta?: Record<string, string>;
  private?: boolean;
  embeddable?: boolean;
}

export function useFileActions(entryId: string) {
  const queries = useQueryClient();
  const toast = useToast();
  const base = `/silo/v1/entries/${entryId}/files`;
  const refresh = () => queries.invalidateQueries({ queryKey: keys.entry(entryId) });
  const restore = useMutation({
    mutationFn: (versionId: string) => api<FileRecord>(`${base}/${versionId}/restore`, { method: 'POST' }),
    onSuccess: () => { refresh(); toast.show('Version restored as the current one', 'success'); },
    onError: toast.error,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`${base}/${id}`, { method: 'DELETE' }),
    onSuccess: () => { refresh(); toast.show('Deleted', 'success'); },
    onError: toast.error,
  });
  const update = useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: FilePatch }) => api<FileRecord>(`${base}/${id}`, { method: 'PATCH', body: patch }),
    onSuccess: () => { refresh(); toast.show('File updated', 'success'); },
  });
  return { restore, remove, update };
}
