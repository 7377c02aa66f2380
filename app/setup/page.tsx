// The page behind the one-time setup link: it creates the first administrator.
import Link from 'next/link';
import { SetupForm } from '@/components/auth/SetupForm';
import { setupTokenValid } from '@/lib/access/issue-setup-token';
import { getDb } from '@/lib/db/client';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Set up · Silo' };

export default async function SetupPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  const valid = !!token && (await setupTokenValid(await getDb(), token));
  return (
    <main className="auth">
      <div className="auth-card">
        <h1>Set up Silo</h1>
        {valid ? (
          <SetupForm token={token} />
        ) : (
          <>
            <p className="muted">
              This setup link has been used or has expired. While no administrator exists, a server start prints the link that is valid (or
              says which instance printed it).
            </p>
            <Link href="/signin">Go to sign in</Link>
          </>
        )}
      </div>
    </main>
  );
}
