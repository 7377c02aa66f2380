'use client';
// The fields of a console user; memberships as one checkbox per workspace.
import { useState } from 'react';
import { Check } from '@/components/ui/Check';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import { fieldErrors } from '@/lib/console/api';
import type { UserFields } from '@/lib/console/hooks/users';
import type { Owner, User } from '@/lib/schemas/records';

interface Props {
  user?: User;
  owners: Owner[];
  pending: boolean;
  error: unknown;
  onSubmit(v: UserFields): void;
}

export function UserForm({ user, owners, pending, error, onSubmit }: Props) {
  const [v, setV] = useState<UserFields>({
    email: user?.email ?? '',
    name: user?.name ?? '',
    password: '',
    admin: user?.admin ?? false,
    owner_ids: user?.owner_ids ?? [],
  });
  const fields = fieldErrors(error);
  const toggleOwner = (id: string, on: boolean) =>
    setV({ ...v, owner_ids: on ? [...v.owner_ids, id] : v.owner_ids.filter((o) => o !== id) });
  return (
    <Form onSubmit={() => onSubmit(v)} error={error} pending={pending} submit="Save">
      <Field label="Email" error={fields?.email}>
        <input type="email" required disabled={!!user} value={v.email} onChange={(e) => setV({ ...v, email: e.target.value })} />
      </Field>
      <Field label="Name" error={fields?.name}>
        <input value={v.name} onChange={(e) => setV({ ...v, name: e.target.value })} />
      </Field>
      <Field
        label={user ? 'New password' : 'Password'}
        hint={user ? 'Leave empty to keep the current one' : 'At least 8 characters; share it with the user'}
        error={fields?.password}
      >
        <input
          type="password"
          autoComplete="new-password"
          required={!user}
          minLength={8}
          value={v.password}
          onChange={(e) => setV({ ...v, password: e.target.value })}
        />
      </Field>
      <Check label="Administrator (manages everything)" checked={v.admin} onChange={(admin) => setV({ ...v, admin })} />
      <fieldset className="stack" style={{ border: '1px solid var(--border)', borderRadius: 8, padding: '0.6rem 0.8rem' }}>
        <legend className="muted" style={{ fontSize: '0.85rem' }}>
          Workspaces
        </legend>
        {owners.length === 0 && <span className="muted">No workspaces yet.</span>}
        {owners.map((o) => (
          <Check key={o.id} label={o.name} checked={v.owner_ids.includes(o.id)} onChange={(on) => toggleOwner(o.id, on)} />
        ))}
      </fieldset>
    </Form>
  );
}
