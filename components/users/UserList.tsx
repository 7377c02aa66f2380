'use client';
// Console users (admins only): create one with a password and workspaces, change memberships.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useMe } from '@/components/shell/UserContext';
import { Dialog } from '@/components/ui/Dialog';
import { Badge, EmptyState, ErrorNote, PageHeader, Skeleton } from '@/components/ui/bits';
import { useToast } from '@/components/ui/Toaster';
import { api } from '@/lib/console/api';
import { keys, useOwners, useUsers } from '@/lib/console/queries';
import type { User } from '@/lib/schemas/records';
import { UserForm, type UserFormValue } from './UserForm';

export function UserList() {
  const me = useMe();
  const users = useUsers(me.admin);
  const owners = useOwners();
  const queries = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const save = useMutation({
    mutationFn: (v: UserFormValue) =>
      editing === 'new'
        ? api<User>('/admin/v1/users', { method: 'POST', body: v })
        : api<User>(`/admin/v1/users/${(editing as User).id}`, {
            method: 'PATCH',
            body: { name: v.name, admin: v.admin, owner_ids: v.owner_ids, ...(v.password ? { password: v.password } : {}) },
          }),
    onSuccess: (u) => {
      queries.invalidateQueries({ queryKey: keys.users });
      toast.show(`${u.email} saved`, 'success');
      setEditing(null);
    },
  });
  if (!me.admin) return <EmptyState title="Only administrators manage users" />;
  const ownerName = (id: string) => owners.data?.find((o) => o.id === id)?.name ?? id.slice(0, 8);
  return (
    <>
      <PageHeader title="Users">
        <button className="btn-primary" onClick={() => { save.reset(); setEditing('new'); }}>New user</button>
      </PageHeader>
      <section className="panel">
        {users.isPending ? <Skeleton /> : users.error ? <ErrorNote error={users.error} /> : (
          <div className="table-wrap">
            <table className="table">
              <thead><tr><th>User</th><th>Role</th><th>Workspaces</th><th /></tr></thead>
              <tbody>
                {users.data.map((u) => (
                  <tr key={u.id}>
                    <td>{u.name || u.email}<div className="muted" style={{ fontSize: '0.8rem' }}>{u.email}</div></td>
                    <td>{u.admin ? <Badge tone="accent">admin</Badge> : <Badge>member</Badge>}</td>
                    <td>{u.admin ? <span className="muted">all</span> : u.owner_ids.map(ownerName).join(', ') || <span className="muted">none</span>}</td>
                    <td style={{ textAlign: 'right' }}>
                      <button className="btn btn-small" aria-label={`Edit ${u.email}`} onClick={() => { save.reset(); setEditing(u); }}>Edit</button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Dialog open={!!editing} title={editing === 'new' ? 'New user' : 'Edit user'} onClose={() => setEditing(null)}>
        {editing && (
          <UserForm
            user={editing === 'new' ? undefined : editing}
            owners={owners.data ?? []}
            pending={save.isPending}
            error={save.error}
            onSubmit={(v) => save.mutate(v)}
          />
        )}
      </Dialog>
    </>
  );
}
