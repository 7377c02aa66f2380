'use client';
// All workspaces the user may see with their storage used; admins create new ones (their two keys
// are shown once) and rename them.
import Link from 'next/link';
import { useState } from 'react';
import { useMe } from '@/components/shell/UserContext';
import { DataTable, createdColumn } from '@/components/ui/DataTable';
import { Dialog } from '@/components/ui/Dialog';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import { PageHeader } from '@/components/ui/PageHeader';
import { ShownOnceDialog } from '@/components/ui/ShownOnceDialog';
import { useToast } from '@/components/ui/Toaster';
import { useCreateOwner, useOwners } from '@/lib/console/hooks/owners';
import type { Owner } from '@/lib/schemas/records';
import { keySecret } from './ApiKeys';
import { RenameWorkspace } from './RenameWorkspace';
import { UsageSize } from './Usage';

export function WorkspaceList() {
  const me = useMe();
  const owners = useOwners();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Owner | null>(null);
  return (
    <>
      <PageHeader title="Workspaces">
        {me.admin && (
          <button type="button" className="btn-primary" onClick={() => setCreating(true)}>
            New workspace
          </button>
        )}
      </PageHeader>
      <section className="panel">
        <DataTable
          query={owners}
          rowKey={(o) => o.id}
          empty={{
            title: 'No workspaces yet',
            body: me.admin ? 'Create one to get an API key and start storing entries.' : 'Ask an administrator to add you to one.',
          }}
          columns={[
            { head: 'Name', cell: (o) => <Link href={`/workspaces/${o.id}`}>{o.name}</Link> },
            { head: 'ID', wide: true, className: 'mono muted', cell: (o) => o.id },
            {
              head: 'Storage',
              className: 'cell-size',
              cell: (o) => (o.usage ? <UsageSize bytes={o.usage.bytes} /> : '—'),
            },
            { head: 'Entries', wide: true, className: 'cell-num', cell: (o) => o.usage?.entries.toLocaleString('en') ?? '—' },
            { ...createdColumn, wide: true },
            { actions: true, cell: (o) => me.admin && <RenameWorkspace owner={o} small /> },
          ]}
        />
      </section>
      <Dialog open={creating} title="New workspace" onClose={() => setCreating(false)}>
        <CreateWorkspace
          onCreated={(o) => {
            setCreating(false);
            setCreated(o);
          }}
        />
      </Dialog>
      <ShownOnceDialog
        title="Workspace created"
        warning="Copy these API keys now: they are shown only once."
        secrets={created ? (created.api_keys ?? []).map(keySecret) : undefined}
        onClose={() => setCreated(null)}
      >
        {created && (
          <Link className="btn-primary" href={`/workspaces/${created.id}`}>
            Open {created.name}
          </Link>
        )}
      </ShownOnceDialog>
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
        {/* biome-ignore lint/a11y/noAutofocus: the form opens on the user's click; focusing its first field is what they asked for */}
        <input required autoFocus value={name} onChange={(e) => setName(e.target.value)} placeholder="Acme Ltd" />
      </Field>
    </Form>
  );
}
