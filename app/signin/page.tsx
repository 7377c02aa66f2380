// Sign-in page; a signed-in user goes straight to the console.
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/auth/SignInForm';
import { currentUser, hasUsers } from '@/lib/console/server/current-user';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sign in · Silo' };

export default async function SignInPage() {
  if (await currentUser()) redirect('/workspaces');
  return (
    <main className="auth">
      <div className="auth-card">
        <h1>Sign in to Silo</h1>
        {(await hasUsers()) ? (
          <SignInForm />
        ) : (
          <p className="muted">
            This instance has no users yet. Open the one-time setup link printed in the server log to create the first administrator.
          </p>
        )}
      </div>
    </main>
  );
}
