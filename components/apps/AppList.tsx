'use client';
// Applications: register one (trusted or not), rename it, rotate its client secret; secrets are
// shown once.
import { useState } from 'react';
import { useMe } from '@/components/shell/UserContext';
import { Badge } from '@/components/ui/Badge';
import { ConfirmButton } from '@/components/ui/ConfirmButton';
import { CopyButton } from '@/components/ui/CopyButton';
import { DataTable, createdColumn } from '@/components/ui/DataTable';
import { Dialog } from '@/components/ui/Dialog';
import { PageHeader } from '@/components/ui/PageHeader';
import { ShownOnceDialog } from '@/components/ui/ShownOnceDialog';
import { useToast } from '@/components/ui/Toaster';
import { useApps, useRotateSecret } from '@/lib/console/hooks/apps';
import type { App } from '@/lib/schemas/records';
import { NewAppForm } from './NewAppForm';
import { RenameApp } from './RenameApp';

export function AppList() {
  const me = useMe();
  const apps = useApps();
  const toast = useToast();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<App | null>(null);
  const rotate = useRotateSecret({ onSuccess: setSecret, onError: toast.error });
  return (
    <>
      <PageHeader title="Applications">
        {me.admin && (
          <button type="button" className="btn-primary" onClick={() => setCreating(true)}>
            Register application
          </button>
        )}
      </PageHeader>
      <section className="panel">
        <DataTable
          query={apps}
          rowKey={(a) => a.id}
          empty={{ title: 'No applications yet', body: 'Register one to let it act for workspaces through enrollments.' }}
          columns={[
            { head: 'Name', cell: (a) => a.name },
            {
              head: 'Client ID',
              cell: (a) => (
                <span className="row">
                  <code>{a.client_id}</code>
                  <CopyButton value={a.client_id} />
                </span>
              ),
            },
            { head: 'Trust', cell: (a) => (a.trusted ? <Badge tone="accent">trusted</Badge> : <Badge>needs owner key</Badge>) },
            createdColumn,
            {
              actions: true,
              cell: (a) =>
                me.admin && (
                  <span className="row">
                    <RenameApp app={a} />
                    <ConfirmButton
                      className="btn btn-small"
                      aria-label={`Rotate the secret of ${a.name}`}
                      title="Rotate the client secret?"
                      message={`The current secret of ${a.name} stops working at once.`}
                      confirm="Rotate secret"
                      onConfirm={() => rotate.mutate(a.id)}
                    >
                      Rotate secret
                    </ConfirmButton>
                  </span>
                ),
            },
          ]}
        />
      </section>
      <Dialog open={creating} title="Register application" onClose={() => setCreating(false)}>
        <NewAppForm
          onCreated={(a) => {
            setCreating(false);
            setSecret(a);
          }}
        />
      </Dialog>
      <ShownOnceDialog
        title="Client credentials"
        warning="Copy the client secret now: it is shown only once."
        secrets={
          secret
            ? [
                { label: 'Client ID', value: secret.client_id },
                { label: 'Client secret', value: secret.client_secret ?? '' },
              ]
            : undefined
        }
        onClose={() => setSecret(null)}
      />
    </>
  );
}
