'use client';
// Applications: register one (trusted or not), rotate its client secret; secrets are shown once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useMe } from '@/components/shell/UserContext';
import { CopyButton, SecretValue } from '@/components/ui/CopyButton';
import { Dialog } from '@/components/ui/Dialog';
import { Check, Field } from '@/components/ui/Field';
import { Badge, EmptyState, ErrorNote, PageHeader, Skeleton } from '@/components/ui/bits';
import { useToast } from '@/components/ui/Toaster';
import { api } from '@/lib/console/api';
import { formatDate } from '@/lib/console/format';
import { keys, useApps } from '@/lib/console/queries';
import type { App } from '@/lib/schemas/records';

export function AppList() {
  const me = useMe();
  const apps = useApps();
  const queries = useQueryClient();
  const toast = useToast();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<App | null>(null);
  const rotate = useMutation({
    mutationFn: (id: string) => api<App>(`/admin/v1/apps/${id}/secret`, { method: 'POST' }),
    onSuccess: (a) => setSecret(a),
    onError: toast.error,
  });
  return (
    <>
      <PageHeader title="Applications">
        {me.admin && <button className="btn-primary" onClick={() => setCreating(true)}>Register application</button>}
      </PageHeader>
      <section className="panel">
        {apps.isPending ? <Skeleton /> : apps.error ? <ErrorNote error={apps.error} /> : apps.data.length === 0 ? (
          <EmptyState title="No applications yet">Register one to let it act for workspaces through enrollments.</EmptyState>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead><tr><th>Name</th><th>Client ID</th><th>Trust</th><th className="hide-sm">Created</th><th /></tr></thead>
              <tbody>
                {apps.data.map((a) => (
                  <tr key={a.id}>
                    <td>{a.name}</td>
                    <td><span className="row"><code>{a.client_id}</code><CopyButton value={a.client_id} /></span></td>
                    <td>{a.trusted ? <Badge tone="accent">trusted</Badge> : <Badge>needs owner key</Badge>}</td>
                    <td className="muted hide-sm">{formatDate(a.created_at)}</td>
                    <td style={{ textAlign: 'right' }}>
                      {me.admin && (
                        <button className="btn btn-small" aria-label={`Rotate the secret of ${a.name}`}
                          onClick={() => confirm('Rotate the client secret? The current one stops working at once.') && rotate.mutate(a.id)}>
                          Rotate secret
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Dialog open={creating} title="Register application" onClose={() => setCreating(false)}>
        <NewAppForm onCreated={(a) => { setCreating(false); setSecret(a); queries.invalidateQueries({ queryKey: keys.apps }); }} />
      </Dialog>
      <Dialog open={!!secret} title="Client credentials" onClose={() => setSecret(null)}>
        {secret && (
          <div className="stack">
            <p className="warn-note">Copy the client secret now: it is shown only once.</p>
            <SecretValue label="Client ID" value={secret.client_id} />
            <SecretValue label="Client secret" value={secret.client_secret ?? ''} />
          </div>
        )}
      </Dialog>
    </>
  );
}

function NewAppForm({ onCreated }: { onCreated(a: App): void }) {
  const [name, setName] = useState('');
  const [trusted, setTrusted] = useState(false);
  const create = useMutation({
    mutationFn: () => api<App>('/admin/v1/apps', { method: 'POST', body: { name, trusted } }),
    onSuccess: onCreated,
  });
  return (
    <form className="form" onSubmit={(e) => { e.preventDefault(); create.mutate(); }}>
      <Field label="Application name"><input required autoFocus value={name} onChange={(e) => setName(e.target.value)} /></Field>
      <Check label="Trusted: may authorize with an owner id alone" checked={trusted} onChange={setTrusted} />
      <p className="hint">An untrusted application needs the owner's API key to create an enrollment.</p>
      <ErrorNote error={create.error} />
      <button className="btn-primary" type="submit" disabled={create.isPending}>Register</button>
    </form>
  );
}
