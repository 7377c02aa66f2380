'use client';
// Console users (admins only): create one with a password and workspaces, change memberships.
import { useState } from 'react';
import { useMe } from '@/components/shell/UserContext';
import { Badge } from '@/components/ui/Badge';
import { DataTable } from '@/components/ui/DataTable';
import { Dialog } from '@/components/ui/Dialog';
import { EmptyState } from '@/components/ui/EmptyState';
import { PageHeader } from '@/components/ui/PageHeader';
import { useToast } from '@/components/ui/Toaster';
import { useOwners } from '@/lib/console/hooks/owners';
import { useSaveUser, useUsers } from '@/lib/console/hooks/users';
import type { User } from '@/lib/schemas/records';
import { UserForm } from './UserForm';

export function UserList() {
  const me = useMe();
  const users = useUsers(me.admin);
  const owners = useOwners();
  const toast = useToast();
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const save = useSaveUser({
    onSuccess: (u) => {
      toast.show(`${u.email} saved`, 'success');
      setEditing(null);
    },
  });
  const edit = (u: User | 'new') => {
    save.reset();
    setEditing(u);
  };
  if (!me.admin) return <EmptyState title="Only administrators manage users" />;
  const ownerName = (id: string) => owners.data?.find((o) => o.id === id)?.name ?? id.slice(0, 8);
  return (
    <>
      <PageHeader title="Users">
        <button type="button" className="btn-primary" onClick={() => edit('new')}>
          New user
        </button>
      </PageHeader>
      <section className="panel">
        <DataTable
          query={users}
          rowKey={(u) => u.id}
          columns={[
            {
              head: 'User',
              cell: (u) => (
                <>
                  {u.name || u.email}
                  <div className="muted" style={{ fontSize: '0.8rem' }}>
                    {u.email}
                  </div>
                </>
              ),
            },
            { head: 'Role', cell: (u) => (u.admin ? <Badge tone="accent">admin</Badge> : <Badge>member</Badge>) },
            {
              head: 'Workspaces',
              cell: (u) =>
                u.admin ? <span className="muted">all</span> : u.owner_ids.map(ownerName).join(', ') || <span className="muted">none</span>,
            },
            {
              actions: true,
              cell: (u) => (
                <button type="button" className="btn btn-small" aria-label={`Edit ${u.email}`} onClick={() => edit(u)}>
                  Edit
                </button>
              ),
            },
          ]}
        />
      </section>
      <Dialog open={!!editing} title={editing === 'new' ? 'New user' : 'Edit user'} onClose={() => setEditing(null)}>
        {editing && (
          <UserForm
            user={editing === 'new' ? undefined : editing}
            owners={owners.data ?? []}
            pending={save.isPending}
            error={save.error}
            onSubmit={(fields) => save.mutate({ id: editing === 'new' ? undefined : editing.id, fields })}
          />
        )}
      </Dialog>
    </>
  );
}
