'use client';
// The console frame: navigation, who is signed in, theme and sign-out.
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import type { ReactNode } from 'react';
import { useSignOut } from '@/lib/console/hooks/session';
import type { User } from '@/lib/schemas/records';
import { ThemeToggle } from './ThemeToggle';
import { UserContext } from './UserContext';

const LINKS = [
  { href: '/workspaces', label: 'Workspaces' },
  { href: '/apps', label: 'Applications' },
  { href: '/enrollments', label: 'Enrollments' },
  { href: '/users', label: 'Users', admin: true },
];

export function Shell({ user, children }: { user: User; children: ReactNode }) {
  const path = usePathname();
  const router = useRouter();
  const signOut = useSignOut();
  return (
    <UserContext.Provider value={user}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <div className="shell">
        <aside className="sidebar">
          <Link href="/workspaces" className="brand">
            <span className="brand-mark" aria-hidden="true">
              S
            </span>{' '}
            Silo
          </Link>
          <nav className="nav" aria-label="Console">
            {LINKS.filter((l) => !l.admin || user.admin).map((l) => (
              <Link key={l.href} href={l.href} aria-current={path?.startsWith(l.href) ? 'page' : undefined}>
                {l.label}
              </Link>
            ))}
            <a href="/docs">API reference</a>
          </nav>
          <div className="sidebar-foot">
            <span className="who" title={user.email}>
              {user.name || user.email}
              {user.admin ? ' · admin' : ''}
            </span>
            <ThemeToggle />
            <button
              type="button"
              className="btn btn-small"
              onClick={async () => {
                await signOut();
                router.replace('/signin');
                router.refresh();
              }}
            >
              Sign out
            </button>
          </div>
        </aside>
        <main id="main" className="main">
          {children}
        </main>
      </div>
    </UserContext.Provider>
  );
}
