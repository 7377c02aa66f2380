'use client';
// Creates the first administrator with the setup token, then signs them in.
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import { fieldErrors } from '@/lib/console/api';
import { useSetup } from '@/lib/console/hooks/session';

export function SetupForm({ token }: { token: string }) {
  const router = useRouter();
  const [form, setForm] = useState({ name: '', email: '', password: '', confirm: '' });
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [k]: e.target.value });
  const setup = useSetup(() => {
    router.replace('/workspaces');
    router.refresh();
  });
  const fields = fieldErrors(setup.error);
  return (
    <Form
      onSubmit={() => setup.mutate({ token, ...form })}
      error={setup.error}
      pending={setup.isPending}
      submit="Create administrator"
      pendingLabel="Creating…"
    >
      <p className="muted">Create the first administrator. This link works once.</p>
      <Field label="Name">
        <input autoComplete="name" value={form.name} onChange={set('name')} />
      </Field>
      <Field label="Email" error={fields?.email}>
        <input type="email" autoComplete="username" required value={form.email} onChange={set('email')} />
      </Field>
      <Field label="Password" hint="At least 8 characters" error={fields?.password}>
        <input type="password" autoComplete="new-password" required minLength={8} value={form.password} onChange={set('password')} />
      </Field>
      <Field label="Repeat password">
        <input type="password" autoComplete="new-password" required value={form.confirm} onChange={set('confirm')} />
      </Field>
    </Form>
  );
}
