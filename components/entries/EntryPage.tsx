'use client';
// One entry: its fields, the upload area and its files with their versions.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { FileList } from '@/components/files/FileList';
import { Uploader } from '@/components/files/Uploader';
import { Badge, EmptyState, ErrorNote, PageHeader, Skeleton } from '@/components/ui/bits';
import { useToast } from '@/components/ui/Toaster';
import { api, ApiFailure } from '@/lib/console/api';
import { formatDate } from '@/lib/console/format';
import { keys, useEntry, useOwner } from '@/lib/console/queries';

export function EntryPage({ ownerId, entryId }: { ownerId: string; entryId: string }) {
  const entry = useEntry(entryId);
  const owner = useOwner(ownerId);
  const router = useRouter();
  const queries = useQueryClient();
  const toast = useToast();
  const remove = useMutation({
    mutationFn: () => api(`/silo/v1/entries/${entryId}`, { method: 'DELETE' }),
    onSuccess: () => {
      queries.invalidateQueries({ queryKey: keys.entries(ownerId) });
      toast.show('Entry deleted', 'success');
      router.push(`/workspaces/${ownerId}`);
    },
    onError: toast.error,
  });
  const crumbs = (
    <div className="crumbs">
      <Link href="/workspaces">Workspaces</Link> / <Link href={`/workspaces/${ownerId}`}>{owner.data?.name ?? 'Workspace'}</Link> /
    </div>
  );
  if (entry.isPending) return <>{crumbs}<Skeleton rows={6} /></>;
  if (entry.error) {
    if (entry.error instanceof ApiFailure && entry.error.status === 404)
      return <>{crumbs}<EmptyState title="Entry not found">It does not exist, or it belongs to a workspace you cannot see.</EmptyState></>;
    return <>{crumbs}<ErrorNote error={entry.error} /></>;
  }
  const e = entry.data;
  const meta = Object.entries(e.meta ?? {});
  return (
    <>
      {crumbs}
      <PageHeader title={<>{e.name || 'Untitled entry'} {e.sandbox && <Badge tone="warn">sandbox</Badge>}</>}>
        <button className="btn-danger" onClick={() => confirm('Delete this entry and all its files?') && remove.mutate()}>
          Delete entry
        </button>
      </PageHeader>
      <section className="panel">
        <dl className="grid-2" style={{ margin: 0 }}>
          <div><dt className="muted">ID</dt><dd className="mono" style={{ margin: 0 }}>{e.id}</dd></div>
          <div><dt className="muted">Folder</dt><dd style={{ margin: 0 }}>{e.folder || '—'}</dd></div>
          <div><dt className="muted">Key</dt><dd className="mono" style={{ margin: 0 }}>{e.key ?? '—'}</dd></div>
          <div><dt className="muted">Created</dt><dd style={{ margin: 0 }}>{formatDate(e.created_at)}</dd></div>
          {meta.length > 0 && (
            <div><dt className="muted">Meta</dt><dd style={{ margin: 0 }}>{meta.map(([k, v]) => <div key={k}><span className="mono">{k}</span> = {v}</div>)}</dd></div>
          )}
        </dl>
      </section>
      <Uploader entryId={e.id} />
      <section className="panel" aria-labelledby="files-title">
        <div className="panel-head"><h2 id="files-title">Files</h2></div>
        <FileList files={e.attachments ?? []} />
      </section>
    </>
  );
}
