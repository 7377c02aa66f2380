'use client';
// Signing in and out (next-auth's Credentials provider) and the first administrator's setup.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { signIn, signOut } from 'next-auth/react';
import { api } from '../api';

async function signInWith(email: string, password: string) {
  const res = await signIn('credentials', { email, password, redirect: false });
  // The server's own words only for its sign-in limit (lib/console/server/sign-in-limit.ts).
  if (res?.error?.startsWith('Too many attempts')) throw new Error(res.error);
  if (!res || res.error) throw new Error('Wrong email or password');
}

export const useSignIn = (onSuccess: () => void) =>
  useMutation({ mutationFn: ({ email, password }: { email: string; password: string }) => signInWith(email, password), onSuccess });

export interface Setup {
  token: string;
  name: string;
  email: string;
  password: string;
  /** the password typed again */
  confirm: string;
}

/** Creates the first administrator with the one-time setup token, then signs them in. */
export const useSetup = (onSuccess: () => void) =>
  useMutation({
    mutationFn: async ({ confirm, ...s }: Setup) => {
      if (s.password !== confirm) throw new Error('The two passwords differ');
      await api('/admin/v1/setup', { method: 'POST', body: s });
      await signInWith(s.email, s.password);
    },
    onSuccess,
  });

/** Signs out and forgets every cached answer (the next user must not see them). */
export function useSignOut() {
  const queries = useQueryClient();
  return async () => {
    await signOut({ redirect: false });
    queries.clear();
  };
}
