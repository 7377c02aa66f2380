'use client';
// Email and password through next-auth's Credentials provider.
import { useMutation } from '@tanstack/react-query';
import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Field } from '@/components/ui/Field';
import { ErrorNote } from '@/components/ui/bits';

export async function signInWith(email: string, password: string) {
  const res = await signIn('credentials', { email, password, redirect: false });
  // The server's own words only for its sign-in limit (lib/console/server/sign-in-limit.ts).
  if (res?.error?.startsWith('Too many attempts')) throw new Error(res.error);
  if (!res || res.error) throw new Error('Wrong email or password');
}

export function SignInForm() {
  const router = useRouter();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation({
    mutationFn: () => signInWith(email, password),
    onSuccess: () => {
      router.replace('/workspaces');
      router.refresh();
    },
  });
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        login.mutate();
      }}
    >
      <p className="muted">Use the account your administrator created for you.</p>
      <Field label="Email">
        <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <Field label="Password">
        <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <ErrorNote error={login.error} />
      <button className="btn-primary" type="submit" disabled={login.isPending}>
        {login.isPending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
