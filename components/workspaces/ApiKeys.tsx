'use client';
// A workspace's API keys: new live or sandbox keys (shown once) and revocation.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useMe } from '@/components/shell/UserContext';
import { SecretValue } from '@/components/ui/CopyButton';
import { Dialog } from '@/components/ui/Dialog';
import { Badge, EmptyState } from '@/components/ui/bits';
import { useToast } from '@/components/ui/Toaster';
import { api } from '@/lib/console/api';
import { formatDate } from '@/lib/console/format';
import { keys } from '@/lib/console/queries';
import type { ApiKey, Owner } from '@/lib/schemas/records';

export function ApiKeys({ owner }: { owner: Owner }) {
  const me = useMe();
  const queries = useQueryClient();
  const toast = useToast();
  const [shown, setShown] = useState<ApiKey | null>(null);
  const refresh = () => queries.invalidateQueries({ queryKey: keys.owner(owner.id) });
  const create = useMutation({
    mutationFn: (sandbox: boolean) => api<ApiKey>(`/admin/v1/owners/${owner.id}/keys`, { method: 'POST', body: { sandbox } }),
    onSuccess: (k) => { refresh(); setShown(k); },
    onError: toast.error,
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api(`/admin/v1/owners/${owner.id}/keys/${id}`, { method: 'DELETE' }),
    onSuccess: () => { refresh(); toast.show('Key revoked; it stopped working at once', 'success'); },
    onError: toast.error,
  });
  const list = owner.api_keys ?? [];
  return (
    <section className="panel" aria-labelledby="keys-title">
      <div className="panel-head">
        <h2 id="keys-title">API keys</h2>
        {me.admin && (
          <div className="row">
            <button className="btn" onClick={() => create.mutate(false)} disabled={create.isPending}>New live key</button>
            <button className="btn" onClick={() => create.mutate(true)} disabled={create.isPending}>New sandbox key</button>
          </div>
        )}
      </div>
      {list.length === 0 ? (
        <EmptyState title="No active keys" />
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead><tr><th>Key</th><th>Environment</th><th className="hide-sm">Created</th><th /></tr></thead>
            <tbody>
              {list.map((k) => (
                <tr key={k.id}>
                  <td className="mono">{k.prefix}</td>
                  <td>{k.sandbox ? <Badge tone="warn">sandbox</Badge> : <Badge tone="good">live</Badge>}</td>
                  <td className="muted hide-sm">{formatDate(k.created_at)}</td>
                  <td style={{ textAlign: 'right' }}>
                    {me.admin && (
                      <button
                        className="btn-danger btn-small"
                        aria-label={`Revoke key ${k.prefix}`}
                        onClick={() => confirm('Revoke this key? Apps using it stop working at once.') && revoke.mutate(k.id)}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog open={!!shown} title="New API key" onClose={() => setShown(null)}>
        {shown && (
          <div className="stack">
            <p className="warn-note">Copy this key now: it is shown only once.</p>
            <SecretValue label={shown.sandbox ? 'Sandbox API key' : 'Live API key'} value={shown.key ?? ''} />
          </div>
        )}
      </Dialog>
    </section>
  );
}
