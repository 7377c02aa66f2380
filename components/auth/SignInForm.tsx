'use client';
// Email and password through next-auth's Credentials provider.
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import { useSignIn } from '@/lib/console/hooks/session';

export function SignInForm() {
  const router = useRouter();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useSignIn(() => {
    router.replace('/workspaces');
    router.refresh();
  });
  return (
    <Form
      onSubmit={() => login.mutate({ email, password })}
      error={login.error}
      pending={login.isPending}
      submit="Sign in"
      pendingLabel="Signing in…"
    >
      <p className="muted">Use the account your administrator created for you.</p>
      <Field label="Email">
        <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <Field label="Password">
        <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
    </Form>
  );
}
