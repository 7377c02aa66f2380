'use client';
// A workspace's API keys: new live or sandbox keys (shown once) and revocation.
import { useState } from 'react';
import { useMe } from '@/components/shell/UserContext';
import { EnvironmentBadge } from '@/components/ui/Badge';
import { ConfirmButton } from '@/components/ui/ConfirmButton';
import { DataTable, createdColumn } from '@/components/ui/DataTable';
import { ShownOnceDialog } from '@/components/ui/ShownOnceDialog';
import { useToast } from '@/components/ui/Toaster';
import { useCreateKey, useRevokeKey } from '@/lib/console/hooks/owners';
import type { ApiKey, Owner } from '@/lib/schemas/records';

/** A new key as the dialog shows it (its value comes only in the create answer). */
export const keySecret = (k: ApiKey) => ({ label: k.sandbox ? 'Sandbox API key' : 'Live API key', value: k.key ?? '' });

export function ApiKeys({ owner }: { owner: Owner }) {
  const me = useMe();
  const toast = useToast();
  const [shown, setShown] = useState<ApiKey | null>(null);
  const create = useCreateKey(owner.id, { onSuccess: setShown, onError: toast.error });
  const revoke = useRevokeKey(owner.id, {
    onSuccess: () => toast.show('Key revoked; it stopped working at once', 'success'),
    onError: toast.error,
  });
  return (
    <section className="panel" aria-labelledby="keys-title">
      <div className="panel-head">
        <h2 id="keys-title">API keys</h2>
        {me.admin && (
          <div className="row">
            <button type="button" className="btn" onClick={() => create.mutate(false)} disabled={create.isPending}>
              New live key
            </button>
            <button type="button" className="btn" onClick={() => create.mutate(true)} disabled={create.isPending}>
              New sandbox key
            </button>
          </div>
        )}
      </div>
      <DataTable
        rows={owner.api_keys}
        rowKey={(k) => k.id}
        empty={{ title: 'No active keys' }}
        columns={[
          { head: 'Key', className: 'mono', cell: (k) => k.prefix },
          { head: 'Environment', cell: (k) => <EnvironmentBadge sandbox={k.sandbox} /> },
          createdColumn,
          {
            actions: true,
            cell: (k) =>
              me.admin && (
                <ConfirmButton
                  className="btn-danger btn-small"
                  aria-label={`Revoke key ${k.prefix}`}
                  title="Revoke this key?"
                  message="Apps using it stop working at once."
                  confirm="Revoke key"
                  onConfirm={() => revoke.mutate(k.id)}
                >
                  Revoke
                </ConfirmButton>
              ),
          },
        ]}
      />
      <ShownOnceDialog
        title="New API key"
        warning="Copy this key now: it is shown only once."
        secrets={shown ? [keySecret(shown)] : undefined}
        onClose={() => setShown(null)}
      />
    </section>
  );
}
