'use client';
// An entry's legal hold (docs/api.md, Legal hold): on, nothing in the entry may be deleted, whatever
// its retention. Shown with its reason while on; set with a reason, lifted with a confirmation.
import { useState } from 'react';
import { Badge } from '@/components/ui/Badge';
import { ConfirmButton } from '@/components/ui/ConfirmButton';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import { useToast } from '@/components/ui/Toaster';
import { useSetLegalHold } from '@/lib/console/hooks/retention';
import type { Entry } from '@/lib/schemas/records';

export function LegalHold({ ownerId, entry }: { ownerId: string; entry: Entry }) {
  const toast = useToast();
  const [setting, setSetting] = useState(false);
  const [reason, setReason] = useState('');
  const hold = useSetLegalHold(ownerId, entry.id, {
    onSuccess: (_, { hold }) => {
      setSetting(false);
      setReason('');
      toast.show(hold ? 'Legal hold set: nothing in this entry can be deleted' : 'Legal hold lifted', 'success');
    },
  });
  return (
    <section className="panel" aria-labelledby="legal-hold-title" data-testid="legal-hold">
      <div className="panel-head">
        <h2 id="legal-hold-title">Legal hold</h2>
        {entry.legal_hold ? (
          <ConfirmButton
            className="btn btn-small"
            title="Lift the legal hold?"
            message="Its files can be deleted again once their retention has passed."
            confirm="Lift hold"
            disabled={hold.isPending}
            onConfirm={() => hold.mutate({ hold: false, reason: '' })}
          >
            Lift legal hold
          </ConfirmButton>
        ) : (
          <button type="button" className="btn btn-small" aria-expanded={setting} onClick={() => setSetting((s) => !s)}>
            {setting ? 'Cancel' : 'Set legal hold'}
          </button>
        )}
      </div>
      {entry.legal_hold ? (
        <p>
          <Badge tone="warn">on</Badge> Nothing in this entry can be deleted, whatever its retention.{' '}
          {entry.legal_hold_reason && (
            <>
              Reason: <strong data-testid="legal-hold-reason">{entry.legal_hold_reason}</strong>
            </>
          )}
        </p>
      ) : (
        <p className="muted">Off. While on, nothing in this entry can be deleted, whatever its retention.</p>
      )}
      {setting && !entry.legal_hold && (
        <Form
          submit="Set hold"
          pendingLabel="Setting…"
          pending={hold.isPending}
          error={hold.error}
          onSubmit={() => hold.mutate({ hold: true, reason })}
        >
          <Field label="Reason" hint="Shown with the hold and kept in the activity">
            <input value={reason} maxLength={1024} onChange={(e) => setReason(e.target.value)} />
          </Field>
        </Form>
      )}
    </section>
  );
}
