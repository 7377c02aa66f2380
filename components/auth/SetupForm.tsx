'use client';
// Creates the first administrator with the setup token, then signs them in.
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Field } from '@/components/ui/Field';
import { ErrorNote } from '@/components/ui/bits';
import { api, ApiFailure } from '@/lib/console/api';
import { signInWith } from './SignInForm';

export function SetupForm({ token }: { token: string }) {
  const router = useRouter();
  const [form, setForm] = useState({ name: '', email: '', password: '', confirm: '' });
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [k]: e.target.value });
  const setup = useMutation({
    mutationFn: async () => {
      if (form.password !== form.confirm) throw new Error('The two passwords differ');
      await api('/admin/v1/setup', { method: 'POST', body: { token, name: form.name, email: form.email, password: form.password } });
      await signInWith(form.email, form.password);
    },
    onSuccess: () => {
      router.replace('/workspaces');
      router.refresh();
    },
  });
  const fields = setup.error instanceof ApiFailure ? setup.error.fields : undefined;
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        setup.mutate();
      }}
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
      <ErrorNote error={setup.error} />
      <button className="btn-primary" type="submit" disabled={setup.isPending}>
        {setup.isPending ? 'Creating…' : 'Create administrator'}
      </button>
    </form>
  );
}
