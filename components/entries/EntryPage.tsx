'use client';
// One entry: its fields, its legal hold, the upload area, its files with their versions, and its activity.
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { EntryActivity } from '@/components/events/EntryActivity';
import { FileList } from '@/components/files/FileList';
import { LegalHold } from '@/components/retention/LegalHold';
import { Uploader } from '@/components/files/Uploader';
import { EnvironmentBadge } from '@/components/ui/Badge';
import { ConfirmButton } from '@/components/ui/ConfirmButton';
import { Dialog } from '@/components/ui/Dialog';
import { EmptyState } from '@/components/ui/EmptyState';
import { ErrorNote } from '@/components/ui/ErrorNote';
import { PageHeader } from '@/components/ui/PageHeader';
import { Skeleton } from '@/components/ui/Skeleton';
import { useToast } from '@/components/ui/Toaster';
import { ApiFailure } from '@/lib/console/api';
import { formatDate } from '@/lib/console/format';
import { useDeleteEntry, useEntry } from '@/lib/console/hooks/entries';
import { useOwner } from '@/lib/console/hooks/owners';
import type { Entry } from '@/lib/schemas/records';
import { EditEntryForm } from './EditEntryForm';

export function EntryPage({ ownerId, entryId }: { ownerId: string; entryId: string }) {
  const entry = useEntry(entryId);
  const owner = useOwner(ownerId);
  const router = useRouter();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const remove = useDeleteEntry(ownerId, entryId, {
    onSuccess: () => {
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
  if (entry.isPending)
    return (
      <>
        {crumbs}
        <Skeleton rows={6} />
      </>
    );
  if (entry.error) {
    if (entry.error instanceof ApiFailure && entry.error.status === 404)
      return (
        <>
          {crumbs}
          <EmptyState title="Entry not found">It does not exist, or it belongs to a workspace you cannot see.</EmptyState>
        </>
      );
    return (
      <>
        {crumbs}
        <ErrorNote error={entry.error} />
      </>
    );
  }
  const e = entry.data;
  return (
    <>
      {crumbs}
      <PageHeader
        title={
          <>
            {e.name || 'Untitled entry'} {e.sandbox && <EnvironmentBadge sandbox />}
          </>
        }
      >
        <button type="button" className="btn" onClick={() => setEditing(true)}>
          Edit entry
        </button>
        <ConfirmButton
          title="Delete this entry and all its files?"
          message="This cannot be undone."
          confirm="Delete entry"
          onConfirm={() => remove.mutate()}
        >
          Delete entry
        </ConfirmButton>
      </PageHeader>
      <Dialog open={editing} title="Edit entry" onClose={() => setEditing(false)}>
        <EditEntryForm ownerId={ownerId} entry={e} onDone={() => setEditing(false)} />
      </Dialog>
      <EntryFields entry={e} />
      <LegalHold ownerId={ownerId} entry={e} />
      <Uploader entryId={e.id} />
      <section className="panel" aria-labelledby="files-title">
        <div className="panel-head">
          <h2 id="files-title">Files</h2>
        </div>
        <FileList files={e.attachments ?? []} />
      </section>
      <EntryActivity ownerId={ownerId} entry={e} />
    </>
  );
}

function EntryFields({ entry: e }: { entry: Entry }) {
  const meta = Object.entries(e.meta ?? {});
  return (
    <section className="panel">
      <dl className="grid-2" style={{ margin: 0 }}>
        <div>
          <dt className="muted">ID</dt>
          <dd className="mono" style={{ margin: 0 }}>
            {e.id}
          </dd>
        </div>
        <div>
          <dt className="muted">Folder</dt>
          <dd style={{ margin: 0 }}>{e.folder || '—'}</dd>
        </div>
        <div>
          <dt className="muted">Key</dt>
          <dd className="mono" style={{ margin: 0 }}>
            {e.key ?? '—'}
          </dd>
        </div>
        <div>
          <dt className="muted">Created</dt>
          <dd style={{ margin: 0 }}>{formatDate(e.created_at)}</dd>
        </div>
        {meta.length > 0 && (
          <div>
            <dt className="muted">Meta</dt>
            <dd style={{ margin: 0 }}>
              {meta.map(([k, v]) => (
                <div key={k}>
                  <span className="mono">{k}</span> = {v}
                </div>
              ))}
            </dd>
          </div>
        )}
      </dl>
    </section>
  );
}
