// Every console page: signed-out visitors are sent to sign in (checked here, on the server, since
// a proxy over the whole site would cut upload bodies).
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { Shell } from '@/components/shell/Shell';
import { currentUser } from '@/lib/console/server/current-user';

export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  if (!user) redirect('/signin');
  return <Shell user={user}>{children}</Shell>;
}
