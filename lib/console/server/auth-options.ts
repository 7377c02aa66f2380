// next-auth options for the console, built per request: sign-in is rate limited by the caller's
// address and browser (sign-in-limit.ts), and every session carries its user's session version,
// checked on each use (lib/http/session.ts), so a password change or a removal ends it at once.
import { log } from '@/lib/log';
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { currentSessionVersion, verifyCredentials } from '@/lib/access/verify-credentials';
import { getDb } from '@/lib/db/client';
import { sessionSecret } from '@/lib/http/session-secret';
import { knownDevice } from './known-device';
import { withinSignInLimits } from './sign-in-limit';

export const SESSION_MAX_AGE = 12 * 3600;
const REVOKED = 'Session revoked';

export interface SignInRequest {
  address: string;
  /** the known-device cookie the browser sent */
  deviceCookie?: string;
  /** set when a sign-in succeeds: the route marks the browser as known for this email */
  signedIn?: string;
}

export async function authOptions(request: SignInRequest): Promise<NextAuthOptions> {
  const db = await getDb();
  return {
    secret: await sessionSecret(),
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE },
    pages: { signIn: '/signin' },
    providers: [
      CredentialsProvider({
        name: 'Email and password',
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        async authorize(credentials) {
          if (!credentials?.email || !credentials.password) return null;
          const email = credentials.email.trim().toLowerCase();
          const device = await knownDevice(request.deviceCookie, email);
          const user = await withinSignInLimits({ email, address: request.address, device }, () =>
            verifyCredentials(db, email, credentials.password),
          );
          if (!user) return null;
          request.signedIn = email;
          return user;
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) return { ...token, sv: (user as { sessionVersion?: number }).sessionVersion };
        // next-auth's own /api/auth/session: a revoked session is cleared like an invalid one.
        if (typeof token.sub !== 'string' || (await currentSessionVersion(db, token.sub)) !== token.sv) throw new Error(REVOKED);
        return token;
      },
    },
    logger: {
      // A revoked session ending is expected, not an error worth a log entry.
      error(code, metadata) {
        if (code === 'JWT_SESSION_ERROR' && (metadata as { message?: string })?.message === REVOKED) return;
        log.error({ code, metadata }, 'next-auth error');
      },
      warn: (code) => log.warn({ code }, 'next-auth warning'),
      debug: () => {},
    },
  };
}
