'use client';
// All workspaces the user may see; admins create new ones (their two keys are shown once).
import Link from 'next/link';
import { useState } from 'react';
import { useMe } from '@/components/shell/UserContext';
import { DataTable } from '@/components/ui/DataTable';
import { Dialog } from '@/components/ui/Dialog';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import { PageHeader } from '@/components/ui/PageHeader';
import { SecretValue } from '@/components/ui/SecretValue';
import { useToast } from '@/components/ui/Toaster';
import { formatDate } from '@/lib/console/format';
import { useCreateOwner, useOwners } from '@/lib/console/hooks/owners';
import type { Owner } from '@/lib/console/types';

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
        <DataTable
          rows={owners.data}
          pending={owners.isPending}
          error={owners.error}
          rowKey={(o) => o.id}
          empty={{
            title: 'No workspaces yet',
            body: me.admin ? 'Create one to get an API key and start storing entries.' : 'Ask an administrator to add you to one.',
          }}
          columns={[
            { head: 'Name', cell: (o) => <Link href={`/workspaces/${o.id}`}>{o.name}</Link> },
            { head: 'ID', wide: true, className: 'mono muted', cell: (o) => o.id },
            { head: 'Created', className: 'muted', cell: (o) => formatDate(o.created_at) },
          ]}
        />
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
  const toast = useToast();
  const create = useCreateOwner({
    onSuccess: (o) => {
      toast.show(`Workspace ${o.name} created`, 'success');
      onCreated(o);
    },
  });
  return (
    <Form onSubmit={() => create.mutate(name)} error={create.error} pending={create.isPending} submit="Create workspace">
      <Field label="Workspace name">
        <input required autoFocus value={name} onChange={(e) => setName(e.target.value)} placeholder="Acme Ltd" />
      </Field>
    </Form>
  );
}
