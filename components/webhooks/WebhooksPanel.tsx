'use client';
// A workspace's Webhooks tab: its endpoints in one environment, adding one (its secret shown
// once), a test message, disabling and enabling, removal, and an endpoint's deliveries.
import { useState } from 'react';
import { Badge } from '@/components/ui/Badge';
import { ConfirmButton } from '@/components/ui/ConfirmButton';
import { DataTable, createdColumn } from '@/components/ui/DataTable';
import { EnvironmentSelect } from '@/components/ui/EnvironmentSelect';
import { ShownOnceDialog } from '@/components/ui/ShownOnceDialog';
import { useToast } from '@/components/ui/Toaster';
import { useCreateWebhook, useDeleteWebhook, useSetWebhookDisabled, useTestWebhook, useWebhooks } from '@/lib/console/hooks/webhooks';
import type { Webhook } from '@/lib/schemas/records';
import { WebhookDeliveries } from './WebhookDeliveries';
import { WebhookForm } from './WebhookForm';

const REASONS: Record<string, string> = {
  manual: 'disabled',
  gone: 'disabled: the endpoint answered 410',
  failing: 'disabled: failing for 5 days',
};

export function WebhooksPanel({ ownerId }: { ownerId: string }) {
  const toast = useToast();
  const [sandbox, setSandbox] = useState(false);
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<Webhook | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const hooks = useWebhooks(ownerId, sandbox);
  const create = useCreateWebhook(ownerId, sandbox, {
    onSuccess: (h) => {
      setShown(h);
      setAdding(false);
    },
  });
  const test = useTestWebhook({
    onSuccess: (_, id) => {
      setOpen(id);
      toast.show('Test message queued', 'success');
    },
    onError: toast.error,
  });
  const setDisabled = useSetWebhookDisabled({ onError: toast.error });
  const remove = useDeleteWebhook({ onSuccess: () => toast.show('Endpoint removed', 'success'), onError: toast.error });
  return (
    <section className="panel" aria-labelledby="webhooks-title">
      <div className="panel-head">
        <h2 id="webhooks-title">Webhooks</h2>
        <div className="row">
          <EnvironmentSelect id="webhooks-env" sandbox={sandbox} onChange={setSandbox} />
          <button type="button" className="btn" onClick={() => setAdding((a) => !a)}>
            {adding ? 'Cancel' : 'Add endpoint'}
          </button>
        </div>
      </div>
      {adding && <WebhookForm onSubmit={(input) => create.mutate(input)} error={create.error} pending={create.isPending} />}
      <DataTable
        label="Endpoints"
        query={hooks}
        rowKey={(h) => h.id}
        rowTestId="webhook-row"
        empty={{ title: 'No endpoints', body: 'Add one to have this workspace’s records POSTed to it, signed.' }}
        columns={[
          { head: 'URL', className: 'mono', cell: (h) => h.url },
          { head: 'Types', cell: (h) => (h.types[0] === '*' ? 'all' : h.types.join(', ')) },
          {
            head: 'Status',
            cell: (h) =>
              h.disabled ? (
                <Badge tone="bad">{REASONS[h.disabled_reason ?? 'manual']}</Badge>
              ) : (
                <Badge tone="good">{h.failing_since ? 'enabled, failing' : 'enabled'}</Badge>
              ),
          },
          createdColumn,
          {
            actions: true,
            cell: (h) => (
              <div className="row">
                <button type="button" className="btn btn-small" onClick={() => setOpen(open === h.id ? null : h.id)}>
                  {open === h.id ? 'Hide deliveries' : 'Deliveries'}
                </button>
                <button type="button" className="btn btn-small" disabled={h.disabled} onClick={() => test.mutate(h.id)}>
                  Send test
                </button>
                <button type="button" className="btn btn-small" onClick={() => setDisabled.mutate({ id: h.id, disabled: !h.disabled })}>
                  {h.disabled ? 'Enable' : 'Disable'}
                </button>
                <ConfirmButton
                  className="btn-danger btn-small"
                  aria-label={`Remove endpoint ${h.url}`}
                  title="Remove this endpoint?"
                  message="It gets nothing more, and its deliveries are forgotten."
                  confirm="Remove"
                  onConfirm={() => remove.mutate(h.id)}
                >
                  Remove
                </ConfirmButton>
              </div>
            ),
          },
        ]}
      />
      {open && (
        <div className="stack">
          <h3>Deliveries</h3>
          <WebhookDeliveries webhookId={open} />
        </div>
      )}
      <ShownOnceDialog
        title="New webhook endpoint"
        warning="Copy this signing secret now: it is shown only once."
        secrets={shown ? [{ label: 'Signing secret', value: shown.secret ?? '' }] : undefined}
        onClose={() => setShown(null)}
      />
    </section>
  );
}
