'use client';
// Enrollments: the authorize form, and every enrollment with disable / enable.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Badge, EmptyState, ErrorNote, PageHeader, Skeleton } from '@/components/ui/bits';
import { useToast } from '@/components/ui/Toaster';
import { api } from '@/lib/console/api';
import { formatDate } from '@/lib/console/format';
import { keys, useApps, useEnrollments, useOwners } from '@/lib/console/queries';
import type { Enrollment } from '@/lib/schemas/records';
import { AuthorizeForm } from './AuthorizeForm';

export function EnrollmentsPage() {
  const list = useEnrollments();
  const apps = useApps();
  const owners = useOwners();
  const queries = useQueryClient();
  const toast = useToast();
  const toggle = useMutation({
    mutationFn: (e: Enrollment) => api<Enrollment>(`/admin/v1/enrollments/${e.id}`, { method: 'PATCH', body: { disabled: !e.disabled } }),
    onSuccess: (e) => {
      queries.invalidateQueries({ queryKey: keys.enrollments });
      toast.show(e.disabled ? 'Enrollment disabled; its tokens stopped working' : 'Enrollment enabled', 'success');
    },
    onError: toast.error,
  });
  const appName = (id: string) => apps.data?.find((a) => a.id === id)?.name ?? id.slice(0, 8);
  const ownerName = (id: string) => owners.data?.find((o) => o.id === id)?.name ?? id.slice(0, 8);
  const rows = list.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <>
      <PageHeader title="Enrollments" />
      <AuthorizeForm />
      <section className="panel" aria-labelledby="enrollments-title">
        <h2 id="enrollments-title">All enrollments</h2>
        {list.isPending ? <Skeleton /> : list.error ? <ErrorNote error={list.error} /> : rows.length === 0 ? (
          <EmptyState title="No enrollments yet">An application's first authorization for a workspace creates one.</EmptyState>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead><tr><th>Application</th><th>Workspace</th><th>Environment</th><th>State</th><th className="hide-sm">Updated</th><th /></tr></thead>
              <tbody>
                {rows.map((e) => (
                  <tr key={e.id} data-testid="enrollment-row">
                    <td>{appName(e.app_id)}</td>
                    <td>{ownerName(e.owner_id)}</td>
                    <td>{e.sandbox ? <Badge tone="warn">sandbox</Badge> : <Badge tone="good">live</Badge>}</td>
                    <td>{e.disabled ? <Badge tone="bad">disabled</Badge> : <Badge tone="good">enabled</Badge>}</td>
                    <td className="muted hide-sm">{formatDate(e.updated_at)}</td>
                    <td style={{ textAlign: 'right' }}>
                      <button className={e.disabled ? 'btn btn-small' : 'btn-danger btn-small'} disabled={toggle.isPending} onClick={() => toggle.mutate(e)}>
                        {e.disabled ? 'Enable' : 'Disable'}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {list.hasNextPage && (
          <button className="btn" style={{ marginTop: '0.75rem' }} onClick={() => list.fetchNextPage()} disabled={list.isFetchingNextPage}>Load more</button>
        )}
      </section>
    </>
  );
}
