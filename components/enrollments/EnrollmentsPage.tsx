'use client';
// Enrollments: enrolling an application in a workspace (admins), and every enrollment with
// disable / enable.
import { useMe } from '@/components/shell/UserContext';
import { Badge, EnvironmentBadge } from '@/components/ui/Badge';
import { DataTable } from '@/components/ui/DataTable';
import { LoadMore } from '@/components/ui/LoadMore';
import { PageHeader } from '@/components/ui/PageHeader';
import { useToast } from '@/components/ui/Toaster';
import { formatDate } from '@/lib/console/format';
import { useApps } from '@/lib/console/hooks/apps';
import { useEnrollments, useToggleEnrollment } from '@/lib/console/hooks/enrollments';
import { useOwners } from '@/lib/console/hooks/owners';
import { EnrollForm } from './EnrollForm';

export function EnrollmentsPage() {
  const me = useMe();
  const list = useEnrollments();
  const apps = useApps();
  const owners = useOwners();
  const toast = useToast();
  const toggle = useToggleEnrollment({
    onSuccess: (e) => toast.show(e.disabled ? 'Enrollment disabled; its tokens stopped working' : 'Enrollment enabled', 'success'),
    onError: toast.error,
  });
  const appName = (id: string) => apps.data?.find((a) => a.id === id)?.name ?? id.slice(0, 8);
  const ownerName = (id: string) => owners.data?.find((o) => o.id === id)?.name ?? id.slice(0, 8);
  return (
    <>
      <PageHeader title="Enrollments" />
      {me.admin && <EnrollForm />}
      <section className="panel" aria-labelledby="enrollments-title">
        <h2 id="enrollments-title">All enrollments</h2>
        <DataTable
          rows={list.data?.pages.flatMap((p) => p.list)}
          pending={list.isPending}
          error={list.error}
          rowKey={(e) => e.id}
          rowTestId="enrollment-row"
          empty={{ title: 'No enrollments yet', body: "Enroll an application above, or an application's first authorization creates one." }}
          columns={[
            { head: 'Application', cell: (e) => appName(e.app_id) },
            { head: 'Workspace', cell: (e) => ownerName(e.owner_id) },
            { head: 'Environment', cell: (e) => <EnvironmentBadge sandbox={e.sandbox} /> },
            { head: 'State', cell: (e) => (e.disabled ? <Badge tone="bad">disabled</Badge> : <Badge tone="good">enabled</Badge>) },
            { head: 'Updated', wide: true, className: 'muted', cell: (e) => formatDate(e.updated_at) },
            {
              actions: true,
              cell: (e) => (
                <button
                  type="button"
                  className={e.disabled ? 'btn btn-small' : 'btn-danger btn-small'}
                  disabled={toggle.isPending}
                  onClick={() => toggle.mutate(e)}
                >
                  {e.disabled ? 'Enable' : 'Disable'}
                </button>
              ),
            },
          ]}
        />
        <LoadMore pages={list} />
      </section>
    </>
  );
}
