'use client';
// All workspaces the user may see; admins create new ones (their two keys are shown once).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useMe } from '@/components/shell/UserContext';
import { SecretValue } from '@/components/ui/CopyButton';
import { Dialog } from '@/components/ui/Dialog';
import { Field } from '@/components/ui/Field';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '@/components/ui/bits';
import { useToast } from '@/components/ui/Toaster';
import { api } from '@/lib/console/api';
import { formatDate } from '@/lib/console/format';
import { keys, useOwners } from '@/lib/console/queries';
import type { Owner } from '@/lib/schemas/records';

export function WorkspaceList() {
  const me = useMe();
  const owners = useOwners();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Owner | null>(null);
  return (
    <>
      <PageHeader title="Workspaces">
        {me.admin && (
          <button className="btn-primary" onClick={() => setCreating(true)}>
            New workspace
          </button>
        )}
      </PageHeader>
      <section className="panel">
        {owners.isPending ? (
          <Skeleton />
        ) : owners.error ? (
          <ErrorNote error={owners.error} />
        ) : owners.data.length === 0 ? (
          <EmptyState title="No workspaces yet">
            {me.admin ? 'Create one to get an API key and start storing entries.' : 'Ask an administrator to add you to one.'}
          </EmptyState>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr><th>Name</th><th className="hide-sm">ID</th><th>Created</th></tr>
              </thead>
              <tbody>
                {owners.data.map((o) => (
                  <tr key={o.id}>
                    <td><Link href={`/workspaces/${o.id}`}>{o.name}</Link></td>
                    <td className="mono muted hide-sm">{o.id}</td>
                    <td className="muted">{formatDate(o.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Dialog open={creating} title="New workspace" onClose={() => setCreating(false)}>
        <CreateWorkspace onCreated={(o) => { setCreating(false); setCreated(o); }} />
      </Dialog>
      <Dialog open={!!created} title="Workspace created" onClose={() => setCreated(null)}>
        {created && (
          <div className="stack">
            <p className="warn-note">Copy these API keys now: they are shown only once.</p>
            {created.api_keys?.map((k) => <SecretValue key={k.id} label={k.sandbox ? 'Sandbox API key' : 'Live API key'} value={k.key ?? ''} />)}
            <Link className="btn-primary" href={`/workspaces/${created.id}`}>Open {created.name}</Link>
          </div>
        )}
      </Dialog>
    </>
  );
}

function CreateWorkspace({ onCreated }: { onCreated(o: Owner): void }) {
  const [name, setName] = useState('');
  const queries = useQueryClient();
  const toast = useToast();
  const create = useMutation({
    mutationFn: () => api<Owner>('/admin/v1/owners', { method: 'POST', body: { name } }),
    onSuccess: (o) => {
      queries.invalidateQueries({ queryKey: keys.owners });
      toast.show(`Workspace ${o.name} created`, 'success');
      onCreated(o);
    },
  });
  return (
    <form className="form" onSubmit={(e) => { e.preventDefault(); create.mutate(); }}>
      <Field label="Workspace name">
        <input required autoFocus value={name} onChange={(e) => setName(e.target.value)} placeholder="Acme Ltd" />
      </Field>
      <ErrorNote error={create.error} />
      <button className="btn-primary" type="submit" disabled={create.isPending}>Create workspace</button>
    </form>
  );
}
