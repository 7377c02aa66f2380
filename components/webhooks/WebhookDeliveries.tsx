'use client';
// An endpoint's deliveries, newest first: the record, its state, its latest attempt's status and
// the first of the answer's body, and "Retry".
import { Badge } from '@/components/ui/Badge';
import { DataTable, createdColumn } from '@/components/ui/DataTable';
import { useToast } from '@/components/ui/Toaster';
import { useDeliveries, useRetryDelivery } from '@/lib/console/hooks/webhooks';

export function WebhookDeliveries({ webhookId }: { webhookId: string }) {
  const toast = useToast();
  const deliveries = useDeliveries(webhookId);
  const retry = useRetryDelivery(webhookId, { onSuccess: () => toast.show('Sent again', 'success'), onError: toast.error });
  return (
    <DataTable
      label="Deliveries"
      query={deliveries}
      rowKey={(d) => d.id}
      rowTestId="delivery-row"
      empty={{ title: 'No deliveries yet', body: 'Records made from now on, and test messages, show here.' }}
      columns={[
        { head: 'Record', cell: (d) => `${d.type}${d.seq !== null ? ` #${d.seq}` : ''}` },
        {
          head: 'State',
          cell: (d) => <Badge tone={d.state === 'succeeded' ? 'good' : d.state === 'failed' ? 'bad' : 'neutral'}>{d.state}</Badge>,
        },
        { head: 'Attempts', cell: (d) => d.attempt_count },
        {
          head: 'Last answer',
          className: 'mono',
          cell: (d) => {
            const a = d.attempts[0];
            if (!a) return '—';
            return (
              <span title={a.body}>
                {a.status ?? a.error} {a.body ? `· ${a.body.slice(0, 80)}` : ''} ({a.duration_ms} ms)
              </span>
            );
          },
        },
        createdColumn,
        {
          actions: true,
          cell: (d) => (
            <button type="button" className="btn btn-small" onClick={() => retry.mutate(d.id)} disabled={retry.isPending}>
              Retry
            </button>
          ),
        },
      ]}
    />
  );
}
