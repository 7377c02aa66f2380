'use client';
// A workspace's auditors' keys (?tab=auditors): a read-only key for one environment and period,
// shown once with its copy button; the list (no secrets) with each key's state; revocation
// (docs/api.md, Auditor keys).
import { useState } from 'react';
import { ConfirmButton } from '@/components/ui/ConfirmButton';
import { DataTable, createdColumn } from '@/components/ui/DataTable';
import { EnvironmentSelect } from '@/components/ui/EnvironmentSelect';
import { Field } from '@/components/ui/Field';
import { ShownOnceDialog } from '@/components/ui/ShownOnceDialog';
import { useToast } from '@/components/ui/Toaster';
import { ApiFailure } from '@/lib/console/api';
import { formatDate } from '@/lib/console/format';
import { useAuditorKeys, useCreateAuditorKey, useRevokeAuditorKey } from '@/lib/console/hooks/auditor-keys';
import type { AuditorKey } from '@/lib/schemas/records';

const DAY = 86_400;
/** How long a new key works; 366 days is the API's longest (AUDITOR_KEY_MAX_SECONDS). */
const LIFETIMES = [
  { label: '7 days', seconds: 7 * DAY },
  { label: '30 days', seconds: 30 * DAY },
  { label: '90 days', seconds: 90 * DAY },
  { label: '366 days', seconds: 366 * DAY },
];

const year = new Date().getUTCFullYear();

function stateOf(k: AuditorKey): string {
  if (k.revoked_at) return `Revoked ${formatDate(k.revoked_at)}`;
  if (Date.parse(k.expires_at) <= Date.now()) return 'Expired';
  return `Active until ${formatDate(k.expires_at)}`;
}

export function AuditorKeys({ ownerId }: { ownerId: string }) {
  const toast = useToast();
  const [sandbox, setSandbox] = useState(false);
  const [from, setFrom] = useState(`${year - 1}-01-01`);
  const [to, setTo] = useState(`${year}-01-01`);
  const [lifetime, setLifetime] = useState(30 * DAY);
  const [note, setNote] = useState('');
  const [shown, setShown] = useState<AuditorKey | null>(null);
  const [error, setError] = useState<ApiFailure | undefined>();
  const keys = useAuditorKeys(ownerId, sandbox);
  const create = useCreateAuditorKey(ownerId, sandbox, {
    onSuccess: (k) => {
      setError(undefined);
      setNote('');
      setShown(k);
    },
    onError: (err) => (err instanceof ApiFailure && err.fields ? setError(err) : toast.error(err)),
  });
  const revoke = useRevokeAuditorKey(ownerId, sandbox, {
    onSuccess: () => toast.show("Auditor's key revoked; it stopped working at once", 'success'),
    onError: toast.error,
  });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    create.mutate({ from, to, expires_in: lifetime, note });
  };

  return (
    <section className="panel" aria-labelledby="auditor-keys-title">
      <div className="panel-head">
        <h2 id="auditor-keys-title">Auditor keys</h2>
        <EnvironmentSelect id="auditor-keys-env" sandbox={sandbox} onChange={setSandbox} />
      </div>
      <p className="muted">
        A key for an auditor reads the entries, files, events and export of the versions stored in its period (from the first day, up to but
        not including the last), and nothing else: it cannot change anything. Every use is in the Activity tab.
      </p>
      <form className="form row" onSubmit={submit} aria-label="New auditor key">
        <Field label="From (included)" error={error?.fields?.from}>
          <input type="date" value={from} required onChange={(e) => setFrom(e.target.value)} />
        </Field>
        <Field label="To (excluded)" error={error?.fields?.to}>
          <input type="date" value={to} required onChange={(e) => setTo(e.target.value)} />
        </Field>
        <Field label="Works for" error={error?.fields?.expires_in}>
          <select value={lifetime} onChange={(e) => setLifetime(Number(e.target.value))}>
            {LIFETIMES.map((l) => (
              <option key={l.seconds} value={l.seconds}>
                {l.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Note" error={error?.fields?.note}>
          <input value={note} maxLength={1024} placeholder="Who it is for, and why" onChange={(e) => setNote(e.target.value)} />
        </Field>
        <button type="submit" className="btn" disabled={create.isPending}>
          New auditor key
        </button>
      </form>
      <DataTable
        query={keys}
        rowKey={(k) => k.id}
        label="Auditor keys"
        rowTestId="auditor-key"
        empty={{ title: sandbox ? 'No auditor keys for the sandbox' : 'No auditor keys' }}
        columns={[
          { head: 'Key', className: 'mono', cell: (k) => k.prefix },
          { head: 'Period', cell: (k) => `${k.from} – ${k.to} (excl.)` },
          { head: 'State', cell: stateOf },
          { head: 'Note', className: 'muted', cell: (k) => k.note },
          createdColumn,
          {
            actions: true,
            cell: (k) =>
              !k.revoked_at && (
                <ConfirmButton
                  className="btn-danger btn-small"
                  aria-label={`Revoke auditor key ${k.prefix}`}
                  title="Revoke this auditor's key?"
                  message="The auditor's next request is refused."
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
        title="New auditor key"
        warning="Copy this key now and hand it to the auditor: it is shown only once."
        secrets={shown ? [{ label: `Auditor key, ${shown.from} to ${shown.to} (excl.)`, value: shown.key ?? '' }] : undefined}
        onClose={() => setShown(null)}
      />
    </section>
  );
}
