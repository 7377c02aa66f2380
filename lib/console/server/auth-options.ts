// next-auth options for the console, built per request: the session secret may live in the
// database (lib/http/session.ts reads sessions with the same one).
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { verifyCredentials } from '@/lib/access/users';
import { getDb } from '@/lib/db/client';
import { sessionSecret } from '@/lib/http/session';

export const SESSION_MAX_AGE = 12 * 3600;

export async function authOptions(): Promise<NextAuthOptions> {
  const db = await getDb();
  return {
    secret: await sessionSecret(db),
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE },
    pages: { signIn: '/signin' },
    providers: [
      CredentialsProvider({
        name: 'Email and password',
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        async authorize(credentials) {
          if (!credentials?.email || !credentials.password) return null;
          return (await verifyCredentials(db, credentials.email, credentials.password)) ?? null;
        },
      }),
    ],
  };
}
