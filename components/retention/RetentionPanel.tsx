'use client';
// A workspace's Retention tab (?tab=retention, docs/api.md, Retention): its rules in one
// environment, with their delete; a form for a new one (country presets, the date it gives a file
// uploaded today); and the entries whose retention has passed, to review and delete (nothing is
// deleted by itself).
import Link from 'next/link';
import { useState } from 'react';
import { Badge } from '@/components/ui/Badge';
import { ConfirmButton } from '@/components/ui/ConfirmButton';
import { DataTable, createdColumn } from '@/components/ui/DataTable';
import { EnvironmentSelect } from '@/components/ui/EnvironmentSelect';
import { useToast } from '@/components/ui/Toaster';
import { useDeleteEntry } from '@/lib/console/hooks/entries';
import { useCreateRetentionRule, useDeleteRetentionRule, useExpiredEntries, useRetentionRules } from '@/lib/console/hooks/retention';
import { describeRule } from '@/lib/console/retention-date';
import type { Entry } from '@/lib/schemas/records';
import { RetentionRuleForm } from './RetentionRuleForm';

const any = <span className="muted">any</span>;

export function RetentionPanel({ ownerId }: { ownerId: string }) {
  const toast = useToast();
  const [sandbox, setSandbox] = useState(false);
  const [adding, setAdding] = useState(false);
  const rules = useRetentionRules(ownerId, sandbox);
  const create = useCreateRetentionRule(ownerId, sandbox, {
    onSuccess: () => {
      setAdding(false);
      toast.show('Retention rule added', 'success');
    },
  });
  const remove = useDeleteRetentionRule(ownerId, sandbox, {
    onSuccess: () => toast.show('Rule deleted; versions keep the dates it gave them', 'success'),
    onError: toast.error,
  });
  return (
    <>
      <section className="panel" aria-labelledby="retention-title">
        <div className="panel-head">
          <h2 id="retention-title">Retention</h2>
          <div className="row">
            <EnvironmentSelect id="retention-env" sandbox={sandbox} onChange={setSandbox} />
            <button type="button" className="btn" onClick={() => setAdding((a) => !a)} aria-expanded={adding}>
              {adding ? 'Cancel' : 'Add rule'}
            </button>
          </div>
        </div>
        <p className="muted">
          A version stored in a matching entry is kept until the latest date its rules give; until then it cannot be deleted. Governance
          retention may be overridden by an administrator, compliance retention by no one. Rules apply to versions stored after them.
        </p>
        {adding && (
          <section aria-label="New retention rule">
            <RetentionRuleForm onSubmit={(input) => create.mutate(input)} error={create.error} pending={create.isPending} />
          </section>
        )}
        <DataTable
          query={rules}
          rowKey={(r) => r.id}
          label="Retention rules"
          rowTestId="retention-rule"
          empty={{ title: sandbox ? 'No retention rules for the sandbox' : 'No retention rules', body: 'Versions are kept until deleted.' }}
          columns={[
            { head: 'Category', cell: (r) => r.category ?? any },
            { head: 'Folder', cell: (r) => (r.folder ? <span className="mono">{r.folder}</span> : any) },
            { head: 'Period', cell: (r) => describeRule(r) },
            { head: 'Mode', cell: (r) => <Badge tone={r.mode === 'compliance' ? 'warn' : 'neutral'}>{r.mode}</Badge> },
            createdColumn,
            {
              actions: true,
              cell: (r) => (
                <ConfirmButton
                  className="btn-danger btn-small"
                  aria-label={`Delete the rule ${describeRule(r)}`}
                  title="Delete this retention rule?"
                  message="Versions stored from now on no longer get its date; those stored before keep the date it gave them."
                  confirm="Delete rule"
                  onConfirm={() => remove.mutate(r.id)}
                >
                  Delete
                </ConfirmButton>
              ),
            },
          ]}
        />
      </section>
      <ExpiredEntries ownerId={ownerId} sandbox={sandbox} />
    </>
  );
}

/** GET /silo/v1/entries?retention=expired: entries whose retention has passed and no hold, to review and delete. */
function ExpiredEntries({ ownerId, sandbox }: { ownerId: string; sandbox: boolean }) {
  const expired = useExpiredEntries(ownerId, sandbox);
  return (
    <section className="panel" aria-labelledby="expired-title">
      <div className="panel-head">
        <h2 id="expired-title">Retention passed</h2>
      </div>
      <p className="muted">
        Entries holding a version whose retention date has passed, under no legal hold: they may now be deleted. Nothing is deleted by
        itself; review each one.
      </p>
      <DataTable
        rows={expired.data?.list}
        pending={expired.isPending}
        error={expired.error}
        rowKey={(e) => e.id}
        label="Entries whose retention has passed"
        rowTestId="expired-entry"
        empty={{ title: 'Nothing to review', body: 'No entry holds a version whose retention has passed.' }}
        columns={[
          {
            head: 'Name',
            cell: (e) => (
              <Link href={`/workspaces/${ownerId}/entries/${e.id}`}>{e.name || <span className="mono">{e.id.slice(0, 8)}</span>}</Link>
            ),
          },
          { head: 'Folder', cell: (e) => e.folder || <span className="muted">—</span> },
          { head: 'Files', cell: (e) => e.file_count },
          createdColumn,
          { actions: true, cell: (e) => <DeleteExpired ownerId={ownerId} entry={e} /> },
        ]}
      />
      {expired.data?.next_cursor && <p className="muted">The first 100 are shown; delete some to see more.</p>}
    </section>
  );
}

function DeleteExpired({ ownerId, entry }: { ownerId: string; entry: Entry }) {
  const toast = useToast();
  const remove = useDeleteEntry(ownerId, entry.id, { onSuccess: () => toast.show('Entry deleted', 'success'), onError: toast.error });
  return (
    <ConfirmButton
      className="btn-danger btn-small"
      aria-label={`Delete ${entry.name || entry.id}`}
      title="Delete this entry and all its files?"
      message="Its retention has passed. This cannot be undone."
      confirm="Delete entry"
      disabled={remove.isPending}
      onConfirm={() => remove.mutate()}
    >
      Delete
    </ConfirmButton>
  );
}
